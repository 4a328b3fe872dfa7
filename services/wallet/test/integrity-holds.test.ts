// Integrity holds on sports prizes (issue #60 item 3; docs/games.md, "Integrity holds"), in the
// wallet against real Postgres and NATS with the real players service: compliance holds a slip; the
// provider's win is accepted but kept on the brand's integrity-hold account (the player's balance,
// history and slip show nothing of it; the prize clock paused); another person releases it (credited
// once) or forfeits it; the person who placed the hold cannot decide it (FOUR_EYES_REQUIRED); two
// releases at once move the money once; each change audited once; the export lists the held slips by
// event with the evidence. Every test ends with verifyLedger (the integrity checks included).
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import type { AdminScope } from '@bo/contracts';
import { adminScope, gamesServicesWith, scopes, startFakeProvider, startGamesStack, type GamesStack } from '@bo/test-support';
import { WalletConfigSchema } from '../src/config.ts';
import { walletServiceWith } from '../src/service.ts';

const services = gamesServicesWith(() => ({ service: walletServiceWith(), config: WalletConfigSchema }));
const live = scopes.production;
const txId = (label = 'tx') => `${label}-${randomBytes(6).toString('hex')}`;
const MINUTE = 60_000;
const SLIP = {
  sport: 'football',
  event: 'Bahia x Vitória',
  market: 'match_result',
  selection: 'Bahia',
  odds: '2.10',
  eventStartsAt: '2030-01-01T19:00:00.000Z',
};
const MULTIPLE = {
  sport: 'football',
  event: 'Bahia x Vitória; Sport x Náutico',
  market: 'match_result',
  selection: 'Bahia; Náutico',
  odds: '4.20',
  eventStartsAt: '2030-01-01T19:00:00.000Z',
  betType: 'multiple',
  legs: [
    { sport: 'football', event: 'Bahia x Vitória', market: 'match_result', selection: 'Bahia', odds: '2.10', eventStartsAt: '2030-01-01T19:00:00.000Z' },
    { sport: 'football', event: 'Sport x Náutico', market: 'match_result', selection: 'Náutico', odds: '2.00', eventStartsAt: '2030-01-02T19:00:00.000Z' },
  ],
};

/** Three people of our compliance team (four eyes compares people: their personId). */
const person = (name: string): AdminScope => ({ ...adminScope, actor: name, personId: `per_${name}` });
const alice = person('alice');
const bob = person('bob');
const carol = person('carol');

async function assertLedgerSound(t: Test, h: GamesStack): Promise<void> {
  const v = await h.verifyLedger();
  t.same({ ok: v.ok, mismatches: v.mismatches, sum: v.sumOfAllBalances }, { ok: true, mismatches: [], sum: '0.00' }, 'verifyLedger holds');
}

