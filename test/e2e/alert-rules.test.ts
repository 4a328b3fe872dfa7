// The alerts as code (deploy/k8s/monitoring): `promtool check rules` and `promtool test rules` pass
// (a firing and a quiet case per alert), the PrometheusRule is the rules file rendered, every alert
// names its own section of docs/runbook.md, and every series a rule reads is served by the
// processes (README's table), Node's defaults or a documented exporter (docs/operations.md).
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROMETHEUS_RULE_FILE, RULES_FILE, readYaml, renderPrometheusRule } from '../../deploy/k8s/monitoring/render.ts';
import { knownSeries, seriesIn } from './support/promql-series.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIR = path.dirname(RULES_FILE);
const TEST_FILES = [
  'back-office.rules.test.yaml',
  'back-office.sweep.rules.test.yaml',
  'back-office.after-hit.rules.test.yaml',
  'back-office.games.rules.test.yaml',
  'back-office.duties.rules.test.yaml',
  'back-office.reconciliation.rules.test.yaml',
  'back-office.continuity.rules.test.yaml',
  'back-office.continuity-daily.rules.test.yaml',
  'back-office.privacy.rules.test.yaml',
];

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  annotations?: Record<string, string>;
}
interface RuleTest {
  alert_rule_test?: Array<{ alertname: string; exp_alerts?: unknown[] }>;
}

const rules = (readYaml(RULES_FILE) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap((g) => g.rules);
const alerts = rules.filter((r) => r.alert);

/** promtool: PROMTOOL_PATH (npm test finds or installs it: scripts/test-promtool.ts), else the usual places. */
function promtool(): string | undefined {
  const candidates = [process.env.PROMTOOL_PATH, '/usr/bin/promtool', '/usr/local/bin/promtool', '/opt/homebrew/bin/promtool'];
  return candidates.find((p): p is string => !!p && existsSync(p));
}

t.test('promtool checks the rules and runs their unit tests', async (t) => {
  const bin = promtool();
  t.ok(bin, 'promtool is installed (npm test installs Debian\'s "prometheus" package as root; else: apt-get install prometheus, or set PROMTOOL_PATH)');
  if (!bin) return;
  const check = spawnSync(bin, ['check', 'rules', path.basename(RULES_FILE)], { cwd: DIR, encoding: 'utf8' });
  t.equal(check.status, 0, `promtool check rules\n${check.stdout}${check.stderr}`);
  const unit = spawnSync(bin, ['test', 'rules', ...TEST_FILES], { cwd: DIR, encoding: 'utf8' });
  t.equal(unit.status, 0, `promtool test rules\n${unit.stdout}${unit.stderr}`);
});

t.test('the PrometheusRule is the rules file rendered', async (t) => {
  t.equal(readFileSync(PROMETHEUS_RULE_FILE, 'utf8'), renderPrometheusRule(), 'prometheus-rule.yaml is up to date (run node deploy/k8s/monitoring/render.ts)');
});

t.test('every alert has a firing and a quiet unit test', async (t) => {
  const cases = TEST_FILES.flatMap((f) => (readYaml(f) as { tests: RuleTest[] }).tests.flatMap((x) => x.alert_rule_test ?? []));
  t.ok(alerts.length >= 15, 'the rules hold the alerts the issue lists');
  for (const a of alerts) {
    const mine = cases.filter((c) => c.alertname === a.alert);
    t.ok(
      mine.some((c) => (c.exp_alerts ?? []).length > 0),
      `${a.alert}: a case where it fires`,
    );
    t.ok(
      mine.some((c) => (c.exp_alerts ?? []).length === 0),
      `${a.alert}: a case where it stays quiet`,
    );
  }
});

t.test('every alert names its own section of the runbook', async (t) => {
  const runbook = readFileSync(path.join(ROOT, 'docs/runbook.md'), 'utf8');
  const headings = new Set(
    [...runbook.matchAll(/^#{2,4} (.+)$/gm)].map((m) =>
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replace(/ /g, '-'),
    ),
  );
  for (const a of alerts) {
    const anchor = a.alert!.toLowerCase();
    t.equal(a.annotations?.runbook_url, `docs/runbook.md#${anchor}`, `${a.alert}: runbook_url`);
    t.ok(headings.has(anchor), `${a.alert}: docs/runbook.md has its section`);
  }
});

t.test('every series a rule reads is served or documented', async (t) => {
  const known = knownSeries();
  for (const r of rules) if (r.record) known.add(r.record);
  const unknown = rules.flatMap((r) =>
    seriesIn(r.expr)
      .filter((s) => !known.has(s))
      .map((s) => `${r.alert ?? r.record}: ${s}`),
  );
  t.same(unknown, [], 'no rule reads a series nobody serves');
  t.ok(
    rules.every((r) => seriesIn(r.expr).length > 0),
    'each rule reads at least one series',
  );
});
