// `npm run provider-sim -- --protocol betsy`: plays Betsy's sportsbook against the operator's
// connector (docs/connectors-betsy.md) the way its document says it behaves:
// - a place bet answered with code 100, any HTTP status but 200 and 400, or nothing within its
//   timeout is rolled back, and a rollback is sent until it is answered;
// - a settle (or unsettle) that failed (no answer, code 100) is sent again with the same data; a
//   settle of a bet already settled with another payout is a resettlement;
// - its frame asks for the user's profile and polls the balance; a cash-out carries the user's token.
// Our team's part is done on the admin API first: the provider registered (kind sportsbook, protocol
// betsy), its frame page and its PARTNER_SECRET, the `sportsbook` game in the catalogue, offered to
// the operator. The simulator keeps its own book of each player's money (the debt a resettlement
// leaves included, repaid by the next credits) and holds every balance answer to it; at the end each
// player's wallet must be the book's, and the ledger must verify.
import { randomBytes, randomUUID } from 'node:crypto';
import type { BetsyWireAnswer } from '@bo/contracts';
import { AdminSide } from '../admin-side.ts';
import { closingChecks, playSessions } from '../connector-run.ts';
import { fromCents, payout, toCents } from '../money.ts';
import { OperatorSide } from '../operator-side.ts';
import type { RetryPolicy } from '../retry.ts';
import { BetsyWalletClient, type BetsyReply } from './wallet-client.ts';

export interface BetsySimulationOptions {
  gatewayUrl: string;
  operator: { key: string; secret: string };
  admin: { url: string; token: string };
  sessions: number;
  concurrency: number;
  rounds: number;
  funds: string;
  /** How long a call is sent again until it is answered (ms). */
  retryDeadlineMs: number;
  timeoutMs: number;
  maxExpiryWaitMs: number;
  log?: (line: string) => void;
}

