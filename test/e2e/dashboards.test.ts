// The Grafana dashboards as code (deploy/k8s/monitoring/dashboards.ts, rendered to dashboards/*.json):
// the five the on-call engineer needs are there and up to date, provisioning-ready (a uid each, the
// Prometheus data source a variable), every query parses (promtool) and names only series the
// processes serve (README's table), Node's defaults, the alert rules' recording rules or a documented
// exporter series (docs/operations.md).
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DASHBOARDS_DIR, RULES_FILE, readYaml, renderDashboards } from '../../deploy/k8s/monitoring/render.ts';
import { knownSeries, seriesIn } from './support/promql-series.ts';

interface Target {
  expr: string;
  datasource: { uid: string };
}
interface GrafanaPanel {
  type: string;
  title: string;
  datasource?: { uid: string };
  targets?: Target[];
}
interface GrafanaDashboard {
  uid: string;
  title: string;
  templating: { list: Array<{ name: string; type: string; query: string }> };
  panels: GrafanaPanel[];
}

// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's data source variable, not a template
const CHOSEN = '${datasource}';
const rendered = renderDashboards();
const boards = [...rendered].map(([file, text]) => ({ file, d: JSON.parse(text) as GrafanaDashboard }));
const queries = boards.flatMap(({ file, d }) => d.panels.flatMap((p) => (p.targets ?? []).map((x) => ({ where: `${file}: ${p.title}`, expr: x.expr }))));

t.test('the dashboards are rendered and provisioning-ready', async (t) => {
  t.same(
    [...rendered.keys()].sort(),
    ['api.json', 'compliance.json', 'infrastructure.json', 'money.json', 'webhooks.json'],
    'API, money, webhooks, compliance, infrastructure',
  );
  t.same(readdirSync(DASHBOARDS_DIR).sort(), [...rendered.keys()].sort(), 'dashboards/ holds exactly those');
  for (const [file, text] of rendered)
    t.equal(readFileSync(path.join(DASHBOARDS_DIR, file), 'utf8'), text, `${file} is up to date (node deploy/k8s/monitoring/render.ts)`);
  t.equal(new Set(boards.map(({ d }) => d.uid)).size, boards.length, 'each has its own uid');
  for (const { file, d } of boards) {
    t.ok(
      d.templating.list.some((v) => v.name === 'datasource' && v.type === 'datasource' && v.query === 'prometheus'),
      `${file}: the Prometheus data source is a variable`,
    );
    const graphs = d.panels.filter((p) => p.type !== 'row');
    t.ok(graphs.length >= 3, `${file}: has panels`);
    t.ok(
      graphs.every((p) => p.datasource?.uid === CHOSEN && (p.targets ?? []).length > 0 && p.targets!.every((x) => x.datasource.uid === CHOSEN)),
      `${file}: every panel queries the chosen data source`,
    );
  }
});

t.test('every query names only series that are served or documented', async (t) => {
  const known = knownSeries();
  const rules = (readYaml(RULES_FILE) as { groups: Array<{ rules: Array<{ record?: string }> }> }).groups.flatMap((g) => g.rules);
  for (const r of rules) if (r.record) known.add(r.record);
  const unknown = queries.flatMap((x) =>
    seriesIn(x.expr)
      .filter((s) => !known.has(s))
      .map((s) => `${x.where}: ${s}`),
  );
  t.same(unknown, [], 'no query reads a series nobody serves');
  t.ok(
    queries.every((x) => seriesIn(x.expr).length > 0),
    'every query reads a series',
  );
});

t.test('every query parses (promtool)', async (t) => {
  const bin = [process.env.PROMTOOL_PATH, '/usr/bin/promtool', '/usr/local/bin/promtool', '/opt/homebrew/bin/promtool'].find(
    (p): p is string => !!p && existsSync(p),
  );
  t.ok(bin, 'promtool is installed (npm test installs it; else: apt-get install prometheus, or set PROMTOOL_PATH)');
  if (!bin) return;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bo-dashboards-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // Each query as a recording rule, Grafana's interval variable made a duration (JSON is YAML).
  const file = path.join(dir, 'queries.yaml');
  writeFileSync(
    file,
    JSON.stringify({
      groups: [{ name: 'dashboards', rules: queries.map((x, i) => ({ record: `dashboard:query_${i}`, expr: x.expr.replaceAll('$__rate_interval', '5m') })) }],
    }),
  );
  const r = spawnSync(bin, ['check', 'rules', file], { encoding: 'utf8' });
  t.equal(r.status, 0, `promtool check rules on the ${queries.length} queries\n${r.stdout}${r.stderr}`);
});
