// Other Node.js releases than the pinned one, for tests that run code the way an operator's project
// would. Each comes from the registry's `node-<platform>-<arch>` package (the binary the `node`
// package installs) and is kept under the OS temp dir by version, so a machine fetches it once.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * Runs a command with the environment given, without NODE_OPTIONS: tap's processinfo puts its
 * loaders back into NODE_OPTIONS of every child, where they break other Node versions and the tsc
 * launcher (ERR_REQUIRE_CYCLE_MODULE); a shell drops them before the command runs.
 */
export async function runClean(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  const { stdout } = await execFileAsync('sh', ['-c', 'unset NODE_OPTIONS; exec "$0" "$@"', cmd, ...args], {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** The path of a `node` binary of exactly `version` (e.g. `22.23.3`), fetched on first use. */
export async function nodeRelease(version: string): Promise<string> {
  const pkg = `node-${process.platform}-${process.arch}`;
  const dir = path.join(tmpdir(), 'bo-node-releases', `${pkg}-${version}`);
  const bin = path.join(dir, 'node');
  if (existsSync(bin)) return bin;
  mkdirSync(path.dirname(dir), { recursive: true });
  // Installed aside and renamed into place: a concurrent run never sees half a binary.
  const staging = mkdtempSync(`${dir}.partial-`);
  try {
    writeFileSync(path.join(staging, 'package.json'), '{"private":true}\n');
    await runClean('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', `${pkg}@${version}`], { cwd: staging });
    renameSync(path.join(staging, 'node_modules', pkg, 'bin', 'node'), path.join(staging, 'node'));
    rmSync(path.join(staging, 'node_modules'), { recursive: true, force: true });
    rmSync(path.join(staging, 'package.json'));
    renameSync(staging, dir);
  } catch (err) {
    if (!existsSync(bin)) throw err;
    // Another run put it in place first.
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return bin;
}