export interface BetsySimulationSummary {
  protocol: 'betsy';
  providerId: string;
  sessions: number;
  players: number;
  counts: {
    bets: number;
    settles: number;
    resettles: number;
    unsettles: number;
    cashouts: number;
    rollbacks: number;
    /** Bets rolled back by Betsy's policy (no answer, or code 100). */
    rolledBackByPolicy: number;
    /** Answers dropped on purpose, as when Betsy's call times out. */
    lostAnswers: number;
    /** Attempts sent again after a failure (no answer, code 100). */
    retries: number;
    /** Copies of a call sent at once or again, which must move nothing more. */
    duplicates: number;
    /** Final error answers, by code. */
    refusals: Record<string, number>;
  };
  balanceMismatches: string[];
  ledger: { verified: boolean; ok?: boolean; mismatches?: number };
  problems: string[];
  skipped: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FRAME_URL = 'https://sportsbook.simulated.test/frame';

/** A deterministic sequence per session (mulberry32): a run plays the same bets every time. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A player's money as our wallet keeps it: the balance, and what the player owes the provider (a resettlement's debit the balance did not cover). */
class Book {
  balance: bigint;
  owed = 0n;
  constructor(funds: string) {
    this.balance = toCents(funds);
  }
  stake(c: bigint) {
    this.balance -= c;
  }
  /** A win or a correction's credit: it repays the debt first. */
  credit(c: bigint) {
    const repaid = c < this.owed ? c : this.owed;
    this.owed -= repaid;
    this.balance += c - repaid;
  }
  /** A correction's debit: taken up to the balance, the rest owed. */
  debit(c: bigint) {
    const taken = c < this.balance ? c : this.balance;
    this.balance -= taken;
    this.owed += c - taken;
  }
  /** A rollback: the stake back (it repays nothing). */
  refund(c: bigint) {
    this.balance += c;
  }
  /** A bet's payout changed from `from` to `to` (a resettle, an unsettle, a rollback of a settled bet). */
  repay(from: bigint, to: bigint) {
    if (to > from) this.credit(to - from);
    else if (from > to) this.debit(from - to);
  }
}

export async function runBetsySimulation(opts: BetsySimulationOptions): Promise<BetsySimulationSummary> {
  const log = opts.log ?? (() => undefined);
  const counts: BetsySimulationSummary['counts'] = {
    bets: 0,
    settles: 0,
    resettles: 0,
    unsettles: 0,
    cashouts: 0,
    rollbacks: 0,
    rolledBackByPolicy: 0,
    lostAnswers: 0,
    retries: 0,
    duplicates: 0,
    refusals: {},
  };
  const problems: string[] = [];
  const skipped: string[] = [];
  const retry: RetryPolicy = { deadlineMs: opts.retryDeadlineMs, onRetry: () => counts.retries++ };
  const operator = new OperatorSide({ baseUrl: opts.gatewayUrl, ...opts.operator, retry });
  const admin = new AdminSide({ ...opts.admin, retry });

  // Our team's part.
  const me = await operator.me();
  const environment = me.environment === 'production' ? 'production' : 'sandbox';
  const partnerSecret = `sim_ps_${randomBytes(16).toString('hex')}`;
  const provider = await admin.call(
    'POST',
    '/admin/providers',
    { name: `Simulated Betsy ${new Date().toISOString().slice(0, 19)} ${Math.random().toString(36).slice(2, 6)}`, kind: 'sportsbook', protocol: 'betsy' },
    201,
  );
  const C = `/admin/providers/${provider.id}/connector/${environment}`;
  await admin.call('PUT', C, { settings: { frameUrl: FRAME_URL } }, 200);
  await admin.call('POST', `${C}/secrets`, { name: 'partnerSecret', value: partnerSecret }, 201);
  const game = await admin.call('PUT', `/admin/providers/${provider.id}/games/sportsbook`, { name: 'Simulated Sportsbook', category: 'sports' }, 200);
  await admin.call('PUT', `/admin/providers/${provider.id}/operators/${me.operatorId}`, { enabled: true }, 200);
  const connector = await admin.call('GET', `/admin/providers/${provider.id}/connector`, undefined, 200);
  const endpointUrl = `${opts.gatewayUrl.replace(/\/+$/, '')}${new URL(connector.environments.find((e: { environment: string }) => e.environment === environment).endpointUrl).pathname}`;
  const wallet = new BetsyWalletClient({ baseUrl: endpointUrl, partnerSecret, timeoutMs: opts.timeoutMs });
  log(`registered Betsy provider ${provider.id}; its PARTNER_API_URL ${endpointUrl}`);

  const books = new Map<string, Book>();
  const refusal = (code: number | undefined) => {
    const k = String(code ?? 'none');
    counts.refusals[k] = (counts.refusals[k] ?? 0) + 1;
  };
  /** Betsy counts as failed: no answer, an HTTP status but 200 and 400, or its system error. */
  const failed = (r: BetsyReply) => !r.ok || (r.http !== 200 && r.http !== 400) || (r.http === 400 && r.answer.code === 100);
  /** A settle, unsettle or rollback: sent again with the same data until it is answered. */
  const untilAnswered = async (body: Record<string, unknown>): Promise<{ http: number; answer: BetsyWireAnswer }> => {
    const deadline = Date.now() + opts.retryDeadlineMs;
    for (let attempt = 0; ; attempt++) {
      const r = await wallet.send('PUT', 'bet', body);
      if (!failed(r) && r.ok) return { http: r.http, answer: r.answer };
      if (Date.now() > deadline)
        throw new Error(`PUT /payment/bet ${JSON.stringify(body).slice(0, 200)}: never answered (${r.ok ? `${r.http} ${r.answer.code}` : r.failure})`);
      counts.retries++;
      await sleep(Math.min(2000, 100 * 2 ** Math.min(attempt, 5)));
    }
  };

  const play = async (n: number) => {
    const rnd = seeded(n + 1);
    const player = await operator.fundedPlayer(`betsy-${n}`, opts.funds);
    const book = new Book(opts.funds);
    books.set(player, book);
    const openedAt = Date.now();
    const launched = await operator.openSession(player, game.id);
    // A session's end moves on with each bet (its idle window, at most the session's length).
    const idleMs = new Date(launched.expiresAt).getTime() - openedAt;
    // Our gameUrl sends the player to the frame's page with our session token (the frame's SDK takes it).
    const to = await fetch(launched.gameUrl, { redirect: 'manual' });
    const token = new URL(to.headers.get('location') ?? FRAME_URL).searchParams.get('token');
    if (!token) throw new Error(`session ${launched.sessionId}: the launch did not send the player to the frame with a token (${to.status})`);

    const checkBalance = async (what: string) => {
      const r = await wallet.send('POST', 'balance', { userId: player, currency: 'BRL', token, requestId: randomUUID() });
      const text = r.ok && r.http === 200 ? r.amountText : undefined;
      const amount = text !== undefined && /^-?\d+(\.\d{1,2})?$/.test(text) ? toCents(text) : undefined;
      if (amount !== book.balance) problems.push(`${what}: balance ${r.ok ? JSON.stringify(r.answer) : r.failure}, expected ${fromCents(book.balance)}`);
    };
    const legOf = (i: number, odds: string) => ({
      disciplineId: 'football',
      discipline: 'Football',
      tournament: 'Brasileirão Série A',
      eventId: `ev-${n}-${i}`,
      event: `Home ${n}.${i} x Away ${n}.${i}`,
      eventDate: '2026-11-29 19:00:00',
      marketId: '1x2',
      market: 'Match Winner',
      outcomeId: '1',
      outcome: `Home ${n}.${i}`,
      coefficient: Number(odds),
      stage: 1,
    });
    const betOf = (stake: string, legs = 1) => {
      const odds = Array.from({ length: legs }, () => `${1 + Math.floor(rnd() * 2)}.${String(10 + Math.floor(rnd() * 90))}`);
      const total = odds.reduce((acc, o) => payout(acc, o), '1.00');
      return {
        body: {
          token,
          transactionId: randomUUID(),
          currency: 'BRL',
          amount: Number(stake),
          userId: player,
          info: 'simulated bet',
          type: 1,
          coefficient: Number(total),
          ip: '203.0.113.10',
          subPartnerId: null,
          requestId: randomUUID(),
          bonusId: null,
          bonusTemplateId: null,
          bonusAmount: null,
          gameType: 'sportsbook',
          ticketType: legs === 1 ? 'single' : 'express',
          boosterCoefficient: 1,
          metadata: odds.map((o, i) => legOf(i, o)),
        },
        stake: toCents(stake),
        odds: total,
        payout: 0n,
      };
    };
    type Bet = ReturnType<typeof betOf>;
    const settleBody = (b: Bet, amount: bigint, resultType: string, extra: Record<string, unknown> = {}) => ({
      transactionId: b.body.transactionId,
      userId: player,
      currency: 'BRL',
      amount: Number(fromCents(amount)),
      type: 2,
      resultType,
      requestId: randomUUID(),
      ...extra,
    });

    /** A place bet as Betsy sends it: a failure (no answer, code 100) and it rolls the bet back, until answered. */
    const place = async (b: Bet, expect: 'OK' | number, what: string, timeoutMs?: number) => {
      const r = await wallet.send('POST', 'bet', b.body, timeoutMs);
      counts.bets++;
      if (failed(r)) {
        counts.lostAnswers++;
        counts.rolledBackByPolicy++;
        // Taken or not, the rollback leaves the book as it was: the stake back once, or a bet never received.
        const a = await untilAnswered({ ...b.body, type: 3, errorCode: 10, requestId: randomUUID() });
        counts.rollbacks++;
        if (a.http !== 200) problems.push(`rollback after ${what} (no answer): ${a.http} ${JSON.stringify(a.answer)}`);
        return false;
      }
      if (!r.ok) return false;
      if (r.http === 200) {
        if (expect !== 'OK') problems.push(`${what}: accepted, expected code ${expect}`);
        else if (r.answer.transactionId !== b.body.transactionId) problems.push(`${what}: answered ${JSON.stringify(r.answer)}`);
        book.stake(b.stake);
        return true;
      }
      refusal(r.answer.code);
      if (expect !== r.answer.code) problems.push(`${what}: code ${r.answer.code}, expected ${expect}`);
      return false;
    };
    /** A settle (its first or a resettle): the book moves by the payout's change. */
    const settle = async (b: Bet, amount: bigint, resultType = amount > 0n ? 'won' : 'lost', extra: Record<string, unknown> = {}) => {
      const a = await untilAnswered(settleBody(b, amount, resultType, extra));
      if (a.http !== 200) {
        refusal(a.answer.code);
        problems.push(`settle ${resultType} ${fromCents(amount)}: ${JSON.stringify(a.answer)}`);
        return;
      }
      book.repay(b.payout, amount);
      b.payout = amount;
    };

    // The frame opens: the user's profile, then the balance.
    const profile = await wallet.send('POST', 'profile', { token, requestId: randomUUID() });
    if (!profile.ok || profile.http !== 200 || profile.answer.userId !== player) problems.push(`profile: ${JSON.stringify(profile)}`);
    await checkBalance('the first balance');

    // Singles and multiples, settled won or lost.
    for (let i = 0; i < opts.rounds; i++) {
      const b = betOf(`${1 + Math.floor(rnd() * 5)}.${String(Math.floor(rnd() * 100)).padStart(2, '0')}`, 1 + Math.floor(rnd() * 3));
      if (!(await place(b, 'OK', `bet ${i}`))) continue;
      counts.settles++;
      await settle(b, rnd() < 0.4 ? toCents(payout(fromCents(b.stake), b.odds)) : 0n);
    }
    await checkBalance('after the rounds');
    // A refund (the event cancelled), and a cash-out with the user's token.
    const refunded = betOf('3.00');
    if (await place(refunded, 'OK', 'a bet refunded')) {
      counts.settles++;
      await settle(refunded, refunded.stake, 'refund');
    }
    const cashed = betOf('4.00', 2);
    const cashedOut = await place(cashed, 'OK', 'a bet cashed out');
    if (cashedOut) {
      counts.cashouts++;
      await settle(cashed, toCents('5.10'), 'cashout', { token });
    }
    // Twenty copies of a bet at once, then twenty of its settle: one debit, one credit.
    const twenty = betOf('2.50');
    const copies = await Promise.all(Array.from({ length: 20 }, () => wallet.send('POST', 'bet', twenty.body)));
    counts.bets += 20;
    counts.duplicates += 19;
    const times = new Set(copies.map((c) => (c.ok ? `${c.http} ${c.answer.transactionTime}` : c.failure)));
    if (times.size !== 1 || !copies[0]!.ok || copies[0]!.http !== 200) problems.push(`twenty copies of a bet: ${[...times].join(', ')}`);
    else {
      book.stake(twenty.stake);
      const settles = await Promise.all(Array.from({ length: 20 }, () => wallet.send('PUT', 'bet', settleBody(twenty, toCents('6.00'), 'won'))));
      counts.settles += 20;
      counts.duplicates += 19;
      if (settles.some((s) => !s.ok || s.http !== 200))
        problems.push(`twenty copies of a settle: ${settles.map((s) => (s.ok ? s.http : s.failure)).join(',')}`);
      book.repay(0n, toCents('6.00'));
      twenty.payout = toCents('6.00');
    }
    await checkBalance('after twenty copies');
    // A resettle up, a settle sent again (nothing moves), a resettle down, an unsettle and a new settle.
    const re = betOf('5.00');
    if (await place(re, 'OK', 'a bet resettled')) {
      counts.settles++;
      await settle(re, toCents('10.00'));
      counts.resettles++;
      await settle(re, toCents('12.50'));
      counts.duplicates++;
      await settle(re, toCents('12.50'));
      counts.resettles++;
      await settle(re, 0n, 'lost');
      const u = await untilAnswered({ transactionId: re.body.transactionId, userId: player, currency: 'BRL', amount: 0, type: 1, requestId: randomUUID() });
      counts.unsettles++;
      if (u.http !== 200) problems.push(`unsettle: ${JSON.stringify(u.answer)}`);
      book.repay(re.payout, 0n);
      re.payout = 0n;
      await settle(re, toCents('7.00'));
    }
    await checkBalance('after the resettlements');
    // A bet whose answer is lost: Betsy rolls it back; the money is as before, whichever came first.
    await place(betOf('4.00'), 'OK', 'a bet whose answer is lost', 1);
    await checkBalance('after a bet whose answer was lost');
    // A rollback reaching us before its bet: answered, nothing moves; the bet then refused (code 8).
    const early = betOf('1.25');
    const rb = await untilAnswered({ ...early.body, type: 3, errorCode: 52, requestId: randomUUID() });
    counts.rollbacks++;
    if (rb.http !== 200) problems.push(`a rollback before its bet: ${JSON.stringify(rb.answer)}`);
    await place(early, 8, 'the bet arriving after its rollback');
    // A rollback of an accepted bet (the control stage: odds changed), and of a settled bet: the stake
    // back and the payout taken; then the winnings spent and a resettle down into the player's debt.
    const control = betOf('2.00');
    if (await place(control, 'OK', 'a bet rolled back at the control stage')) {
      await untilAnswered({ ...control.body, type: 3, errorCode: 8, requestId: randomUUID() });
      counts.rollbacks++;
      book.refund(control.stake);
    }
    const taken = betOf('2.00');
    if (await place(taken, 'OK', 'a bet settled, then rolled back')) {
      counts.settles++;
      await settle(taken, toCents('5.00'));
      await untilAnswered({ ...taken.body, type: 3, errorCode: 50, requestId: randomUUID() });
      counts.rollbacks++;
      book.repay(taken.payout, taken.stake);
      taken.payout = taken.stake;
      // Rolled back, its result is final: a settle of another payout is code 20 and moves nothing.
      const late = await untilAnswered(settleBody(taken, toCents('9.00'), 'won'));
      if (late.http === 400 && late.answer.code === 20) refusal(20);
      else problems.push(`a settle of a bet rolled back after its settle: ${late.http} ${JSON.stringify(late.answer)}, expected code 20`);
    }
    const big = betOf('1.00');
    if (await place(big, 'OK', 'a bet won big')) {
      counts.settles++;
      await settle(big, toCents('30.00'));
      const spent = betOf(fromCents(book.balance));
      if (book.balance > 0n && (await place(spent, 'OK', 'the whole balance staked'))) {
        counts.resettles++;
        await settle(big, 0n, 'lost');
        if (book.owed === 0n) problems.push('the resettle down left no debt: the scenario did not test it');
        counts.settles++;
        await settle(spent, spent.stake * 2n);
      }
    }
    await checkBalance('after the rollbacks and the debt');
    // One over the balance: refused, nothing moves.
    await place(betOf(fromCents(book.balance + 1n)), 7, 'a bet over the balance');
    // A settle after the session ended: when the session ends soon enough to wait for it.
    const pending = betOf('1.00');
    if (await place(pending, 'OK', 'a bet before the session ends')) {
      const ends = Date.now() + idleMs;
      if (ends - Date.now() + 1000 <= opts.maxExpiryWaitMs) {
        await sleep(Math.max(0, ends - Date.now() + 1000));
        await place(betOf('1.00'), 4, 'a bet after the session');
        // The cash-out sent again (Betsy's retry) after the session ended: answered as the first time, nothing moves.
        if (cashedOut) {
          counts.duplicates++;
          const again = await untilAnswered(settleBody(cashed, toCents('5.10'), 'cashout', { token }));
          if (again.http !== 200) problems.push(`the cash-out sent again after the session: ${again.http} ${JSON.stringify(again.answer)}`);
        }
      } else skipped.push(`session ${launched.sessionId}: the settle after the session ended (it ends at ${new Date(ends).toISOString()})`);
      counts.settles++;
      await settle(pending, toCents('2.00'));
    }
    await checkBalance('at the end');
  };
  await playSessions(opts.sessions, opts.concurrency, play);

  const checks = await closingChecks(operator, admin, new Map([...books].map(([player, book]) => [player, book.balance])), problems);
  return {
    protocol: 'betsy',
    providerId: provider.id,
    sessions: opts.sessions,
    players: books.size,
    counts,
    ...checks,
    skipped,
  };
}
