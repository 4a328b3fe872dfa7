// The operator's whole journey through the real processes: register, KYC, deposit, wallet,
// ledger, game session, withdrawal with the team's decisions, and the signed webhooks of each step.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { OperatorClient } from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import { startStack, ADMIN_TOKEN } from './support/stack.ts';
import { startWebhookReceiver } from './support/webhook-receiver.ts';

const key = () => ({ 'idempotency-key': `j-${Math.random().toString(36).slice(2, 12)}` });

t.test('operator journey', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Journey Bets');
  const receiver = await startWebhookReceiver(op.sandbox.webhookSecret);
  t.teardown(() => receiver.close());
  const set = await stack.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/sandbox`, { url: receiver.url });
  t.equal(set.status, 200);
  t.equal(set.body.webhookUrls.sandbox, receiver.url);
  const c = op.sandboxClient;

  const test = await stack.firstTestWebhook(c);
  t.equal(test.status, 200);
  t.equal(test.body.delivered, true);
  t.equal(test.body.statusCode, 204);

  const player = await c.post(
    '/players',
    { externalId: 'journey-1', name: 'Ana Souza', email: 'ana@example.com', cpf: '529.982.247-25', phone: '+5511987654321', birthDate: '1990-05-17' },
    key(),
  );
  t.equal(player.status, 201);
  t.same(Object.keys(player.body).sort(), [
    'birthDate',
    'cpf',
    'createdAt',
    'currency',
    'email',
    'externalId',
    'id',
    'kycStatus',
    'marketing',
    'name',
    'phone',
    'status',
  ]);
  const id = player.body.id;

  const earlyWithdrawal = await c.post(`/players/${id}/withdrawals`, { amount: '1.00', currency: 'BRL', method: 'pix', destination: 'key' }, key());
  t.equal(earlyWithdrawal.body.error.code, 'KYC_NOT_APPROVED');
  const earlyGame = await c.post(`/players/${id}/game-sessions`, { gameId: 'gm_aviator_demo' });
  t.equal(earlyGame.body.error.code, 'KYC_NOT_APPROVED');

  t.equal((await c.post(`/players/${id}/kyc/submissions`, { documentType: 'rg', reference: 's3://docs/1' }, key())).body.kycStatus, 'em_analise');
  t.equal((await c.post(`/sandbox/players/${id}/kyc/decision`, { status: 'aprovado' })).body.status, 'aprovado');

  const deposit = await c.post(`/players/${id}/deposits`, { amount: '100.00', currency: 'BRL', method: 'pix', externalReference: 'psp-1' }, key());
  t.equal(deposit.status, 201);
  t.equal(deposit.body.status, 'pending');
  const wrongCurrency = await c.post(`/players/${id}/deposits`, { amount: '1.00', currency: 'USD', method: 'pix', externalReference: 'psp-x' }, key());
  t.equal(wrongCurrency.body.error.code, 'CURRENCY_MISMATCH');
  const dup = await c.post(`/players/${id}/deposits`, { amount: '5.00', currency: 'BRL', method: 'pix', externalReference: 'psp-1' }, key());
  t.equal(dup.status, 409);
  t.equal(dup.body.error.details.depositId, deposit.body.id);
  const confirmKey = key();
  const confirmed = await c.post(`/deposits/${deposit.body.id}/confirm`, {}, confirmKey);
  t.equal(confirmed.status, 200);
  t.equal(confirmed.body.status, 'confirmed');
  const replay = await c.post(`/deposits/${deposit.body.id}/confirm`, {}, confirmKey);
  t.equal(replay.headers.get('idempotent-replayed'), 'true');
  t.equal((await c.post(`/deposits/${deposit.body.id}/fail`, {}, key())).body.error.code, 'DEPOSIT_NOT_PENDING');

  t.same((await c.get(`/players/${id}/wallet`)).body, { playerId: id, currency: 'BRL', available: '100.00', withdrawable: '100.00' });

  const session = await c.post(`/players/${id}/game-sessions`, { gameId: 'gm_aviator_demo' });
  t.equal(session.status, 201);
  t.equal(session.body.mode, 'demo');
  t.ok(session.body.gameUrl.startsWith(stack.publicUrl), 'gameUrl is under PUBLIC_BASE_URL');
  const page = await fetch(session.body.gameUrl);
  t.equal(page.status, 200);
  t.match(page.headers.get('content-type'), /text\/html/);

  const w = await c.post(`/players/${id}/withdrawals`, { amount: '30.00', currency: 'BRL', method: 'pix', destination: 'ana@pix' }, key());
  t.equal(w.status, 201);
  t.equal(w.body.status, 'under_review');
  t.same((await c.get(`/players/${id}/wallet`)).body, { playerId: id, currency: 'BRL', available: '100.00', withdrawable: '70.00' });
  const tooMuch = await c.post(`/players/${id}/withdrawals`, { amount: '70.01', currency: 'BRL', method: 'pix', destination: 'x' }, key());
  t.equal(tooMuch.body.error.code, 'INSUFFICIENT_FUNDS');
  t.equal((await c.post(`/sandbox/withdrawals/${w.body.id}/decision`, { decision: 'pay' })).body.error.code, 'WITHDRAWAL_INVALID_TRANSITION');
  t.equal((await c.post(`/sandbox/withdrawals/${w.body.id}/decision`, { decision: 'approve' })).body.status, 'approved');
  t.equal((await c.post(`/withdrawals/${w.body.id}/cancel`, {}, key())).body.error.code, 'WITHDRAWAL_NOT_CANCELLABLE');
  t.equal((await c.post(`/sandbox/withdrawals/${w.body.id}/decision`, { decision: 'pay' })).body.status, 'paid');
  t.same((await c.get(`/players/${id}/wallet`)).body, { playerId: id, currency: 'BRL', available: '70.00', withdrawable: '70.00' });

  const tx = await c.get(`/players/${id}/transactions?limit=1`);
  t.equal(tx.status, 200);
  t.equal(tx.body.data.length, 1);
  t.match(tx.body.data[0], { type: 'WITHDRAWAL', amount: '-30.00', balanceAfter: '70.00', referenceId: w.body.id });
  t.ok(tx.body.nextCursor);
  const page2 = await c.get(`/players/${id}/transactions?limit=1&cursor=${encodeURIComponent(tx.body.nextCursor)}`);
  t.match(page2.body.data[0], { type: 'DEPOSIT', amount: '100.00', balanceAfter: '100.00', referenceId: deposit.body.id });
  t.equal(page2.body.nextCursor, null);
  const badCursor = await c.get(`/players/${id}/transactions?cursor=${encodeURIComponent(`${tx.body.nextCursor}x`)}`);
  t.equal(badCursor.status, 422);
  t.equal(badCursor.body.error.details.in, 'query');

  // Webhooks: every step arrives, signed over the raw bytes.
  const expected = [
    'webhook.test',
    'kyc.status_changed',
    'kyc.status_changed',
    'deposit.confirmed',
    'withdrawal.status_changed',
    'withdrawal.status_changed',
    'withdrawal.status_changed',
  ];
  await waitFor(async () => receiver.received.length >= expected.length, { timeoutMs: 60_000, what: 'all webhooks' });
  t.same(receiver.received.map((r) => r.type).sort(), [...expected].sort());
  t.ok(
    receiver.received.every((r) => r.verified),
    'every signature verifies',
  );
  t.ok(receiver.received.every((r) => r.body.environment === 'sandbox'));
  const kyc = receiver.received.filter((r) => r.type === 'kyc.status_changed').map((r) => `${r.body.data.previousStatus}->${r.body.data.status}`);
  t.same(kyc.sort(), ['em_analise->aprovado', 'nao_iniciado->em_analise']);
  const moves = receiver.received
    .filter((r) => r.type === 'withdrawal.status_changed')
    .map((r) => `${r.body.data.previousStatus}->${r.body.data.withdrawal.status}`);
  t.same(moves.sort(), ['approved->paid', 'null->under_review', 'under_review->approved']);
  const dep = receiver.received.find((r) => r.type === 'deposit.confirmed')!;
  t.equal(dep.body.data.id, deposit.body.id);
  t.equal(dep.id, dep.body.id, 'X-Webhook-Id is the event id');

  // Our team's delivery log and redeliver, through the admin API.
  const log = await stack.admin('GET', `/admin/webhook-deliveries?eventId=${dep.id}`);
  t.equal(log.status, 200);
  t.match(log.body.data, [{ eventId: dep.id, attempt: 1, url: receiver.url, statusCode: 204, error: null }]);
  const byOperator = await stack.admin('GET', `/admin/webhook-deliveries?operatorId=${op.operator.id}`);
  t.equal(new Set(byOperator.body.data.map((d: { eventId: string }) => d.eventId)).size, expected.length, 'the log by operator has every event');
  const redelivered = await stack.admin('POST', `/admin/webhook-deliveries/${dep.id}/redeliver`);
  t.equal(redelivered.status, 200);
  await waitFor(async () => receiver.received.filter((r) => r.id === dep.id).length === 2, { timeoutMs: 60_000, what: 'redelivery' });
  const again = receiver.received.filter((r) => r.id === dep.id);
  t.ok(again[1]!.verified, 'the redelivery is signed afresh');
  t.same(again[1]!.raw, again[0]!.raw, 'with the same bytes and id');
  // Its row comes through the webhooks service's outbox, written in the redelivery's transaction.
  const redeliverAudit = await waitFor(
    async () => (await stack.admin('GET', `/admin/audit?action=adminRedeliver&target=webhook_event:${dep.id}`)).body.data.length === 1 || undefined,
    { what: 'the redeliver audit row' },
  );
  t.ok(redeliverAudit, 'the redeliver is audited');

  // Production: the team decides through the admin API and its review queue.
  const live = op.productionClient;
  const lp = await live.post(
    '/players',
    { externalId: 'journey-1', name: 'Ana Souza', email: 'ana@example.com', cpf: '52998224725', birthDate: '1990-05-17' },
    key(),
  );
  t.equal(lp.status, 201, 'the same externalId in production is another player');
  t.equal((await stack.admin('POST', `/admin/players/${lp.body.id}/kyc/decision`, { status: 'aprovado' })).status, 200);
  const ld = await live.post(`/players/${lp.body.id}/deposits`, { amount: '50.00', currency: 'BRL', method: 'pix', externalReference: 'psp-1' }, key());
  t.equal(ld.status, 201, 'externalReference is unique per brand');
  t.equal((await live.post(`/deposits/${ld.body.id}/confirm`, {}, key())).body.status, 'confirmed');
  const lw = await live.post(`/players/${lp.body.id}/withdrawals`, { amount: '20.00', currency: 'BRL', method: 'pix', destination: 'x' }, key());
  const queue = await stack.admin('GET', '/admin/withdrawals?status=under_review');
  t.ok(
    queue.body.data.some((x: { id: string }) => x.id === lw.body.id),
    'the withdrawal is in the review queue',
  );
  const decision = (d: string, actor: string) => stack.admin('POST', `/admin/withdrawals/${lw.body.id}/decision`, { decision: d }, actor);
  t.equal((await decision('approve', 'ana')).body.status, 'approved');
  const samePerson = await decision('pay', 'ana');
  t.equal(samePerson.status, 403, 'four eyes: the approver does not pay');
  t.equal(samePerson.body.error.code, 'FOUR_EYES_REQUIRED');
  t.equal((await decision('pay', 'bruno')).body.status, 'paid');
  t.equal((await live.get(`/players/${lp.body.id}/wallet`)).body.available, '30.00');
  const liveSession = await live.post(`/players/${lp.body.id}/game-sessions`, { gameId: 'gm_aviator_demo' });
  t.equal(liveSession.body.mode, 'real');
  // A decision's row comes through its service's outbox: a moment after the answer.
  const audited = await waitFor(
    async () =>
      (await stack.admin('GET', '/admin/audit?limit=50')).body.data.some(
        (a: { action: string; actor: string; target: string }) =>
          a.action === 'adminWithdrawalDecision' && a.actor === 'stand-in:bruno' && a.target.includes(lw.body.id),
      ) || undefined,
    { what: 'the pay audit row' },
  );
  t.ok(audited, 'team decisions are audited, naming the person');

  // The team's CLI: the ledger reconciles.
  const cli = spawnSync(process.execPath, [path.resolve(import.meta.dirname, '../../scripts/admin-cli.ts'), 'ledger', 'verify'], {
    env: { ...process.env, ADMIN_URL: stack.adminUrl, ADMIN_TOKEN },
    encoding: 'utf8',
  });
  t.equal(cli.status, 0, cli.stderr);
  const verify = JSON.parse(cli.stdout);
  t.equal(verify.ok, true);
  t.same(verify.mismatches, []);

  // Real money: a round of the production session is a BET (and, if it paid, a WIN) in the ledger.
  const playReal = () =>
    fetch(`${liveSession.body.gameUrl}/rounds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '5.00', target: '2.00', clientRoundId: 'journey-real-1' }),
    });
  const realRound = await playReal();
  t.equal(realRound.status, 201, 'a real-money round plays');
  const rr = (await realRound.json()) as { id: string; payout: string; balanceAfter: string };
  t.equal(((await (await playReal()).json()) as { id: string }).id, rr.id, 'a retried click is the same round');
  t.equal((await live.get(`/players/${lp.body.id}/wallet`)).body.available, rr.balanceAfter);
  const liveTxs = (await live.get(`/players/${lp.body.id}/transactions`)).body.data as { type: string; amount: string; referenceId: string }[];
  t.same(
    liveTxs.filter((e) => e.referenceId === rr.id).map((e) => `${e.type} ${e.amount}`),
    [...(rr.payout !== '0.00' ? [`WIN ${rr.payout}`] : []), 'BET -5.00'],
  );
  const cliAgain = spawnSync(process.execPath, [path.resolve(import.meta.dirname, '../../scripts/admin-cli.ts'), 'ledger', 'verify'], {
    env: { ...process.env, ADMIN_URL: stack.adminUrl, ADMIN_TOKEN },
    encoding: 'utf8',
  });
  t.equal(cliAgain.status, 0, cliAgain.stderr);
  t.equal(JSON.parse(cliAgain.stdout).ok, true, 'the ledger still reconciles, game clearing included');

  // The CLI's team commands: the four-eyes threshold, finding a player by CPF.
  const admin = (...args: string[]) => {
    const r = spawnSync(process.execPath, [path.resolve(import.meta.dirname, '../../scripts/admin-cli.ts'), ...args], {
      env: { ...process.env, ADMIN_URL: stack.adminUrl, ADMIN_TOKEN },
      encoding: 'utf8',
    });
    t.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  t.match(admin('operators', 'four-eyes', op.operator.id, '500.00'), { operatorId: op.operator.id, minAmount: '500.00' });
  t.equal(admin('operators', 'four-eyes', op.operator.id).minAmount, '500.00');
  t.ok(
    admin('players', 'find', '529.982.247-25').data.some((p: { id: string }) => p.id === id),
    'players find by CPF',
  );

  // A leaked key: the team rotates it without overlap and revokes the replacement, with the CLI;
  // each key is refused at once, and the operator is told by signed webhooks.
  const rotated = admin('operators', 'rotate-key', op.operator.id, '--environment', 'sandbox', '--overlap-minutes', '0');
  t.match(rotated, { environment: 'sandbox', key: /^bk_test_/, secret: /^sk_test_/, replaced: [{ status: 'expired' }] });
  const oldKey = await c.get('/me');
  t.same([oldKey.status, oldKey.body.error.code], [401, 'INVALID_CREDENTIALS'], 'the rotated key is refused at once');
  const fresh = new OperatorClient({ baseUrl: `${stack.publicUrl}/api/v1`, key: rotated.key, secret: rotated.secret });
  t.equal((await fresh.get('/me')).status, 200, 'the new key works');
  const listed = admin('operators', 'credentials', op.operator.id).data as { id: string; environment: string; status: string }[];
  t.same(
    listed.filter((k) => k.environment === 'sandbox').map((k) => [k.id, k.status]),
    [
      [rotated.credential.id, 'active'],
      [rotated.replaced[0].id, 'expired'],
    ],
  );
  t.match(admin('operators', 'revoke-key', op.operator.id, rotated.credential.id), { id: rotated.credential.id, status: 'revoked' });
  t.equal((await fresh.get('/me')).status, 401, 'the revoked key is refused at once');
  const told = await waitFor(
    async () => {
      const got = receiver.received.filter((r) => r.type.startsWith('credential.'));
      return got.length === 2 && got;
    },
    { timeoutMs: 60_000, what: 'the key events' },
  );
  t.same(
    told.map((r) => [r.type, r.body.data.credentialId, r.verified]).sort(),
    [
      ['credential.revoked', rotated.credential.id, true],
      ['credential.rotated', rotated.credential.id, true],
    ],
    'the operator is told of both, signed',
  );
});
