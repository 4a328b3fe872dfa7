// The sandbox exercises the br-spa rules (issue #41 item 5), through the gateway with a test key,
// against the real services: demo rounds count toward the sandbox player's wager limit (the
// players service shows the usage) and a new day resets it (POST /sandbox/players/{id}/next-day);
// an impediment added while the player was checked today is found by the check run now
// (POST /sandbox/players/{id}/impediment-check): `restrito`, logins refused, the open game session
// ended; the withdrawal window after the hit and the closing are walked a day at a time. Live keys
// are refused both routes (403 SANDBOX_ONLY).
import t from 'tap';
import { generateCpf } from '@bo/contracts';
import { playerInput, startStack, uniq } from './support/stack.ts';

t.test('the sandbox walks the wager limit, the impediment check, the withdrawal window and the closing', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Sandbox Rules Operator');
  const api = op.sandboxClient;
  t.equal(
    (
      await stack.admin(
        'PUT',
        `/admin/operators/${op.operator.id}/compliance`,
        { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
        'compliance',
      )
    ).status,
    200,
  );
  const key = () => ({ 'idempotency-key': uniq('k') });

  const cpf = generateCpf();
  const limits = [
    { type: 'loss', period: 'day', value: '1000.00' },
    { type: 'time', period: 'day', value: 600 },
    { type: 'wager', period: 'day', value: '30.00' },
  ];
  const player = await api.post('/players', { ...playerInput(uniq('sbx')), cpf, limits }, key());
  t.equal(player.status, 201);
  const id = player.body.id as string;
  t.equal((await api.post(`/sandbox/players/${id}/kyc/decision`, { status: 'aprovado' })).body.status, 'aprovado');

  // Demo play counts toward the wager limit, as real money would.
  const session = await api.post(`/players/${id}/game-sessions`, { gameId: 'gm_dice_classic' });
  t.same([session.status, session.body.mode], [201, 'demo']);
  const round = async () => {
    const res = await fetch(`${session.body.gameUrl}/rounds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '10.00', target: '50', clientRoundId: uniq('click') }),
    });
    const body = (await res.json()) as { error?: { code: string; details?: { reason?: string } } };
    return res.status === 201 ? 'ok' : `${body.error?.code}:${body.error?.details?.reason ?? ''}`;
  };
  t.same([await round(), await round(), await round()], ['ok', 'ok', 'ok'], '30.00 staked in demo');
  t.equal(await round(), 'RG_BLOCKED:wager_limit', "the fourth stake would pass the day's wager limit: refused in the sandbox");
  const rg = await api.get(`/players/${id}/responsible-gaming`);
  t.match(
    rg.body.limits.filter((l: { type: string }) => l.type === 'wager'),
    [{ period: 'day', value: '30.00', used: '30.00' }],
    "the usage is the demo play's",
  );

  // Live keys are refused the sandbox's control of days and checks.
  for (const path of [`/sandbox/players/${id}/impediment-check`, `/sandbox/players/${id}/next-day`]) {
    const live = await op.productionClient.post(path, {});
    t.same([live.status, live.body.error.code], [403, 'SANDBOX_ONLY'], `${path}: test keys only`);
  }

  const next = await api.post(`/sandbox/players/${id}/next-day`, {});
  t.same([next.status, next.body.status, next.body.restrictedAt], [200, 'ativo', null]);
  t.equal(await round(), 'ok', "the next day: yesterday's stakes no longer count");

  const deposit = await api.post(`/players/${id}/deposits`, { amount: '50.00', currency: 'BRL', method: 'pix', externalReference: uniq('ref') }, key());
  t.equal(deposit.status, 201);
  const confirmed = await api.post(`/deposits/${deposit.body.id}/confirm`, { payer: { cpf, name: 'Ana Souza' } }, key());
  t.equal(confirmed.body.status, 'confirmed');
  const login = () => api.post(`/players/${id}/logins`);
  t.equal((await login()).status, 200, 'checked today: the login asks nobody');

  // An impediment for a player checked today: the check run now finds it.
  t.equal((await api.post('/sandbox/impediments', { cpf, reason: 'central_self_exclusion' })).status, 201);
  t.equal((await login()).status, 200, 'still checked today: a login alone would not see it until tomorrow');
  const check = await api.post(`/sandbox/players/${id}/impediment-check`, {});
  t.same([check.status, check.body], [200, { playerId: id, outcome: 'impeded', status: 'restrito' }]);
  const refused = await login();
  t.same([refused.status, refused.body.error.code], [403, 'PLAYER_IMPEDED']);
  t.equal(await round(), 'GAME_SESSION_ENDED:', 'the open game session ended with the hit');

  // The withdrawal window after the hit (2 days), then the closing (3 days), a day at a time.
  // Each a different amount: the same signed request twice in one second is refused as a replay.
  const withdraw = async (amount: string) => {
    const w = await api.post(`/players/${id}/withdrawals`, { amount, currency: 'BRL', method: 'pix', destination: cpf }, key());
    return w.status === 201 ? 'ok' : `${w.body.error.code}:${w.body.error.details?.reason ?? ''}`;
  };
  t.equal(await withdraw('10.00'), 'ok', 'day 0: inside the window');
  t.equal((await api.post(`/sandbox/players/${id}/next-day`, {})).body.status, 'restrito');
  t.equal(await withdraw('9.00'), 'ok', 'day 1: inside the window');
  t.equal((await api.post(`/sandbox/players/${id}/next-day`, {})).body.status, 'restrito');
  t.equal(await withdraw('8.00'), 'RG_BLOCKED:impeded', 'day 2: the window is over');
  const closed = await api.post(`/sandbox/players/${id}/next-day`, {});
  t.same([closed.status, closed.body.status], [200, 'encerrado'], 'day 3: closed');
  t.equal((await api.get(`/players/${id}`)).body.status, 'encerrado');
});
