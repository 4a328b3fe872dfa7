// A player's standing changes only through its own flow (issues #41, #56), against the real processes:
// our team's generic status change (admin `POST /admin/players/{id}/status` and the CLI's
// `players status`) refuses to end an indefinite self-exclusion, a sanctions freeze or an
// impediment restriction, or to set `autoexcluido` by hand, with 409 STANDING_HAS_OWN_FLOW naming
// the flow, and the player stays as they were (a frozen player's deposit is still refused); the
// older limits form (`PUT /admin/players/{id}/limits`, the CLI's `players limits`) starts or
// lengthens a self-exclusion, never ends or shortens one; the player's own self-exclusion never
// ends an impediment restriction, keeps a suspension of our team's to give back at its end (the player
// file says so), and leaves a closed account closed and not reopened while it runs. The console: test/e2e/console.test.ts, console-standing.test.ts.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { randomCpf, waitFor } from '@bo/service-kit/testing';
import { ADMIN_TOKEN, startStack, REGISTRATION_DATA } from './support/stack.ts';

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
  const brSpa = { profile: 'br-spa', reason: 'the Brazilian rules for these players' };
  t.equal((await stack.admin('PUT', `/admin/operators/${op.operator.id}/compliance`, brSpa, 'carla')).status, 200, 'br-spa');
  const sandbox = op.sandboxClient;
  const live = op.productionClient;
  const register = async (client: typeof sandbox, externalId: string, cpf: string) => {
    const r = await client.post(
      '/players',
      { externalId, name: `Player ${externalId}`, email: `${externalId}@example.com`, cpf, birthDate: '1990-05-17', ...REGISTRATION_DATA, limits: LIMITS },
      key(),
    );
    if (r.status !== 201) throw new Error(`${externalId} not registered: ${JSON.stringify(r.body)}`);
    return r.body.id as string;
  };
  const statusOf = async (id: string) => (await stack.admin('GET', `/admin/players/${id}`)).body.player.status as string;
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], {
      env: { ...process.env, ADMIN_URL: stack.adminUrl, ADMIN_TOKEN, ADMIN_ACTOR: 'carla' },
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
  const listed = await stack.admin('POST', '/admin/impediments', { cpf: '39053344705', category: 'athlete', note: 'a club player' }, 'carla');
  t.same(listed.body.restricted, [restricted], 'restricted by the listing');

  const cases = [
    { name: 'indefinite self-exclusion', id: selfExcluded, status: 'autoexcluido', heldBy: 'self_exclusion', flow: /self-exclusion\/lift/ },
    { name: 'sanctions freeze', id: frozen, status: 'bloqueado', heldBy: 'sanctions_freeze', flow: /sanctions case/ },
    { name: 'impediment restriction', id: restricted, status: 'restrito', heldBy: 'impediment', flow: /new registration/ },
  ];
  for (const c of cases) {
    t.test(`${c.name}: refused at the API and the CLI`, async (t) => {
      const api = await stack.admin('POST', `/admin/players/${c.id}/status`, { status: 'ativo' }, 'carla');
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

  const rgHistory = async (id: string) => (await stack.admin('GET', `/admin/players/${id}/responsible-gaming`)).body.history as Array<Record<string, unknown>>;
  const limits = (id: string, selfExcludedUntil: string | null) =>
    stack.admin('PUT', `/admin/players/${id}/limits`, { dailyDepositLimit: null, selfExcludedUntil }, 'carla');

  t.test('the older limits form never ends a self-exclusion: API and CLI', async (t) => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    const api = await limits(selfExcluded, yesterday);
    t.equal(api.status, 409, 'API: 409');
    t.match(api.body.error, { code: 'STANDING_HAS_OWN_FLOW', message: /self-exclusion\/lift/, details: { heldBy: 'self_exclusion' } }, 'naming the lift');
    const r = cli('players', 'limits', selfExcluded, '--daily', 'none', '--self-excluded-until', yesterday);
    t.equal(r.status, 1, 'CLI: exit 1');
    t.match(JSON.parse(r.stdout), { error: { code: 'STANDING_HAS_OWN_FLOW', message: /self-exclusion\/lift/ } }, 'CLI: the envelope, naming the flow');
    t.equal(await statusOf(selfExcluded), 'autoexcluido', 'still self-excluded');
    t.same(
      (await rgHistory(selfExcluded)).filter((h) => String(h.kind).startsWith('self_exclusion')).map((h) => `${h.kind} by ${h.by}`),
      ['self_exclusion by operator'],
      'the history: the self-exclusion, nothing that ended it',
    );
  });

  t.test('autoexcluido only through a self-exclusion: the generic change refuses it, the limits form starts a real one', async (t) => {
    const free = await register(sandbox, 'st-hand', '246.813.579-28');
    const api = await stack.admin('POST', `/admin/players/${free}/status`, { status: 'autoexcluido' }, 'carla');
    t.equal(api.status, 409, 'by hand: 409');
    t.match(api.body.error, { code: 'STANDING_HAS_OWN_FLOW', message: /self-exclusion/, details: { heldBy: 'self_exclusion', status: 'ativo' } });
    const r = cli('players', 'status', free, 'autoexcluido');
    t.equal(r.status, 1, 'CLI: exit 1');
    t.equal(await statusOf(free), 'ativo', 'unchanged');

    const until = new Date(Date.now() + 20 * 86_400_000).toISOString();
    const set = await limits(free, until);
    t.equal(set.status, 200, 'a date ahead on the limits form');
    t.equal(await statusOf(free), 'autoexcluido', 'a self-exclusion started');
    t.match((await sandbox.get(`/players/${free}/responsible-gaming`)).body.selfExclusion, { since: String, until }, 'the operator reads it');
    t.match((await rgHistory(free))[0], { kind: 'self_exclusion', newValue: until, by: 'team', actor: /carla/ }, 'the history names who set it');
    const cleared = await limits(free, null);
    t.same([cleared.status, cleared.body.error?.code], [409, 'STANDING_HAS_OWN_FLOW'], 'an empty date would end it: refused');
    t.match(cleared.body.error, { message: /ends by itself/ });
  });

  t.test("the player's own self-exclusion never ends an impediment restriction, nor is it shortened meanwhile", async (t) => {
    const r = await live.post(`/players/${restricted}/self-exclusion`, { indefinite: true }, key());
    t.equal(r.status, 200, 'recorded');
    t.equal(await statusOf(restricted), 'restrito', 'still restrito: the account still closes after the window');
    t.match((await stack.admin('GET', `/admin/players/${restricted}`)).body.standing, { heldBy: 'impediment', statuses: ['restrito'] });
    const shorter = await live.post(`/players/${restricted}/self-exclusion`, { months: 1 }, key());
    t.same([shorter.status, shorter.body.error?.code], [409, 'SELF_EXCLUSION_ACTIVE'], 'a term in place of no end: refused');
    t.equal(await statusOf(restricted), 'restrito');
  });

  t.test("a self-exclusion keeps our team's status: a suspension comes back at its end, a closed account stays closed", async (t) => {
    const suspended = await register(sandbox, 'st-susp', randomCpf());
    t.equal((await stack.admin('POST', `/admin/players/${suspended}/status`, { status: 'suspenso' }, 'carla')).status, 200, 'suspended by our team');
    t.equal((await sandbox.post(`/players/${suspended}/self-exclusion`, { months: 1 }, key())).status, 200, "the player's own term");
    t.equal(await statusOf(suspended), 'autoexcluido', 'autoexcluido while it runs');
    t.match(
      (await stack.admin('GET', `/admin/players/${suspended}`)).body.standing,
      { heldBy: 'self_exclusion', flow: /ends by itself.*goes back to suspenso/ },
      'the player file says the suspension comes back when it ends',
    );

    const closed = await register(sandbox, 'st-closed', randomCpf());
    t.equal((await stack.admin('POST', `/admin/players/${closed}/status`, { status: 'encerrado' }, 'carla')).status, 200, 'closed by our team');
    const excluded = await sandbox.post(`/players/${closed}/self-exclusion`, { indefinite: true }, key());
    t.equal(excluded.status, 200, 'the self-exclusion is recorded');
    t.match(excluded.body.selfExclusion, { since: String, until: null }, 'and answered');
    t.equal(await statusOf(closed), 'encerrado', 'the account stays closed');
    const reopen = await stack.admin('POST', `/admin/players/${closed}/status`, { status: 'ativo' }, 'carla');
    t.equal(reopen.status, 409, 'not reopened while the self-exclusion runs');
    t.match(reopen.body.error, {
      code: 'STANDING_HAS_OWN_FLOW',
      message: /self-exclusion\/lift.*stays encerrado/,
      details: { heldBy: 'self_exclusion', status: 'encerrado' },
    });
    t.equal(await statusOf(closed), 'encerrado');
  });

  t.test('a player nothing holds: the CLI changes the status', async (t) => {
    const free = await register(sandbox, 'st-free', '863.184.730-50');
    const r = cli('players', 'status', free, 'suspenso');
    t.equal(r.status, 0, 'CLI: exit 0');
    t.equal(await statusOf(free), 'suspenso');
  });
});
