// Issue #59 item 2 through the real gateway, wallet and players services (docs/connectors-hub88.md,
// "Reconciliation: the Transactions API"; docs/money.md, "Reconciliation with a provider"): a day of
// play through Hub88's Wallet API, then our team asks Hub88's Transactions API (the stand-in, which
// verifies our signature with the public key we handed it) for that day. Hub88 answers the day's
// transactions with planted differences (an amount, an amount that is not a whole cent, one missing,
// one extra, one declined call we never took); the reconciliation finds exactly those, and the day is
// listed as an uploaded statement's day is.
import t from 'tap';
import { randomBytes, randomUUID } from 'node:crypto';
import type { OperatorScope } from '@bo/contracts';
import { startGamesStack, startHub88Standin } from '@bo/test-support';
import { gamesServices } from '@bo/wallet/testing';
import { startHarness } from './support/harness.ts';
import { hub88Units, setUpHub88Connector } from './support/hub88-connector.ts';

const uuid = () => randomUUID();
const units = hub88Units;

t.test("Hub88's Transactions API: a day fetched and reconciled", async (t) => {
  const h = await startHarness({ RPC_TIMEOUT_MS: '30000' });
  t.teardown(() => h.close());
  const gw = h.gateways[0]!;
  const games = await startGamesStack(t, gamesServices, { PUBLIC_BASE_URL: gw.publicUrl }, { prefix: h.prefix });
  const op = await h.createOperator({ name: `Hub88 Recon ${randomBytes(3).toString('hex')}` });
  const me = await op.productionClient.get('/me');
  const live: OperatorScope = { kind: 'operator', operatorId: op.operator.id, brandId: me.body.brand.id, environment: 'production', currency: 'BRL' };
  const hub88 = await startHub88Standin(t, [{ game_code: 'clt_dragonrising', name: 'Dragon Rising', category: 'Video Slots', enabled: true }]);
  const admin = async (method: string, path: string, body?: unknown, expected = [200, 201]) => {
    const r = await h.admin(method, path, body);
    if (!expected.includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  const connector = await setUpHub88Connector(h, hub88, { operatorId: live.operatorId });
  const provider = { id: connector.providerId };
  const call = connector.call;

  // A day of play: four bets and a win, each through Hub88's Wallet API.
  const player = await games.createPlayer(live, { kyc: 'aprovado' });
  await games.credit(live, player, '100.00');
  await games.openSession(t, live, player, connector.gameId('clt_dragonrising'));
  const token = String(hub88.gameUrlRequests.at(-1)!.body.token);
  const bet = (amount: string) => ({
    user: player,
    transaction_uuid: uuid(),
    supplier_transaction_id: uuid(),
    token,
    round: uuid(),
    round_closed: false,
    request_uuid: uuid(),
    is_free: false,
    is_aggregated: false,
    game_code: 'clt_dragonrising',
    currency: 'BRL',
    bet: 'zero',
    amount: units(amount),
  });
  const matched = bet('10.00');
  const missing = bet('5.00');
  const notWholeCents = bet('3.00');
  const wrongAmount = { ...bet('25.00'), reference_transaction_uuid: matched.transaction_uuid, round: matched.round, round_closed: true };
  for (const b of [matched, missing, notWholeCents]) t.equal((await call('/transaction/bet', b)).status, 'RS_OK', 'a bet taken');
  t.equal((await call('/transaction/win', wrongAmount)).status, 'RS_OK', 'a win paid');
  // The day of the play, in UTC and in São Paulo (the zone a statement mapping sets below), whatever the hour.
  const [row] = await games.sql<{ date: string; zoned: string; at: string }>(
    `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as date, to_char(created_at at time zone 'America/Sao_Paulo', 'YYYY-MM-DD') as zoned,
            to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as at
     from wallet.provider_transactions where transaction_id = ?`,
    [matched.transaction_uuid],
  );
  const { date, zoned: zonedDate, at } = row!;
  const dayAfter = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const next = dayAfter(date);

  // Hub88's list of the day: what it took from us, with the planted differences.
  const item = (b: { transaction_uuid: string; round: string; amount: number }, over: Record<string, unknown> = {}) => ({
    transaction_uuid: b.transaction_uuid,
    user: player,
    round: b.round,
    status: 'TS_SUCCESS',
    amount: b.amount,
    currency: 'BRL',
    game_code: 'clt_dragonrising',
    inserted_at: at,
    ...over,
  });
  const extra = uuid();
  hub88.transactions = [
    item(matched),
    item(wrongAmount, { amount: units('24.00'), reference_transaction_uuid: matched.transaction_uuid }),
    item(notWholeCents, { amount: 300500 }),
    item({ transaction_uuid: extra, round: uuid(), amount: units('7.00') }),
    // Declined by us and never taken: neither side moved money, no difference.
    item({ transaction_uuid: uuid(), round: uuid(), amount: units('1000.00') }, { status: 'TS_DECLINED' }),
  ];

  const fetched = await h.admin('POST', `/admin/providers/${provider.id}/statements/fetch`, { date });
  t.equal(fetched.status, 200, 'the day fetched and reconciled');
  t.equal(hub88.transactionRequests.length, 1, 'Hub88 asked once');
  const sent = hub88.transactionRequests[0]!;
  t.equal(sent.verified, true, 'our request verified with the public key we handed Hub88');
  t.same(sent.body, { operator_id: 4242, start_time: `${date}T00:00:00`, end_time: `${next}T00:00:00` }, 'the day in UTC (no statement mapping)');
  t.match(fetched.body.day, { date, timeZone: 'UTC', matched: 1, oursOnly: 1, theirsOnly: 1, amountDiffers: 2, statusDiffers: 0, ties: false });
  const found = (fetched.body.differences as Array<{ transactionId: string; category: string; fields: string[]; ours: any; theirs: any }>).map((d) => ({
    id: d.transactionId,
    category: d.category,
    fields: d.fields,
    ours: d.ours?.amount ?? null,
    theirs: d.theirs?.amount ?? null,
    exact: d.theirs?.exactAmount ?? null,
  }));
  const expected = [
    { id: wrongAmount.transaction_uuid, category: 'amount_differs', fields: ['amount'], ours: '25.00', theirs: '24.00', exact: null },
    { id: notWholeCents.transaction_uuid, category: 'amount_differs', fields: ['amount'], ours: '-3.00', theirs: '-3.00', exact: '-3.00500' },
    { id: missing.transaction_uuid, category: 'ours_only', fields: [], ours: '-5.00', theirs: null, exact: null },
    { id: extra, category: 'theirs_only', fields: [], ours: null, theirs: '7.00', exact: null },
  ];
  const order = (a: { category: string; id: string }, b: { category: string; id: string }) =>
    a.category === b.category ? a.id.localeCompare(b.id) : a.category.localeCompare(b.category);
  t.same(found, expected.sort(order), 'exactly the planted differences: an amount, an amount not in whole cents (never rounded), one missing, one extra');

  const listed = await admin('GET', `/admin/providers/${provider.id}/reconciliations?from=${date}&to=${date}`);
  t.same(listed.data, [fetched.body.day], "listed among the provider's reconciled days, as an uploaded statement's day is");
  const day = await admin('GET', `/admin/providers/${provider.id}/reconciliations/${date}`);
  t.same(day, fetched.body, 'the day read back with its differences');
  const [statement] = await games.sql<{ source: string; lines: number }>(
    `select source, lines from wallet.provider_statements where provider_id = ? and superseded_at is null`,
    [provider.id],
  );
  t.same(statement, { source: 'hub88', lines: 3 }, 'the statement kept as fetched from Hub88: the items that read as lines');

  const audits = await games.sql<{ target: string; after: { source: string; items: number; lines: number; odd: number; declinedUnknown: number } }>(
    `select payload::jsonb -> 'data' ->> 'target' as target, payload::jsonb -> 'data' -> 'after' as after from wallet.outbox
     where subject_type = 'audit.recorded' and payload::jsonb -> 'data' ->> 'action' = 'adminFetchProviderStatement'`,
  );
  t.match(
    audits,
    [{ target: provider.id, after: { source: 'hub88', items: 5, lines: 3, odd: 1, declinedUnknown: 1 } }],
    "one audit row, in the change's transaction",
  );

  // With a statement mapping, the day is in its zone (São Paulo: UTC−3), and the day fetched again stands alone.
  await admin('PUT', `/admin/providers/${provider.id}/statement-mapping`, {
    format: 'json',
    fields: { transactionId: 'id', kind: 'kind', amount: 'amount', currency: 'currency' },
    kinds: { bet: 'bet', win: 'win' },
    amountUnit: 'units',
    sign: 'player',
    timeZone: 'America/Sao_Paulo',
  });
  const zoned = await h.admin('POST', `/admin/providers/${provider.id}/statements/fetch`, { date: zonedDate });
  t.equal(zoned.status, 200);
  t.same(
    hub88.transactionRequests[1]?.body,
    { operator_id: 4242, start_time: `${zonedDate}T03:00:00`, end_time: `${dayAfter(zonedDate)}T03:00:00` },
    "the day in the mapping's zone",
  );
  t.match(zoned.body.day, { timeZone: 'America/Sao_Paulo', matched: 1, oursOnly: 1, theirsOnly: 1, amountDiffers: 2, statusDiffers: 0, ties: false });
  t.same(zoned.body.differences, fetched.body.differences, 'the same differences: the fetched statement replaced the one before');
  if (zonedDate === date) {
    const current = await games.sql<{ n: number }>(
      `select count(*)::int as n from wallet.provider_statements where provider_id = ? and superseded_at is null`,
      [provider.id],
    );
    t.equal(current[0]!.n, 1, 'one current statement of the day');
  } else t.pass('the São Paulo day is another day than the UTC one at this hour: each keeps its statement');

  // Hub88 answering without a transaction list: 502, and nothing reconciled anew.
  hub88.transactions = [{ transaction_uuid: 42 }];
  const broken = await h.admin('POST', `/admin/providers/${provider.id}/statements/fetch`, { date });
  t.equal(broken.status, 502, 'Hub88 unusable: the provider is unavailable');
  t.equal(broken.body.error.code, 'PROVIDER_UNAVAILABLE');
  t.same(
    await admin('GET', `/admin/providers/${provider.id}/reconciliations/${date}`),
    zonedDate === date ? zoned.body : fetched.body,
    'the day as reconciled before',
  );
  t.equal(
    (
      await games.sql<{ n: number }>(
        `select count(*)::int as n from wallet.outbox where subject_type = 'audit.recorded' and payload::jsonb -> 'data' ->> 'action' = 'adminFetchProviderStatement'`,
      )
    )[0]!.n,
    2,
    'no audit row for a fetch that changed nothing',
  );

  // A native provider has no transactions API we call: its statement is uploaded.
  const native = await admin('POST', '/admin/providers', { name: `Native ${randomBytes(3).toString('hex')}`, kind: 'casino' });
  const refused = await h.admin('POST', `/admin/providers/${native.id}/statements/fetch`, { date });
  t.equal(refused.status, 422, 'a native provider: 422');
});
