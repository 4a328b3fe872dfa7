// What an aggregator's and a sportsbook's servers do to a wallet (issue #44): rounds of a bet and a
// win (or a win of 0), the same transaction id again after a timeout, a rollback of a bet whose
// answer never came, duplicates at once, calls out of order, wins after the session ended, and
// sports bets with a slip left open and settled later, then corrected. Each call names what it
// must get; the book checks every answer's money.
import { fromCents, payout, toCents } from './money.ts';
import { providerId, type PlayerSession } from './player-session.ts';

const AMOUNTS = ['1.00', '2.50', '5.00'] as const;
const pick = <T>(xs: readonly T[], n: number): T => xs[n % xs.length]!;

/** Ends the session's token now (the e2e test moves its expiry), or resolves false when it cannot. */
export type ExpireSession = (s: PlayerSession) => Promise<boolean>;

/** Bet then win: the win is 0 (a lost round), the stake back, or twice it. */
export async function plainRounds(s: PlayerSession, rounds: number, seed: number): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    const stake = pick(AMOUNTS, seed + i);
    const bet = s.betBody(stake);
    await s.send('bets', bet);
    const win = pick(['0', stake, fromCents(toCents(stake) * 2n), '0'], seed + i);
    await s.send('wins', s.winBody(bet.roundId, win));
  }
}

/** The answer of a bet and then of its win is lost: each is sent again with the same id and answers the first answer, replayed. */
export async function retriesAfterTimeout(s: PlayerSession): Promise<void> {
  const bet = s.betBody('2.00');
  await s.lose('bets', bet);
  await s.send('bets', bet);
  const win = s.winBody(bet.roundId, '3.00');
  await s.lose('wins', win);
  await s.send('wins', win);
}

/** A bet's answer is lost, so the provider rolls it back (its money back, once); the bet sent again late moves nothing. */
export async function rollbackAfterTimeout(s: PlayerSession): Promise<void> {
  const bet = s.betBody('3.00');
  await s.lose('bets', bet);
  const rollback = s.rollbackBody(bet);
  const r = await s.send('rollbacks', rollback);
  if (r.status === 200 && r.body.moved !== '3.00') s.book.problem(`rollback ${rollback.transactionId}: moved ${r.body.moved}, expected 3.00`);
  await s.send('rollbacks', rollback);
  await s.send('bets', bet);
  await s.send('wins', s.winBody(bet.roundId, '1.00'), ['ROUND_CLOSED', 'ROUND_NOT_FOUND']);
}

/** A rollback arrives before its bet (out of order): done, moving nothing; the bet arriving later is refused. */
export async function rollbackBeforeBet(s: PlayerSession): Promise<void> {
  const bet = s.betBody('4.00');
  const r = await s.send('rollbacks', s.rollbackBody(bet));
  if (r.status === 200 && r.body.moved !== '0.00') s.book.problem(`rollback of a bet never received moved ${r.body.moved}`);
  await s.send('bets', bet, ['BET_ROLLED_BACK']);
}

/** Three copies of a bet at once (one debit; one copy answered as applied, in any order with the replays), then its win twice in a row (one credit). */
export async function duplicates(s: PlayerSession): Promise<void> {
  const bet = s.betBody('1.00');
  const copies = await Promise.all([s.send('bets', bet), s.send('bets', bet), s.send('bets', bet)]);
  const fresh = copies.filter((c) => c.status === 200 && c.body.replayed === false).length;
  if (fresh > 1) s.book.problem(`bet ${bet.transactionId}: ${fresh} copies answered as new`);
  const win = s.winBody(bet.roundId, '0');
  await s.send('wins', win);
  await s.send('wins', win);
}

/** Two bets in one round, a win that keeps it open, the win that closes it; then the round takes nothing more. */
export async function multiBetRound(s: PlayerSession): Promise<void> {
  const roundId = providerId('round');
  await s.send('bets', s.betBody('2.00', { roundId }));
  await s.send('bets', s.betBody('2.00', { roundId }));
  await s.send('wins', s.winBody(roundId, '1.50', { roundClosed: false }));
  await s.send('wins', s.winBody(roundId, '6.00', { roundClosed: true }));
  await s.send('wins', s.winBody(roundId, '1.00'), ['ROUND_CLOSED']);
  await s.send('bets', s.betBody('1.00', { roundId }), ['ROUND_CLOSED']);
}

/** The session ends with a round open: new bets are refused, the round's win is paid, the balance still reads. */
export async function winAfterExpiry(s: PlayerSession, expire: ExpireSession): Promise<void> {
  const bet = s.betBody('1.00');
  await s.send('bets', bet);
  if (!(await expire(s))) {
    s.book.skipped.push(`win after expiry (${s.launch.sessionId}): the session does not end in time`);
    await s.send('wins', s.winBody(bet.roundId, '2.00'));
    return;
  }
  await s.send('bets', s.betBody('1.00'), ['SESSION_TOKEN_EXPIRED']);
  await s.send('wins', s.winBody(bet.roundId, '2.00'));
  await s.send('balance', { token: s.launch.token });
}

