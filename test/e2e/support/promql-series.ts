// The series a PromQL expression names, and the series anyone may name: the README's table (what
// the processes serve), Node's default series (prom-client's, on every process) and the exporters'
// series docs/operations.md documents ("Series from outside the processes"). The alert rules' and
// the dashboards' tests check every query against these.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createServiceMetrics } from '@bo/service-kit';
import { readmeMetrics } from './readme-metrics.ts';

const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan', 'atan2']);

/** The metric names an expression reads (recording rules' names included). */
export function seriesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""') // strings
    .replace(/\{[^}]*\}/g, ' ') // label matchers
    .replace(/\[[^\]]*\]/g, ' ') // ranges and subqueries
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ') // label lists
    .replace(/\$\w+/g, ' '); // Grafana's variables
  const names = new Set<string>();
  for (const m of bare.matchAll(/(?<![\w.])([a-zA-Z_:][\w:]*)(?!\w)(\s*\()?/g)) {
    if (m[2] || KEYWORDS.has(m[1]!.toLowerCase()) || /^\d/.test(m[1]!)) continue; // a function, a keyword
    names.add(m[1]!);
  }
  return [...names];
}

/** The exporters' series docs/operations.md documents, name → its source. */
export function documentedExporterSeries(): Map<string, string> {
  const text = readFileSync(path.resolve(import.meta.dirname, '../../../docs/operations.md'), 'utf8');
  const section = text.split(/^### Series from outside the processes$/m)[1]?.split(/^#{1,3} /m)[0] ?? '';
  const rows = new Map<string, string>();
  for (const m of section.matchAll(/^\| `([a-z_:]+)` \| ([^|]+) \|/gm)) rows.set(m[1]!, m[2]!.trim());
  return rows;
}

/** Every series name a query may read: the README's (with a histogram's _bucket/_count/_sum), Node's defaults, the exporters'. */
export function knownSeries(): Set<string> {
  const known = new Set<string>();
  for (const name of readmeMetrics().keys()) for (const suffix of ['', '_bucket', '_count', '_sum']) known.add(name + suffix);
  for (const m of createServiceMetrics('probe').registry.getMetricsAsArray()) {
    if (!/^(process|nodejs)_/.test(m.name)) continue;
    for (const suffix of ['', '_bucket', '_count', '_sum']) known.add(m.name + suffix);
  }
  for (const name of documentedExporterSeries().keys()) known.add(name);
  return known;
}
