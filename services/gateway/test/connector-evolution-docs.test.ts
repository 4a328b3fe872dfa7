// docs/connectors-evolution.md's status mapping table is the code's (connectors/evolution/statuses.ts),
// row for row and in order: an operator or Evolution's engineer reads the table, the connector answers the code.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EVOLUTION_STATUSES } from '@bo/contracts';
import { EVOLUTION_REFUSALS } from '../src/connectors/evolution/index.ts';

const DOC = path.resolve(import.meta.dirname, '../../../docs/connectors-evolution.md');

t.test('the status mapping table of docs/connectors-evolution.md is the code', async (t) => {
  const text = readFileSync(DOC, 'utf8');
  const section = text.slice(text.indexOf('## Status mapping'), text.indexOf('## Promotional payouts'));
  const rows = section
    .split('\n')
    .filter((l) => /^\| `[A-Z_]+` \|/.test(l))
    .map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  const documented = rows.map(([code, when, status, calls]) => ({
    code: code!.replaceAll('`', ''),
    when: when === '—' ? undefined : when,
    status: status!.replaceAll('`', ''),
    calls: calls!.split(',').map((c) => c.trim()),
  }));
  const coded = EVOLUTION_REFUSALS.map((r) => ({
    code: r.code,
    when: r.when ? `\`${r.when.key}\`: ${r.when.values.map((v) => `\`${v}\``).join(', ')}` : undefined,
    status: r.status,
    calls: [...r.calls],
  }));
  t.same(documented, coded, 'every row, in order');
  t.ok(
    documented.every((r) => (EVOLUTION_STATUSES as readonly string[]).includes(r.status)),
    "every status is one of Evolution's",
  );
});