t.test('integrity holds on sports prizes', async (t) => {
  const h = await startGamesStack(t, services);
  const fake = await startFakeProvider(t);
  const sub = h.wallet.nc.subscribe(`${h.prefix}.rpc.operators.status.get`, {
    callback: (_e, msg) => {
      msg.respond(JSON.stringify({ ok: true, status: 200, body: { status: 'active' } }));
    },
  });
  t.teardown(() => sub.unsubscribe());
  const ok = (r: any) => {
    if (!r.ok) throw new Error(JSON.stringify(r));
    return r.body;
  };
  const errorOf = (r: any) => (r.ok ? undefined : r.error);
  const admin = async (subject: string, params: Record<string, string>, body?: unknown) =>
    ok(await h.call(subject, adminScope, { params, ...(body === undefined ? {} : { body }) }));
  const provider = await admin('wallet.admin.providers.create', {}, { name: `sportsbook ${txId()}`, kind: 'sportsbook', launchUrl: fake.url });
  const game = await admin('wallet.admin.providers.putGame', { id: provider.id, gameCode: 'sportsbook' }, { name: 'sportsbook', category: 'sports' });
  await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: live.operatorId }, { enabled: true });
  const pscope = { kind: 'provider' as const, providerId: provider.id, environment: 'production' as const };
  const sports = (op: string, body: unknown) => h.call(`wallet.provider.${op}`, pscope, { body }) as Promise<any>;

  const place = (by: AdminScope, roundId: string, reason = 'odds moved against the market before kick-off', evidence?: string) =>
    h.call('wallet.admin.integrity.place', by, { body: { providerId: provider.id, roundId, reason, ...(evidence ? { evidence } : {}) } });
  const decide = (by: AdminScope, decision: 'release' | 'forfeit', id: string, reason = 'reviewed with the integrity monitor') =>
    h.call(`wallet.admin.integrity.${decision}`, by, { params: { id }, body: { reason } });

  /** A funded player's sports bet of 10.00 on a new slip. */
  const betOn = async (t: Test, slip: object = SLIP) => {
    const player = await h.createPlayer(live, { kyc: 'aprovado' });
    await h.credit(live, player, '100.00');
    await h.openSession(t, live, player, game.id);
    const token = fake.requests.at(-1)!.body.token as string;
    const roundId = txId('slip');
    const betTx = txId('bet');
    ok(await sports('bet', { transactionId: betTx, token, roundId, gameCode: 'sportsbook', amount: '10.00', currency: 'BRL', slip }));
    return { player, roundId, betTx };
  };
  const walletOf = async (player: string) => ok(await h.call('wallet.get', live, { params: { playerId: player } }));
  const historyOf = async (player: string) =>
    (ok(await h.call('wallet.transactions', live, { params: { playerId: player } })).data as { type: string; amount: string }[]).map(
      (i) => `${i.type} ${i.amount}`,
    );
  const slipOf = async (player: string, roundId: string) =>
    (ok(await h.call('wallet.rounds.list', live, { params: { playerId: player } })).data as any[]).find((r) => r.roundId === roundId);
  const settledEvents = async (roundId: string) =>
    (
      await h.sql<{ n: string }>(
        `select count(*) as n from wallet.outbox where subject_type = 'sports_bet.settled' and payload::jsonb -> 'data' ->> 'betId' = ?`,
        [roundId],
      )
    )[0]!.n;
  const audits = async (holdId: string) =>
    (
      await h.sql<{ action: string; actor: string }>(
        `select payload::jsonb -> 'data' ->> 'action' as action, payload::jsonb -> 'data' ->> 'actor' as actor from wallet.outbox
          where subject_type = 'audit.recorded' and payload::jsonb -> 'data' ->> 'target' = ? order by seq`,
        [`integrity-hold:${holdId}`],
      )
    ).map((a) => `${a.action} ${a.actor}`);
  const integrityMoves = async (holdId: string) =>
    (
      await h.sql<{ type: string; account_id: string; amount: string }>(
        `select t.type, e.account_id, e.amount::text from wallet.ledger_transactions t join wallet.ledger_entries e on e.transaction_id = t.id
          where t.reference_id = ? order by t.created_at, e.amount`,
        [holdId],
      )
    ).map((m) => `${m.type} ${m.account_id.split(':')[1]} ${m.amount}`);

  t.test('held: the win is accepted but kept on the hold account; the player sees an open slip; the prize clock pauses', async (t) => {
    const { player, roundId, betTx } = await betOn(t);
    const hold = ok(await place(alice, roundId, 'unusual stake pattern on this market', 'alert IM-7 from the integrity monitor'));
    t.match(hold, { status: 'held', playerId: player, heldAmount: '0.00', heldWins: 0, prizeClock: null, placedBy: 'alice' });
    t.same(await audits(hold.id), ['adminPlaceIntegrityHold alice'], 'the placement audited once');

    const ended = new Date(Date.now() - 30 * MINUTE);
    const win = { transactionId: txId('win'), playerId: player, roundId, amount: '21.00', currency: 'BRL', outcome: 'won', eventEndedAt: ended.toISOString() };
    t.match(ok(await sports('win', win)), { moved: '0.00', balance: '90.00', replayed: false }, 'accepted; nothing reaches the player');
    t.match(ok(await sports('win', win)), { moved: '0.00', balance: '90.00', replayed: true }, 'its retry answered the same');
    t.equal((await walletOf(player)).available, '90.00', "the player's balance unchanged");
    t.same(await historyOf(player), ['BET -10.00', 'DEPOSIT 100.00'], "the player's history: nothing of the win");
    t.match(await slipOf(player, roundId), { status: 'open', won: '0.00', outcome: null }, 'the slip still awaits its settlement');
    t.equal(await settledEvents(roundId), '0', 'no sports_bet.settled to the operator while held');
    const [held] = ok(await h.call('wallet.admin.integrity.list', carol, { query: { playerId: player } })).data;
    t.match(held, {
      id: hold.id,
      status: 'held',
      heldAmount: '21.00',
      heldWins: 1,
      evidence: 'alert IM-7 from the integrity monitor',
      prizeClock: {
        eventEndedAt: ended.toISOString(),
        dueAt: new Date(ended.getTime() + 120 * MINUTE).toISOString(),
        pauseReason: 'integrity_hold',
        arrivedOnTime: true,
        resumedAt: null,
      },
    });
    t.same(await integrityMoves(hold.id), ['INTEGRITY_HOLD provider_clearing -21.00', 'INTEGRITY_HOLD integrity_hold 21.00'], 'clearing → hold account');
    t.match(
      errorOf(await sports('rollback', { transactionId: txId('rb'), playerId: player, roundId, betTransactionId: betTx })),
      { code: 'BET_ALREADY_SETTLED' },
      'its stake is not refunded while its win is held',
    );
    await assertLedgerSound(t, h);

    t.test('the person who placed it cannot release it; another person releases: credited once', async (t) => {
      t.match(errorOf(await decide(alice, 'release', hold.id)), { code: 'FOUR_EYES_REQUIRED' });
      t.equal((await walletOf(player)).available, '90.00', 'nothing moved');
      const released = ok(await decide(bob, 'release', hold.id, 'the monitor closed the alert: no manipulation'));
      t.match(released, { status: 'released', decidedBy: 'bob', decisionReason: 'the monitor closed the alert: no manipulation', heldAmount: '21.00' });
      t.ok(released.prizeClock.resumedAt, 'the prize clock ran again at the decision');
      t.equal((await walletOf(player)).available, '111.00', 'the prize reached the player');
      t.same(await historyOf(player), ['INTEGRITY_RELEASE 21.00', 'BET -10.00', 'DEPOSIT 100.00']);
      t.match(await slipOf(player, roundId), { status: 'settled', won: '21.00', outcome: 'won' }, 'the slip settled as the provider said');
      t.equal(await settledEvents(roundId), '1', 'sports_bet.settled once, at the release');
      t.same(ok(await decide(bob, 'release', hold.id, 'the monitor closed the alert: no manipulation')).status, 'released', 'asked again: its answer');
      t.match(errorOf(await decide(carol, 'release', hold.id)), { code: 'INTEGRITY_HOLD_CONFLICT', details: { reason: 'decided' } });
      t.match(errorOf(await decide(carol, 'forfeit', hold.id)), { code: 'INTEGRITY_HOLD_CONFLICT' });
      t.equal((await walletOf(player)).available, '111.00', 'credited once');
      t.same(await audits(hold.id), ['adminPlaceIntegrityHold alice', 'adminReleaseIntegrityHold bob'], 'each change audited once');
      t.same(
        await integrityMoves(hold.id),
        [
          'INTEGRITY_HOLD provider_clearing -21.00',
          'INTEGRITY_HOLD integrity_hold 21.00',
          'INTEGRITY_RELEASE integrity_hold -21.00',
          'INTEGRITY_RELEASE player 21.00',
        ],
        'hold account → player, once',
      );
      await assertLedgerSound(t, h);
    });
  });

  t.test('forfeited: the prize goes to the forfeited-prizes account, never to the player', async (t) => {
    const { player, roundId } = await betOn(t);
    const hold = ok(await place(bob, roundId));
    t.match(errorOf(await decide(alice, 'forfeit', hold.id)), { code: 'INTEGRITY_HOLD_CONFLICT', details: { reason: 'nothing_held' } }, 'no win yet');
    ok(await sports('win', { transactionId: txId('win'), playerId: player, roundId, amount: '30.00', currency: 'BRL', outcome: 'won' }));
    t.match(errorOf(await decide(bob, 'forfeit', hold.id)), { code: 'FOUR_EYES_REQUIRED' });
    t.match(ok(await decide(alice, 'forfeit', hold.id, 'the sports body confirmed the manipulation')), { status: 'forfeited', decidedBy: 'alice' });
    t.equal((await walletOf(player)).available, '90.00', 'the player never credited');
    t.same(await historyOf(player), ['BET -10.00', 'DEPOSIT 100.00']);
    t.match(await slipOf(player, roundId), { status: 'settled', won: '0.00', outcome: 'won' });
    t.same(
      (await integrityMoves(hold.id)).slice(2),
      ['INTEGRITY_FORFEIT integrity_hold -30.00', 'INTEGRITY_FORFEIT integrity_forfeited 30.00'],
      'hold account → forfeited prizes',
    );
    t.same(await audits(hold.id), ['adminPlaceIntegrityHold bob', 'adminForfeitIntegrityHold alice']);
    await assertLedgerSound(t, h);
  });

  t.test('placing: only an open sports slip, once; a refusal writes nothing', async (t) => {
    const { player, roundId } = await betOn(t);
    ok(await place(alice, roundId));
    t.match(errorOf(await place(bob, roundId)), { code: 'INTEGRITY_HOLD_CONFLICT', details: { reason: 'already_held' } });
    t.match(errorOf(await place(bob, 'no-such-slip')), { code: 'ROUND_NOT_FOUND' });
    const settled = await betOn(t);
    ok(await sports('win', { transactionId: txId('win'), playerId: settled.player, roundId: settled.roundId, amount: '5.00', currency: 'BRL' }));
    t.match(errorOf(await place(alice, settled.roundId)), { code: 'INTEGRITY_HOLD_CONFLICT', details: { reason: 'slip_not_open' } }, 'already paid');
    const rows = await h.sql<{ n: string }>('select count(*) as n from wallet.integrity_holds where player_id in (?, ?)', [player, settled.player]);
    t.equal(rows[0]!.n, '1', 'one hold');
    // A lost slip under hold: 0.00 owes no prize and settles as usual.
    const lost = await betOn(t);
    const lostHold = ok(await place(alice, lost.roundId));
    ok(await sports('win', { transactionId: txId('win'), playerId: lost.player, roundId: lost.roundId, amount: '0', currency: 'BRL', outcome: 'lost' }));
    t.match(await slipOf(lost.player, lost.roundId), { status: 'settled', won: '0.00', outcome: 'lost' });
    t.match(ok(await decide(bob, 'release', lostHold.id, 'nothing to pay')), { status: 'released', heldAmount: '0.00' });
    await assertLedgerSound(t, h);
  });

  t.test('a credit of a held slip that did not take the held path is refused by the round (the win reads again)', async (t) => {
    const { player, roundId } = await betOn(t);
    ok(await place(alice, roundId));
    // What a win that read the slip before the hold committed would do: credit the round's winnings.
    const refused = await h.sql('update wallet.provider_rounds set won = won + 1 where provider_id = ? and round_id = ?', [provider.id, roundId]).then(
      () => 'updated',
      (e: Error) => e.message,
    );
    t.equal(refused, 'must:round', 'the trigger refuses it');
    t.match(await slipOf(player, roundId), { won: '0.00' });
  });

  t.test('concurrency: two releases at once move the money once; the same win many times at once is held once', async (t) => {
    const { player, roundId } = await betOn(t);
    const hold = ok(await place(alice, roundId));
    const win = { transactionId: txId('win'), playerId: player, roundId, amount: '40.00', currency: 'BRL', outcome: 'won' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => sports('win', win)));
    t.same(
      answers.map((a) => a.ok && a.body.moved),
      Array(6).fill('0.00'),
      'every copy answered',
    );
    t.equal(answers.filter((a) => a.ok && !a.body.replayed).length, 1, 'one of them held it');
    const decisions = await Promise.all([decide(bob, 'release', hold.id), decide(carol, 'release', hold.id)]);
    t.same(decisions.map((d) => (d.ok ? 'ok' : d.error.code)).sort(), ['INTEGRITY_HOLD_CONFLICT', 'ok'], 'one release, one refusal');
    t.equal((await walletOf(player)).available, '130.00', 'credited once');
    t.equal((await integrityMoves(hold.id)).filter((m) => m.startsWith('INTEGRITY_RELEASE player')).length, 1);
    t.equal((await audits(hold.id)).length, 2, 'placement + one release audited');
    await assertLedgerSound(t, h);
  });

  t.test('the suspicious-betting export: held slips by event with the evidence and the articles (JSON and CSV)', async (t) => {
    const from = new Date(Date.now() - MINUTE).toISOString();
    const single = await betOn(t);
    const multiple = await betOn(t, MULTIPLE);
    const h1 = ok(await place(alice, single.roundId, 'same selection from linked accounts', 'accounts A, B share a device'));
    const h2 = ok(await place(alice, multiple.roundId, 'late odds drop', 'monitor alert 42'));
    const to = new Date(Date.now() + MINUTE).toISOString();
    const file = ok(await h.call('wallet.admin.integrity.export', carol, { query: { from, to } }));
    t.match(file, { contentType: 'application/json', nextCursor: null });
    const report = JSON.parse(file.chunk);
    t.same(
      report.legalBasis.map((b: any) => b.reference),
      ['Portaria SPA/MF 1.231/2024', 'Portaria SPA/MF 1.225/2024', 'Portaria MESP 109/2024 (Ministério do Esporte)'],
    );
    t.ok(
      report.legalBasis.every((b: any) => b.url.startsWith('https://')),
      'each with a public link',
    );
    const ours = (e: any) => e.slips.filter((s: any) => s.holdId === h1.id || s.holdId === h2.id).map((s: any) => s.holdId);
    const byEvent = Object.fromEntries(report.events.map((e: any) => [e.event, ours(e)]));
    t.same(byEvent['Bahia x Vitória'].sort(), [h1.id, h2.id].sort(), 'both slips under the first event');
    t.same(byEvent['Sport x Náutico'], [h2.id], "the multiple's second leg under its own event");
    const slip = report.events.find((e: any) => e.event === 'Sport x Náutico').slips.find((s: any) => s.holdId === h2.id);
    t.match(slip, {
      selection: 'Náutico',
      odds: '2.00',
      staked: '10.00',
      reason: 'late odds drop',
      evidence: 'monitor alert 42',
      holdStatus: 'held',
      heldBy: 'alice',
    });
    const csv = ok(await h.call('wallet.admin.integrity.export', carol, { query: { from, to, format: 'csv' } }));
    t.match(csv, { contentType: 'text/csv; charset=utf-8' });
    const lines = (csv.chunk as string).split('\r\n');
    t.equal(lines[0]!.split(',')[0], 'sport', 'the header');
    t.equal(lines.filter((l) => l.includes(h2.id)).length, 2, 'the multiple: one line per event');
    t.ok(
      lines.some((l) => l.startsWith('# Portaria SPA/MF 1.231/2024')),
      'the articles in the file',
    );
    t.match(errorOf(await h.call('wallet.admin.integrity.export', carol, { query: { from: to, to: from } })), { code: 'VALIDATION_ERROR' });
  });
});
