// docs/connectors-hub88.md's status mapping table is the code's (connectors/hub88/statuses.ts), row
// for row and in order: an operator or Hub88's engineer reads the table, the connector answers the code.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HUB88_STATUSES } from '@bo/contracts';
import { HUB88_REFUSALS } from '../src/connectors/hub88/index.ts';

const DOC = path.resolve(import.meta.dirname, '../../../docs/connectors-hub88.md');

t.test('the status mapping table of docs/connectors-hub88.md is the code', async (t) => {
  const text = readFileSync(DOC, 'utf8');
  const section = text.slice(text.indexOf('## Status mapping'), text.indexOf('## The Games API'));
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
  const coded = HUB88_REFUSALS.map((r) => ({
    code: r.code,
    when: r.when ? `\`${r.when.key}\`: ${r.when.values.map((v) => `\`${v}\``).join(', ')}` : undefined,
    status: r.status,
    calls: [...r.calls],
  }));
  t.same(documented, coded, 'every row, in order');
  t.ok(
    documented.every((r) => (HUB88_STATUSES as readonly string[]).includes(r.status)),
    "every status is one of Hub88's table",
  );
});
