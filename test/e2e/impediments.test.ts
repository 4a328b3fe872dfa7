// Our internal impediments registry through the gateway's admin API and the team's CLI, against the
// real processes (Lei 14.790/2023 art. 26, docs/eligibility.md): only compliance (and admin) may
// read or change it; a put with an Idempotency-Key is answered once (a retry replays it, another
// body under the key is a conflict); a listed CPF is refused at registration on a production key
// with the one neutral message; listing an existing player's CPF restricts the player at once (the
// login is refused); the CLI lists, adds and removes; every change is in the audit log with who made it.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { waitFor } from '@bo/service-kit/testing';
import { activatedPerson } from './support/people.ts';
import { ADMIN_TOKEN, playerInput, startStack, uniq } from './support/stack.ts';

const CLI = path.resolve(import.meta.dirname, '../../scripts/admin-cli.ts');

t.test('the internal impediments registry through the admin API and the CLI', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Impediments Bets');
  t.equal(
    (await stack.admin('PUT', `/admin/operators/${op.operator.id}/compliance`, { profile: 'br-spa', reason: 'the operator is licensed in Brazil' })).status,
    200,
    'br-spa',
  );
  const live = op.productionClient;
  const limits = [
    { type: 'loss', period: 'day', value: '1000.00' },
    { type: 'time', period: 'day', value: 600 },
  ];

  const token = async (name: string, role: string) => (await stack.admin('POST', '/admin/tokens', { name, role })).body.secret as string;
  /** A person's own token, made from her own session once activated (issue #56): decisions (an impediment is one) are people's. */
  const personalToken = async (email: string, role: string) =>
    (await activatedPerson(stack.adminUrl, { authorization: `Bearer ${ADMIN_TOKEN}` }, { email, role })).token!;
  const as =
    (secret: string) =>
    async (
      method: string,
      p: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ): Promise<{ status: number; body: any; replayed: string | null }> => {
      const res = await fetch(`${stack.adminUrl}${p}`, {
        method,
        headers: { authorization: `Bearer ${secret}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: await res.json(), replayed: res.headers.get('idempotent-replayed') };
    };
  const compliance = as(await personalToken('dora@ourteam.example', 'compliance'));
  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args], {
      env: { ...process.env, ADMIN_URL: stack.adminUrl, ADMIN_TOKEN, ADMIN_ACTOR: 'carla' },
      encoding: 'utf8',
    });
    t.equal(r.status, 0, `npm run admin -- ${args.slice(0, 2).join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };

  t.test('support and finance are refused; nothing reaches the list', async (t) => {
    for (const role of ['support', 'finance']) {
      const other = as(await token(`${role}-bot`, role));
      for (const [method, p, body] of [
        ['GET', '/admin/impediments', undefined],
        ['POST', '/admin/impediments', { cpf: '390.533.447-05', category: 'athlete', note: 'should not land' }],
        ['DELETE', '/admin/impediments/39053344705', undefined],
      ] as const) {
        const r = await other(method, p, body);
        t.same([r.status, r.body.error.code], [403, 'FORBIDDEN_ROLE'], `${role}: ${method} ${p}`);
      }
    }
    t.same((await compliance('GET', '/admin/impediments')).body, { data: [], nextCursor: null }, 'the list is empty');
  });

  t.test('a put with an Idempotency-Key is answered once; a listed CPF is refused at registration, neutrally', async (t) => {
    const key = { 'idempotency-key': uniq('imp') };
    const body = { cpf: '111.444.777-35', category: 'referee', note: 'Referee of the state league' };
    const put = await compliance('POST', '/admin/impediments', body, key);
    t.equal(put.status, 201);
    t.match(put.body, { entry: { cpf: '11144477735', category: 'referee', addedBy: 'user:dora@ourteam.example', addedAt: String }, restricted: [] });
    const again = await compliance('POST', '/admin/impediments', body, key);
    t.same([again.status, again.body, again.replayed], [201, put.body, 'true'], 'the retry replays the answer');
    const other = await compliance('POST', '/admin/impediments', { ...body, category: 'athlete' }, key);
    t.same([other.status, other.body.error.code], [409, 'IDEMPOTENCY_CONFLICT'], 'another body under the key');

    const refused = await live.post('/players', { ...playerInput(uniq('listed')), cpf: '111.444.777-35', limits }, { 'idempotency-key': uniq('k') });
    t.same([refused.status, refused.body.error.code, refused.body.error.message], [403, 'PLAYER_IMPEDED', 'This person cannot bet with this operator.']);
    t.equal(refused.body.error.details, undefined, 'nothing says which list matched');
  });

  t.test('the CLI lists a CPF, restricting its player at once; lists; removes (which lifts nothing)', async (t) => {
    const player = await live.post('/players', { ...playerInput(uniq('ok')), cpf: '529.982.247-25', limits }, { 'idempotency-key': uniq('k') });
    t.equal(player.status, 201);
    t.same((await live.post(`/players/${player.body.id}/logins`)).body, { allowed: true }, 'checked: may bet');

    const added = cli('impediments', 'add', '529.982.247-25', '--category', 'operator_staff', '--note', 'Trader at the operator');
    t.match(added, { entry: { cpf: '52998224725', category: 'operator_staff', addedBy: 'stand-in:carla' }, restricted: [player.body.id] });
    const login = await live.post(`/players/${player.body.id}/logins`);
    t.same([login.status, login.body.error.code, login.body.error.message], [403, 'PLAYER_IMPEDED', 'This person cannot bet with this operator.']);

    t.same(
      cli('impediments', 'list').data.map((e: { cpf: string }) => e.cpf),
      ['52998224725', '11144477735'],
      'newest first',
    );
    t.same(
      cli('impediments', 'list', '--cpf', '111.444.777-35').data.map((e: { category: string }) => e.category),
      ['referee'],
    );
    t.same(cli('impediments', 'remove', '529.982.247-25'), { cpf: '52998224725', removed: true });
    t.same(
      (await compliance('GET', '/admin/impediments')).body.data.map((e: { cpf: string }) => e.cpf),
      ['11144477735'],
    );
    t.equal((await live.post(`/players/${player.body.id}/logins`)).status, 403, 'the player stays restricted');
  });

  t.test('every change is in the audit log, naming who made it', async (t) => {
    const rows = async (action: string) =>
      (await stack.admin('GET', `/admin/audit?action=${action}`)).body.data.map((a: { actor: string; target: string; before: any; after: any }) => ({
        actor: a.actor,
        target: a.target,
        before: a.before === null ? null : a.before.category,
        after: a.after === null ? null : { category: a.after.category, restricted: a.after.restricted.length },
      }));
    // A decision's row comes through its service's outbox: a moment after the answer.
    await waitFor(async () => (await rows('adminAddImpediment')).length === 2 && (await rows('adminRemoveImpediment')).length === 1, {
      what: 'the audit rows',
    });
    t.same(
      await rows('adminAddImpediment'),
      [
        { actor: 'stand-in:carla', target: 'impediment:52998224725', before: null, after: { category: 'operator_staff', restricted: 1 } },
        { actor: 'user:dora@ourteam.example', target: 'impediment:11144477735', before: null, after: { category: 'referee', restricted: 0 } },
      ],
      'each put once (the replay is not a second change), newest first',
    );
    t.same(await rows('adminRemoveImpediment'), [{ actor: 'stand-in:carla', target: 'impediment:52998224725', before: 'operator_staff', after: null }]);
  });
});