/** A casino session: authenticate, then every casino scenario; the session ends last. */
export async function casinoSession(s: PlayerSession, opts: { rounds: number; seed: number; expire: ExpireSession }): Promise<void> {
  const auth = await s.send('authenticate', { token: s.launch.token });
  if (auth.status === 200 && auth.body.playerId !== s.playerId) s.book.problem(`authenticate answered ${auth.body.playerId}, launched for ${s.playerId}`);
  await plainRounds(s, opts.rounds, opts.seed);
  await retriesAfterTimeout(s);
  await rollbackAfterTimeout(s);
  await rollbackBeforeBet(s);
  await duplicates(s);
  await multiBetRound(s);
  await winAfterExpiry(s, opts.expire);
}

const slip = (n: number) => ({
  sport: 'football',
  event: pick(['Flamengo x Palmeiras', 'Corinthians x Santos', 'Grêmio x Internacional'], n),
  market: '1x2',
  selection: pick(['home', 'draw', 'away'], n),
  odds: pick(['2.35', '3.10', '1.85', '4.00'], n),
  eventStartsAt: new Date(Date.now() + 86_400_000).toISOString(),
});

/**
 * A sportsbook session: four bets with slips left open (each slip its own round); answers the
 * settlement, run later (after the session ended, as a sports bet settles days later): won, lost,
 * void, cashed out, then a resettlement of two of them (a credit and a debit).
 */
export async function sportsSession(s: PlayerSession, seed: number): Promise<() => Promise<void>> {
  await s.send('authenticate', { token: s.launch.token });
  const open: Array<{ bet: ReturnType<PlayerSession['betBody']>; odds: string }> = [];
  for (let i = 0; i < 4; i++) {
    const sl = slip(seed + i);
    const bet = s.betBody(pick(['5.00', '10.00'], seed + i), { roundId: providerId('slip'), slip: sl });
    await s.send('bets', bet);
    open.push({ bet, odds: sl.odds });
  }
  const [won, lost, voided, cashedOut] = open as [(typeof open)[0], (typeof open)[0], (typeof open)[0], (typeof open)[0]];
  await s.send(
    'corrections',
    { transactionId: providerId('correction'), playerId: s.playerId, roundId: won.bet.roundId, amount: '1.00', currency: s.launch.currency, reason: 'early' },
    ['ROUND_NOT_SETTLED'],
  );
  return async () => {
    const settle = (o: (typeof open)[0], amount: string, outcome: string) => s.send('wins', s.winBody(o.bet.roundId, amount, { outcome }));
    await settle(won, payout(won.bet.amount, won.odds), 'won');
    await settle(lost, '0', 'lost');
    await settle(voided, voided.bet.amount, 'void');
    await settle(cashedOut, fromCents(toCents(cashedOut.bet.amount) / 2n), 'cashout');
    await s.send('wins', s.winBody(won.bet.roundId, '1.00', { outcome: 'won' }), ['ROUND_CLOSED']);
    const correction = (o: (typeof open)[0], amount: string, reason: string) =>
      ({ transactionId: providerId('correction'), playerId: s.playerId, roundId: o.bet.roundId, amount, currency: s.launch.currency, reason }) as const;
    const credit = correction(lost, '2.00', 'resettled: half won');
    await s.send('corrections', credit);
    await s.send('corrections', credit);
    await s.send('corrections', correction(won, '-1.00', 'resettled: odds corrected'));
  };
}

/**
 * Issue #59 item 1: what the provider funds. A bet carrying a jackpot contribution; a free round (its
 * free bet moves nothing, its win is credited), sent twice; a tournament prize and a jackpot win its
 * bet won, each sent twice (one credit each).
 */
export async function providerFunded(s: PlayerSession): Promise<void> {
  const bet = s.betBody('2.00', { jackpotContribution: '0.10' });
  await s.send('bets', bet);
  await s.send('wins', s.winBody(bet.roundId, '0'));
  const free = s.freeBetBody('1.00');
  await s.send('free-bets', free);
  await s.send('free-bets', free);
  const freeWin = s.winBody(free.roundId, '2.50');
  await s.send('wins', freeWin);
  await s.send('wins', freeWin);
  const prize = s.promoCreditBody('5.00', 'tournament_prize');
  await s.send('promo-credits', prize);
  await s.send('promo-credits', prize);
  const jackpot = s.jackpotWinBody('25.00', { roundId: bet.roundId });
  await s.send('jackpot-wins', jackpot);
  await s.send('jackpot-wins', jackpot);
}
