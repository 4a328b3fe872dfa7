// docs/connectors-betsy.md's status mapping table is the code's (connectors/betsy/statuses.ts), row
// for row and in order: an operator or Betsy's engineer reads the table, the connector answers the code.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BETSY_ERROR_CODES } from '@bo/contracts';
import { BETSY_REFUSALS } from '../src/connectors/betsy/index.ts';

const DOC = path.resolve(import.meta.dirname, '../../../docs/connectors-betsy.md');

t.test('the status mapping table of docs/connectors-betsy.md is the code', async (t) => {
  const text = readFileSync(DOC, 'utf8');
  const section = text.slice(text.indexOf('## Status mapping'), text.indexOf('## Resettlements, unsettles and rollbacks'));
  t.ok(section.length > 0, 'the section is there');
  const rows = section
    .split('\n')
    .filter((l) => /^\| `[A-Z_]+` \|/.test(l))
    .map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  const documented = rows.map(([code, when, betsy, calls]) => ({
    code: code!.replaceAll('`', ''),
    when: when === '—' ? undefined : when,
    betsy: Number(betsy),
    calls: calls!.split(',').map((c) => c.trim()),
  }));
  const coded = BETSY_REFUSALS.map((r) => ({
    code: r.code,
    when: r.when ? `\`${r.when.key}\`: ${r.when.values.map((v) => `\`${v}\``).join(', ')}` : undefined,
    betsy: r.betsy,
    calls: [...r.calls],
  }));
  t.same(documented, coded, 'every row, in order');
  t.ok(
    documented.every((r) => (BETSY_ERROR_CODES as readonly number[]).includes(r.betsy)),
    "every code is one of Betsy's",
  );
});
