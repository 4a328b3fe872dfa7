// Reads turbo's streamed output of the workspaces' tap runs (`@bo/x:test: <TAP line>`) and prints
// one line per finished test file, with the failing assertions and their diagnostics when it
// failed (kept too: the run's last lines say them again); keeps each workspace's summary
// (`# { total, pass, fail }`) for the final count, and each file's wall time (npm test writes them
// to .data/test-timings.json: `npm run test:timings`).

interface FileState {
  name: string;
  assertions: number;
  lines: string[];
}
interface Workspace {
  file?: FileState;
  total?: { pass: number; fail: number };
  /** When the workspace's previous file ended (or its run began): a workspace runs its files one at a time. */
  mark: number;
}

/** One finished test file. `wallMs` runs from the end of the workspace's previous file (or its start), so it
 * includes the file's process start and teardown, and is at least `tapMs`, tap's own figure for the file. */
export interface FileTiming {
  workspace: string;
  file: string;
  ok: boolean;
  assertions: number;
  wallMs: number;
  tapMs: number;
}

const PREFIX = /^(@?[\w./-]+):test: ?(.*)$/;
const LEAF = /^(\s+)(not )?ok \d+ - (.*)$/;

export class TapProgress {
  readonly #print: (line: string) => void;
  readonly #workspaces = new Map<string, Workspace>();
  readonly #failures: Array<{ file: string; details: string[] }> = [];
  readonly #timings: FileTiming[] = [];
  readonly #now: () => number;

  constructor(print: (line: string) => void, now: () => number = Date.now) {
    this.#print = print;
    this.#now = now;
  }

  line(raw: string): void {
    const m = raw.match(PREFIX);
    if (!m) return;
    const [, name, text] = m;
    let ws = this.#workspaces.get(name!);
    if (!ws) {
      ws = { mark: this.#now() };
      this.#workspaces.set(name!, ws);
    }

    const subtest = text!.match(/^# Subtest: (.*)$/);
    if (subtest) {
      ws.file = { name: subtest[1]!, assertions: 0, lines: [] };
      return;
    }
    const closed = text!.match(/^(not )?ok \d+ - (\S+)(?: # time=([\d.]+)ms)?(.*)$/);
    if (closed) {
      this.#finishFile(name!, ws, !closed[1], closed[2]!, Number(closed[3] ?? 0), closed[4] ?? '');
      return;
    }
    const summary = text!.match(/^# \{ total: (\d+), pass: (\d+)(?:, fail: (\d+))?/);
    if (summary) {
      ws.total = { pass: Number(summary[2]), fail: Number(summary[3] ?? 0) };
      return;
    }
    if (ws.file) {
      ws.file.lines.push(text!);
      const leaf = text!.match(LEAF);
      // A closing line of a subtest carries `# time=`; an assertion does not.
      if (leaf && !/ # time=[\d.]+m?s/.test(text!)) ws.file.assertions++;
    }
  }

  #finishFile(workspace: string, ws: Workspace, ok: boolean, file: string, ms: number, rest: string): void {
    const state = ws.file ?? { name: file, assertions: 0, lines: [] };
    ws.file = undefined;
    const now = this.#now();
    // Files of one workspace run one after another, or a few at once (its tap `jobs`): then the time
    // since the last file ended undercounts, and tap's own figure (process start left out) is the floor.
    this.#timings.push({ workspace, file, ok, assertions: state.assertions, wallMs: Math.max(now - ws.mark, ms), tapMs: ms });
    ws.mark = now;
    const seconds = (ms / 1000).toFixed(1);
    const skipped = /# SKIP/i.test(rest) ? ', skipped' : '';
    this.#print(`[test] ${ok ? 'ok  ' : 'FAIL'} ${workspace} ${file}  (${state.assertions} assertions, ${seconds} s${skipped})`);
    if (ok) return;
    const details = failureDetails(state.lines);
    this.#failures.push({ file: `${workspace} ${file}`, details });
    for (const detail of details) this.#print(`       ${detail}`);
  }

  totals(): { passed: number; failed: number; suites: number } {
    let passed = 0;
    let failed = 0;
    let suites = 0;
    for (const ws of this.#workspaces.values()) {
      if (!ws.total) continue;
      suites++;
      passed += ws.total.pass;
      failed += ws.total.fail;
    }
    return { passed, failed, suites };
  }

  /** Each failed file with its failing assertions (as printed when it ended), for the run's closing lines. */
  failures(): Array<{ file: string; details: string[] }> {
    return this.#failures.map((f) => ({ file: f.file, details: [...f.details] }));
  }

  timings(): FileTiming[] {
    return [...this.#timings];
  }
}

/** The failing assertions of one file, each under the names of the subtests around it, with its YAML diagnostics (cut at 30 lines). */
export function failureDetails(lines: string[]): string[] {
  const out: string[] = [];
  const names: Array<{ indent: number; name: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const indent = line!.length - line!.trimStart().length;
    const sub = line!.match(/^\s*# Subtest: (.*)$/);
    if (sub) {
      while (names.length && names.at(-1)!.indent >= indent) names.pop();
      names.push({ indent, name: sub[1]! });
      continue;
    }
    const leaf = line!.match(/^\s*not ok \d+ - (.*)$/);
    // A failed subtest's own closing line (`# time=`) repeats what its assertions said.
    if (!leaf || / # time=[\d.]+m?s/.test(line!)) continue;
    const path = names.filter((n) => n.indent < indent).map((n) => n.name);
    out.push(`${path.length ? `${path.join(' › ')} › ` : ''}not ok - ${leaf[1]}`);
    // Its YAML block follows: `---` … `...`, indented two more.
    if (lines[i + 1]?.trim() === '---') {
      let j = i + 2;
      const yaml: string[] = [];
      // Frames inside the test runner's own modules say nothing about the failure.
      for (; j < lines.length && lines[j]!.trim() !== '...'; j++) if (!/node_modules\//.test(lines[j]!)) yaml.push(lines[j]!.slice(indent));
      out.push(...yaml.slice(0, 30), ...(yaml.length > 30 ? [`  … ${yaml.length - 30} more lines`] : []));
      i = j;
    }
  }
  return out.length ? out : lines.slice(-15);
}

/**
 * A failure's lines for the run's closing recap: its `not ok` lines and what tap says of them, without
 * the source excerpt and the stack (the `at:` block kept as one `file:line`), so the diff fits.
 */
export function failureRecap(details: string[]): string[] {
  const out: string[] = [];
  let skipping: number | undefined;
  for (let i = 0; i < details.length; i++) {
    const line = details[i]!;
    const indent = line.length - line.trimStart().length;
    if (skipping !== undefined && (indent > skipping || line.trim() === '')) continue;
    skipping = undefined;
    const key = line.match(/^(\s+)(stack|source|at):/);
    if (!key) {
      out.push(line);
      continue;
    }
    skipping = indent;
    if (key[2] !== 'at') continue;
    // `at:` then `fileName:` and `lineNumber:` one level deeper.
    const block: string[] = [];
    for (let j = i + 1; j < details.length && details[j]!.length - details[j]!.trimStart().length > indent; j++) block.push(details[j]!.trim());
    const field = (name: string) =>
      block
        .find((l) => l.startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim();
    const file = field('fileName');
    if (file) out.push(`${key[1]}at: ${file}:${field('lineNumber') ?? '?'}`);
  }
  return out;
}
