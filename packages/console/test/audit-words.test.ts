// The audit log in words (assets/audit-words.js, issue #70): every change the admin API makes has its
// words in both languages, a target its kind, and a row's before and after read as the fields it changed,
// each value written as the person's language writes it.
import t from 'tap';
import * as contracts from '@bo/contracts';

let chosen = 'pt';
Object.defineProperty(globalThis, 'localStorage', { configurable: true, value: { getItem: () => chosen, setItem: () => undefined } });
const { ACTIONS, actionWords, changedFields, targetWords, valueWords } = await import(new URL('../assets/audit-words.js', import.meta.url).href);

/** Every admin operation that changes something: each is audited under its id. */
const changes = new Set<string>();
for (const group of Object.values(contracts)) {
  if (!group || typeof group !== 'object') continue;
  for (const op of Object.values(group as Record<string, unknown>)) {
    const o = op as { id?: unknown; method?: unknown; path?: unknown };
    if (o && typeof o === 'object' && typeof o.id === 'string' && typeof o.path === 'string' && o.path.startsWith('/admin') && o.method !== 'GET')
      changes.add(o.id);
  }
}

t.test('every audited action has its words in both languages', async (t) => {
  t.ok(changes.size >= 70, `${changes.size} admin changes`);
  t.same(
    [...changes].filter((id) => !Object.hasOwn(ACTIONS, id)),
    [],
    'no admin change without words',
  );
  for (const [id, [pt, en]] of Object.entries(ACTIONS as Record<string, [string, string]>)) {
    t.ok(pt && en && pt !== id && en !== id, `${id}: words, not the code`);
  }
  chosen = 'pt';
  t.equal(actionWords('adminKycDecision'), 'Decisão de KYC');
  chosen = 'en';
  t.equal(actionWords('adminKycDecision'), 'KYC decision');
  t.equal(actionWords('adminSomethingOfTomorrow'), undefined, 'an action it does not know: the page shows its code');
});

t.test('a target: its kind in words, its id as recorded', async (t) => {
  chosen = 'pt';
  t.same(targetWords('player:plr_123'), { kind: 'Apostador', id: 'plr_123' });
  t.same(targetWords('sigap_day:brd_1/2026-11-20'), { kind: 'Dia SIGAP', id: 'brd_1/2026-11-20' });
  t.same(targetWords('gizmo:1'), { kind: undefined, id: '1' }, 'a kind it does not know');
  t.same(targetWords('plain'), { kind: undefined, id: 'plain' });
});

t.test("a row's changes, each value as the language writes it", async (t) => {
  chosen = 'pt';
  const nbsp = (s: string) => s.replace(/\u00a0/g, ' ');
  const rows = changedFields(
    { status: 'approved', amount: '3900.00', reviewedAt: null, note: 'kept' },
    { status: 'paid', amount: '3900.00', paidAt: '2026-11-20T15:04:05.000Z', reason: 'pago via PIX', four: true },
  );
  t.same(
    rows.map((r: { key: string }) => r.key),
    ['status', 'paidAt', 'reason', 'four'],
    'only what changed; a field before holds that after does not name is not read as removed',
  );
  t.equal(rows[0].name, 'Situação');
  t.same(valueWords('status', 'approved'), { text: 'Aprovado' }, 'a status in words');
  t.equal(nbsp(valueWords('amount', '3900.00').text), 'R$ 3.900,00', 'an amount in a money field');
  t.same(valueWords('version', '3900.00'), { code: '3900.00' }, 'a decimal in another field is not money');
  t.match(valueWords('paidAt', '2026-11-20T15:04:05.000Z').text, /^20\/11\/2026,? 12:04 Brasília$/, 'a time in Brasília');
  t.same(valueWords('birthDate', '1988-03-14'), { text: '14/03/1988' }, 'a calendar day');
  t.same(valueWords('four', true), { text: 'sim' });
  t.same(valueWords('count', 12000), { text: '12.000' });
  t.same(valueWords('reason', 'pago via PIX'), { quoted: 'pago via PIX' }, "a person's words, quoted as written");
  t.same(valueWords('credential', 'cred_abc'), { code: 'cred_abc' }, 'an id as code');
  t.same(valueWords('settings', { a: 1 }), { code: '{"a":1}' }, 'a structure as code');
  t.same(valueWords('status', 'not_a_known_code'), { code: 'not_a_known_code' }, 'a code without words: as code, never as made-up words');
  t.same(
    changedFields({ cpf: '***', category: 'pep' }, null).map((r: { key: string; after: unknown }) => [r.key, r.after]),
    [
      ['cpf', undefined],
      ['category', undefined],
    ],
    'a removal: what was there',
  );
  t.same(changedFields(null, null), [], 'nothing recorded');
});
