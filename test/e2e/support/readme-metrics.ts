// The README's metrics table (its "Metrics" section), read the way every check of it reads it: the
// metrics test (both ways against the processes), the alert rules' and the dashboards' tests.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface Listed {
  labels: string[];
  processes: string[];
}

/** The README's metrics table: series name → its labels and the processes that expose it. */
export function readmeMetrics(): Map<string, Listed> {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../../../README.md'), 'utf8');
  const rows = new Map<string, Listed>();
  for (const m of readme.matchAll(/^\s*\| `([a-z_]+)(?:\{([a-z_,]*)\})?` \| ([a-z, ]+) \|/gm)) {
    rows.set(m[1]!, { labels: m[2] ? m[2].split(',').sort() : [], processes: m[3]!.split(',').map((p) => p.trim()) });
  }
  return rows;
}
