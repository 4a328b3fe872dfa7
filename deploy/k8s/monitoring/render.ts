// Renders prometheus-rule.yaml (the Prometheus Operator's PrometheusRule) from back-office.rules.yaml,
// the one source of the alerts, and the Grafana dashboards (dashboards/*.json) from dashboards.ts:
// `node deploy/k8s/monitoring/render.ts` after changing either; test/e2e/alert-rules.test.ts and
// dashboards.test.ts fail while a rendered file differs.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { renderDashboards } from './dashboards.ts';

const DIR = import.meta.dirname;
export const RULES_FILE = path.join(DIR, 'back-office.rules.yaml');
export const PROMETHEUS_RULE_FILE = path.join(DIR, 'prometheus-rule.yaml');
export const DASHBOARDS_DIR = path.join(DIR, 'dashboards');
export { renderDashboards };

/** A YAML file of this folder (the rules, their unit tests), parsed. */
export function readYaml(file: string): unknown {
  return parse(readFileSync(path.resolve(DIR, file), 'utf8'));
}

/** The PrometheusRule's text for the rules file's groups. */
export function renderPrometheusRule(rulesText: string = readFileSync(RULES_FILE, 'utf8')): string {
  const { groups } = parse(rulesText) as { groups: unknown[] };
  const rule = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: {
      name: 'back-office',
      // The Prometheus Operator picks rules by label (its ruleSelector): match yours.
      labels: { 'app.kubernetes.io/name': 'back-office', role: 'alert-rules' },
    },
    spec: { groups },
  };
  return `# Rendered from back-office.rules.yaml by render.ts: edit that file, then run
# \`node deploy/k8s/monitoring/render.ts\` (test/e2e/alert-rules.test.ts holds the two equal).
${stringify(rule, { lineWidth: 0 })}`;
}

if (import.meta.main) {
  writeFileSync(PROMETHEUS_RULE_FILE, renderPrometheusRule());
  console.log(`wrote ${path.relative(process.cwd(), PROMETHEUS_RULE_FILE)}`);
  mkdirSync(DASHBOARDS_DIR, { recursive: true });
  for (const [file, text] of renderDashboards()) {
    writeFileSync(path.join(DASHBOARDS_DIR, file), text);
    console.log(`wrote ${path.relative(process.cwd(), path.join(DASHBOARDS_DIR, file))}`);
  }
}
