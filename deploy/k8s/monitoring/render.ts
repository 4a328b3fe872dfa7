// Renders prometheus-rule.yaml (the Prometheus Operator's PrometheusRule) from back-office.rules.yaml,
// the one source of the alerts: `node deploy/k8s/monitoring/render.ts` after changing the rules;
// test/e2e/alert-rules.test.ts fails while the two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';

const DIR = import.meta.dirname;
export const RULES_FILE = path.join(DIR, 'back-office.rules.yaml');
export const PROMETHEUS_RULE_FILE = path.join(DIR, 'prometheus-rule.yaml');

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
}
