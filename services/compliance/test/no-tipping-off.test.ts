// No tipping off (issue #28): a player with an open high case, a risk level and evidence is read
// through every operator operation that can name them (the player, KYC, wallet, transactions,
// deposits, withdrawals, the webhook event log) and every event of the operator's stream, and
// none of it mentions the case, a risk level, a rule or compliance. The refusal to pay is our
// team's (admin API); the operator sees a withdrawal still approved.
import t from 'tap';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { DeliverPolicy } from '@nats-io/jetstream';
import { eventsStreamName } from '@bo/contracts';
import { webhooksService } from '@bo/webhooks';
import { waitFor } from '@bo/service-kit/testing';
import { adminScope, errorOf, key, ok, startComplianceStack } from './support/stack.ts';

const REVEALING = /aml|risk|case|compliance|siscoaf|coaf|suspicious|in_and_out|high_value|split_deposits|velocity|sanction|pep\b/i;

/**
 * Every event of the stream (what webhooks deliver), once every service's outbox has published what
 * it wrote: read up to the stream's count, not until a quiet second (a busy machine has longer ones).
 */
async function allEvents(s: Awaited<ReturnType<typeof startComplianceStack>>): Promise<string[]> {
  await waitFor(
    async () => {
      const { rows } = await s.db.query<{ schema: string }>(`select table_schema as schema from information_schema.tables where table_name = 'outbox'`);
      for (const { schema } of rows) {
        if ((await s.db.query(`select 1 from "${schema}".outbox where published_at is null limit 1`)).rowCount) return false;
      }
      return true;
    },
    { what: 'every outbox drained' },
  );
  const stream = eventsStreamName(s.prefix);
  const { state } = await (await jetstreamManager(s.nc)).streams.info(stream);
  const consumer = await jetstream(s.nc).consumers.get(stream, { deliver_policy: DeliverPolicy.All });
  const bodies: string[] = [];
  while (bodies.length < state.messages) {
    const m = await consumer.next({ expires: 30_000 });
    if (!m) throw new Error(`read ${bodies.length} of ${state.messages} events`);
    bodies.push(m.string());
  }
  return bodies;
}

t.test('nothing an operator reads reveals a case', async (t) => {
  const s = await startComplianceStack(t, 'amltip');
  await s.start(webhooksService);
  const op = await s.brSpaOperator();
  const p = await s.player(op);
  const dep = await s.deposit(op, p, '50000.00');
  const wd = await s.withdraw(op, p, '45000.00');
  await s.watched(p, 2);
  const [c] = await s.cases(p);
  t.match(c, { risk: 'high', rules: ['high_value', 'in_and_out'] }, 'the player has a high case');
  ok(
    await s.call('payments.admin.withdrawalDecision', {
      scope: { kind: 'admin', actor: 'rev@team' },
      key: key('a'),
      params: { id: wd.id },
      body: { decision: 'approve' },
    }),
  );
  t.match(
    errorOf(
      await s.call('payments.admin.withdrawalDecision', {
        scope: { kind: 'admin', actor: 'pay@team' },
        key: key('p'),
        params: { id: wd.id },
        body: { decision: 'pay' },
      }),
    ),
    { code: 'AML_REVIEW_REQUIRED' },
    'our team is told; the operator is not',
  );

  const player = await s.call('players.find', { scope: op, query: { externalId: 'none' } });
  const answers: Record<string, unknown> = {
    kyc: await s.call('players.kyc.get', { scope: op, params: { playerId: p } }),
    players: player,
    wallet: await s.call('wallet.get', { scope: op, params: { playerId: p } }),
    transactions: await s.call('wallet.transactions', { scope: op, params: { playerId: p }, query: {} }),
    withdrawal: await s.call('payments.withdrawals.get', { scope: op, params: { withdrawalId: wd.id } }),
    deposit: dep,
    // The operator's event log: every event of the player, once the webhooks service has them.
    events: await (async () => {
      for (;;) {
        const r = await s.call<{ data: unknown[] }>('webhooks.events.list', { scope: op, query: { limit: 100 } });
        if (r.ok && r.body.data.length >= 3) return r;
        await new Promise((res) => setTimeout(res, 100));
      }
    })(),
  };
  for (const [name, answer] of Object.entries(answers)) {
    t.ok((answer as { ok?: boolean }).ok !== false, `${name} answered`);
    t.notMatch(JSON.stringify(answer), REVEALING, `${name}: nothing about the case`);
    t.notMatch(JSON.stringify(answer), new RegExp(c!.id), `${name}: not the case id`);
  }
  t.match((answers.withdrawal as { body: { status: string } }).body.status, 'approved', 'the withdrawal just waits, approved');

  // Every event of the stream (what webhooks deliver): KYC, deposits, withdrawals, nothing else.
  const bodies = await allEvents(s);
  t.ok(bodies.length >= 3, 'the stream has the player events');
  t.same(
    bodies.filter((b) => REVEALING.test(b)),
    [],
    'no event mentions the case',
  );
  t.same(
    [...new Set(bodies.map((b) => JSON.parse(b).type))].sort(),
    ['deposit.confirmed', 'kyc.status_changed', 'player.limits.changed', 'withdrawal.status_changed'],
    'only the KYC, limits (set at registration) and money events',
  );
});

t.test('a sanctions freeze and its lift tell the operator the status only', async (t) => {
  const s = await startComplianceStack(t, 'amltipfreeze');
  const op = await s.brSpaOperator();
  const p = await s.player(op);
  await s.deposit(op, p, '100.00');
  await waitFor(async () => (await s.db.query('select 1 from compliance.screened_players where player_id = $1', [p])).rowCount === 1, { what: 'screened' });
  ok(
    await s.call('compliance.admin.screening.add', {
      scope: adminScope,
      body: { list: 'sanctions', cpf: await s.cpfOf(p), name: 'Maria Teste', detail: 'UNSC' },
    }),
  );
  const [c] = await s.cases(p);
  const frozen = await s.call('players.get', { scope: op, params: { playerId: p } });
  t.match(frozen, { ok: true, body: { status: 'bloqueado' } }, 'the operator reads the status');
  t.notMatch(JSON.stringify(frozen), REVEALING, 'and nothing else');
  // A case that holds payouts is reviewed by one person and dismissed by another (issue #61).
  for (const [actor, status] of [
    ['rev@team', 'under_review'],
    ['second@team', 'dismissed'],
  ] as const) {
    ok(await s.call('compliance.admin.cases.decide', { scope: { kind: 'admin', actor }, params: { id: c!.id }, body: { status, reason: 'homonym' } }));
  }
  const changes: unknown[] = [];
  const revealing: string[] = [];
  for (const body of await allEvents(s)) {
    const e = JSON.parse(body) as { type: string; data: unknown };
    if (e.type === 'player.status.changed') changes.push(e.data);
    if (REVEALING.test(body)) revealing.push(body);
  }
  t.same(revealing, [], 'no event says anything about the hit');
  const externalId = (ok(await s.call('players.get', { scope: op, params: { playerId: p } })) as { externalId: string }).externalId;
  t.same(
    changes,
    [
      { playerId: p, externalId, previousStatus: 'ativo', status: 'bloqueado' },
      { playerId: p, externalId, previousStatus: 'bloqueado', status: 'ativo' },
    ],
    'the freeze and its lift: the statuses, never why',
  );
});
