// The README's operation table and event type list are what scripts/readme-tables.ts generates from
// the contracts now (`node scripts/readme-tables.ts` rewrites them), and every method the table names
// exists on the client with the argument order the table shows.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { publicOperations } from '@bo/contracts';
import { README_PATH, SDK_METHODS, renderReadme } from '../scripts/readme-tables.ts';
import { BackOffice, generateCpf } from '../src/index.ts';
import { isValidCpf } from '@bo/contracts';

t.test('the README tables are current (run node scripts/readme-tables.ts)', async (t) => {
  const readme = readFileSync(README_PATH, 'utf8');
  t.equal(readme, renderReadme(readme));
});

t.test('every operation has its client method', async (t) => {
  const sdk = new BackOffice({ baseUrl: 'http://127.0.0.1:9/api/v1', key: 'bk_test_x', secret: 'sk_test_x' }) as unknown as Record<
    string,
    Record<string, unknown>
  >;
  const missing = Object.keys(publicOperations).filter((id) => {
    const [group, method] = (SDK_METHODS[id] ?? '.').split('.');
    return typeof sdk[group!]?.[method!] !== 'function';
  });
  t.same(missing, [], 'a method for every operation of the contract');
  t.same(
    Object.keys(SDK_METHODS).filter((id) => !(id in publicOperations)),
    [],
    'and none for an operation the contract does not have',
  );
});

// The order the table shows, checked by the typecheck (tsc -p . at the root): ids, then the body, then options.
const argumentOrder = (sdk: BackOffice) => [
  sdk.deposits.confirm('dep_1', { payer: { cpf: '52998224725' } }, { idempotencyKey: 'k' }),
  sdk.deposits.fail('dep_1', { reason: 'expired' }, { idempotencyKey: 'k' }),
  sdk.withdrawals.cancel('wd_1', {}, { idempotencyKey: 'k' }),
  sdk.responsibleGaming.setLimit('plr_1', 'loss', 'day', { value: '10.00' }, { idempotencyKey: 'k' }),
];
t.equal(typeof argumentOrder, 'function', 'the argument order type-checks');

t.test('generateCpf: valid CPFs, a new one each time', async (t) => {
  const cpfs = Array.from({ length: 200 }, () => generateCpf());
  t.same(
    cpfs.filter((c) => !/^\d{11}$/.test(c) || !isValidCpf(c)),
    [],
    'eleven digits with valid check digits (the contract validator)',
  );
  t.ok(new Set(cpfs).size > 190, 'random');
});
