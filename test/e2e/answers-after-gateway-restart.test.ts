// The owning service keeps every idempotent answer (docs/architecture.md, "Idempotency"): a
// gateway that is killed and started again forgets nothing, for an operation whose handler keeps
// no answer of its own (a sandbox KYC decision, an admin player-limits change: the kit keeps them)
// as for one whose effect keeps it (player creation), through the real gateway and services.
import t from 'tap';
import { ADMIN_TOKEN, playerInput, uniq } from './support/stack.ts';
import { key, keyedOperator } from './support/keyed-operator.ts';

t.test('answers survive a gateway restart: they are the services', async (t) => {
  const { stack, db, c } = await keyedOperator(t, 'Restarted Gateway');
  const input = playerInput(uniq('p'));
  const createKey = key('restart-create');
  const created = await c.post('/players', input, createKey);
  t.equal(created.status, 201);
  const player = created.body.id as string;
  const decisionKey = key('restart-kyc');
  const decided = await c.post(`/sandbox/players/${player}/kyc/decision`, { status: 'aprovado' }, decisionKey);
  t.equal(decided.status, 200);
  const limitsKey = key('restart-limits');
  const limits = (body: unknown) =>
    fetch(`${stack.adminUrl}/admin/players/${player}/limits`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', ...limitsKey },
      body: JSON.stringify(body),
    });
  const firstLimits = await limits({ dailyDepositLimit: '50.00', selfExcludedUntil: null });
  const firstLimitsText = await firstLimits.text();
  t.equal(firstLimits.status, 200, firstLimitsText);
  const decisionsOf = async () => (await db.query('select count(*)::int as n from players.kyc_history where player_id = $1', [player])).rows[0].n as number;
  const decisions = await decisionsOf();

  await stack.kill('gateway');
  await stack.start('gateway');
  await stack.waitReady();

  const again = await c.post('/players', input, createKey);
  t.equal(again.status, 201);
  t.equal(again.headers.get('idempotent-replayed'), 'true', 'player creation: replayed');
  t.equal(again.text, created.text);
  const decidedAgain = await c.post(`/sandbox/players/${player}/kyc/decision`, { status: 'aprovado' }, decisionKey);
  t.equal(decidedAgain.status, 200);
  t.equal(decidedAgain.headers.get('idempotent-replayed'), 'true', 'the sandbox KYC decision: replayed');
  t.equal(decidedAgain.text, decided.text, 'the same answer');
  t.not(decidedAgain.headers.get('x-request-id'), decided.headers.get('x-request-id'), 'a fresh request id');
  t.equal(await decisionsOf(), decisions, 'decided once');
  const limitsAgain = await limits({ dailyDepositLimit: '50.00', selfExcludedUntil: null });
  t.equal(limitsAgain.status, 200);
  t.equal(limitsAgain.headers.get('idempotent-replayed'), 'true', 'the admin change: replayed');
  t.equal(await limitsAgain.text(), firstLimitsText);
  const reused = await limits({ dailyDepositLimit: '70.00', selfExcludedUntil: null });
  t.equal(reused.status, 409, 'the admin key with another request');
  t.equal(((await reused.json()) as { error: { code: string } }).error.code, 'IDEMPOTENCY_CONFLICT');
});
