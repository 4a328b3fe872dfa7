// A player's standing changes only through its own flow (issue #41), against the real processes:
// our team's generic status change (admin `POST /admin/players/{id}/status` and the CLI's
// `players status`) refuses to end an indefinite self-exclusion, a sanctions freeze or an
// impediment restriction, with 409 STANDING_HAS_OWN_FLOW naming the flow, and the player stays as
// they were (a frozen player's deposit is still refused). The console: test/e2e/console.test.ts.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { waitFor } from '@bo/service-kit/testing';
import { ADMIN_TOKEN, startStack } from './support/stack.ts';

const CLI = path.resolve(import.meta.dirname, '../../scripts/admin-cli.ts');
const key = () => ({ 'idempotency-key': `st-${Math.random().toString(36).slice(2, 12)}` });
const LIMITS = [
  { type: 'loss', period: 'day', value: '1000.00' },
  { type: 'time', period: 'day', value: 600 },
];

t.test('the generic status change refuses what has its own flow: API and CLI', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Standing Bets');
  t.equal((await stack.admin('PUT', `/admin/operators/${op.operator.id}/compliance`, { profile: 'br-spa' })).status, 200, 'br-spa');
  const sandbox = op.sandboxClient;
  const live = op.productionClient;
  const register = async (client: typeof sandbox, externalId: string, cpf: string) => {
    const r = await client.post(
      '/players',
      { externalId, name: `Player ${externalId}`, email: `${externalId}@example.com`, cpf, birthDate: '1990-05-17', limits: LIMITS },
      key(),
    );
    if (r.status !== 201) throw new Error(`${externalId} not registered: ${JSON.stringify(r.body)}`);
    return r.body.id as string;
  };
  const statusOf = async (id: string) => (await stack.admin('GET', `/admin/players/${id}`)).body.player.status as string;
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], {
      env: { ...process.env, ADMIN_URL: stack.adminUrl, ADMIN_TOKEN, ADMIN_ACTOR: 'carla@team' },
      encoding: 'utf8',
    });

  // An indefinite self-exclusion (the player's, through the operator).
  const selfExcluded = await register(sandbox, 'st-se', '529.982.247-25');
  t.equal((await sandbox.post(`/players/${selfExcluded}/self-exclusion`, { indefinite: true }, key())).status, 200);
  // A sanctions freeze (the screening, on the operator's sandbox list). The entry first: the player's
  // first KYC event has them screened against it (an entry added while that screening runs could miss them).
  const frozen = await register(sandbox, 'st-frozen', '111.444.777-35');
  t.equal((await sandbox.post('/sandbox/screening-entries', { list: 'sanctions', cpf: '11144477735', name: 'Player st-frozen' }, key())).status, 201);
  t.equal((await sandbox.post(`/sandbox/players/${frozen}/kyc/decision`, { status: 'aprovado' })).status, 200);
  await waitFor(async () => (await statusOf(frozen)) === 'bloqueado', { what: 'the freeze' });
  // An impediment restriction (our internal list, production).
  const restricted = await register(live, 'st-imp', '390.533.447-05');
  const listed = await stack.admin('POST', '/admin/impediments', { cpf: '39053344705', category: 'athlete', note: 'a club player' }, 'carla@team');
  t.same(listed.body.restricted, [restricted], 'restricted by the listing');

  const cases = [
    { name: 'indefinite self-exclusion', id: selfExcluded, status: 'autoexcluido', heldBy: 'self_exclusion', flow: /self-exclusion\/lift/ },
    { name: 'sanctions freeze', id: frozen, status: 'bloqueado', heldBy: 'sanctions_freeze', flow: /sanctions case/ },
    { name: 'impediment restriction', id: restricted, status: 'restrito', heldBy: 'impediment', flow: /new registration/ },
  ];
  for (const c of cases) {
    t.test(`${c.name}: refused at the API and the CLI`, async (t) => {
      const api = await stack.admin('POST', `/admin/players/${c.id}/status`, { status: 'ativo' }, 'carla@team');
      t.equal(api.status, 409, 'API: 409');
      t.match(api.body.error, { code: 'STANDING_HAS_OWN_FLOW', message: c.flow, details: { heldBy: c.heldBy, status: c.status } }, 'naming the flow');
      const r = cli('players', 'status', c.id, 'ativo');
      t.equal(r.status, 1, 'CLI: exit 1');
      t.match(JSON.parse(r.stdout), { error: { code: 'STANDING_HAS_OWN_FLOW', message: c.flow } }, 'CLI: the envelope, naming the flow');
      t.equal(await statusOf(c.id), c.status, 'unchanged');
    });
  }

  t.test('the frozen player still cannot deposit; the self-excluded one is still self-excluded', async (t) => {
    const deposit = await sandbox.post(
      `/players/${frozen}/deposits`,
      { amount: '10.00', currency: 'BRL', method: 'pix', externalReference: 'st-dep-1' },
      key(),
    );
    t.same([deposit.status, deposit.body.error.code], [403, 'PLAYER_NOT_ACTIVE']);
    t.match((await sandbox.get(`/players/${selfExcluded}/responsible-gaming`)).body.selfExclusion, { until: null });
  });

  t.test('a player nothing holds: the CLI changes the status', async (t) => {
    const free = await register(sandbox, 'st-free', '863.184.730-50');
    const r = cli('players', 'status', free, 'suspenso');
    t.equal(r.status, 0, 'CLI: exit 0');
    t.equal(await statusOf(free), 'suspenso');
  });
});
