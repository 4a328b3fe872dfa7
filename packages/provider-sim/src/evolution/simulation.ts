// `npm run provider-sim -- --protocol evolution`: plays Evolution against the operator's connector
// (docs/connectors-evolution.md) the way its protocol behaves, as valkyrie-fnd/valkyrie states it:
// - a debit whose answer is a network failure or UNKNOWN_ERROR is cancelled (the cancel names the
//   debit's own id and refId); a TEMPORARY_ERROR (`retransmission: true`) is sent again;
// - a credit or a cancel with no answer, or a TEMPORARY_ERROR, is sent again until it is answered;
// - a retransmission is answered as the first time (its balance then); a second credit or cancel of
//   a settled bet is BET_ALREADY_SETTLED; a cancel of a debit never received is BET_DOES_NOT_EXIST;
// - every money answer carries the player's balance, which must be what the simulator counted.
// Our team's part is done on the admin API first: the provider registered with protocol evolution,
// the connector's casino key and host (the simulated UA API), its API token and casino token, the
// tables in the catalogue, offered to the operator. At the end each player's wallet must be what the
// simulator counted, and the ledger must verify.
import { randomBytes, randomUUID } from 'node:crypto';
import type { EvolutionStatus, EvolutionWalletCall, EvolutionWireAnswer } from '@bo/contracts';
import { AdminSide } from '../admin-side.ts';
import { closingChecks, playSessions } from '../connector-run.ts';
import { fromCents, toCents } from '../money.ts';
import { OperatorSide } from '../operator-side.ts';
import type { RetryPolicy } from '../retry.ts';
import { startEvolutionUaServer } from './ua-server.ts';
import { EvolutionWalletClient } from './wallet-client.ts';

export interface EvolutionSimulationOptions {
  gatewayUrl: string;
  operator: { key: string; secret: string };
  admin: { url: string; token: string };
  /** Where the simulated UA API listens, and its URL as the wallet reaches it. */
  uaServer?: { host?: string; port?: number; publicUrl?: string };
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

export interface EvolutionSimulationSummary {
  protocol: 'evolution';
  providerId: string;
  sessions: number;
  players: number;
  counts: {
    debits: number;
    credits: number;
    cancels: number;
    /** Answers to a call sent again with the same transaction, which must be its first answer. */
    replays: number;
    /** Debits cancelled by Evolution's policy (no answer, or UNKNOWN_ERROR). */
    cancelledByPolicy: number;
    /** Answers dropped on purpose, as when Evolution's call times out. */
    lostAnswers: number;
    /** Attempts sent again after a network failure or a TEMPORARY_ERROR. */
    retries: number;
    /** Final statuses other than OK, by status. */
    refusals: Record<string, number>;
  };
  /** Our launches refused by the simulated UA API for their casino key or token (must be 0). */
  launchesRefused: number;
  balanceMismatches: string[];
  ledger: { verified: boolean; ok?: boolean; mismatches?: number };
  problems: string[];
  skipped: string[];
}

const TABLES = [
  { code: 'simevoroulette01', name: 'Simulated Evolution Roulette', category: 'live' },
  { code: 'simevoblackjack1', name: 'Simulated Evolution Blackjack', category: 'live' },
];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hex = () => randomBytes(6).toString('hex');

/** A deterministic sequence per session (mulberry32): a run plays the same rounds every time. */
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

/** Our money as the JSON number Evolution sends ("12.30" → 12.3). */
const asNumber = (money: string) => Number(money);
/** Evolution's balance (a JSON number) in cents, exactly for two-decimal values. */
const centsOf = (balance: number | undefined) => (balance === undefined ? undefined : BigInt(Math.round(balance * 100)));

export async function runEvolutionSimulation(opts: EvolutionSimulationOptions): Promise<EvolutionSimulationSummary> {
  const log = opts.log ?? (() => undefined);
  const counts: EvolutionSimulationSummary['counts'] = {
    debits: 0,
    credits: 0,
    cancels: 0,
    replays: 0,
    cancelledByPolicy: 0,
    lostAnswers: 0,
    retries: 0,
    refusals: {},
  };
  const problems: string[] = [];
  const skipped: string[] = [];
  const retry: RetryPolicy = { deadlineMs: opts.retryDeadlineMs, onRetry: () => counts.retries++ };
  const operator = new OperatorSide({ baseUrl: opts.gatewayUrl, ...opts.operator, retry });
  const admin = new AdminSide({ ...opts.admin, retry });
  const ua = await startEvolutionUaServer(opts.uaServer ?? {});
  try {
    // Our team's part.
    const me = await operator.me();
    // Brazil's rules forbid free rounds' winnings (an advantage before a bet: Lei 14.790/2023, art. 29).
    const promoAnswer: EvolutionStatus = me.profile === 'br-spa' ? 'FINAL_ERROR_ACTION_FAILED' : 'OK';
    const environment = me.environment === 'production' ? 'production' : 'sandbox';
    const authToken = `sim_at_${randomBytes(16).toString('hex')}`;
    const provider = await admin.call(
      'POST',
      '/admin/providers',
      { name: `Simulated Evolution ${new Date().toISOString().slice(0, 19)} ${Math.random().toString(36).slice(2, 6)}`, kind: 'casino', protocol: 'evolution' },
      201,
    );
    const C = `/admin/providers/${provider.id}/connector/${environment}`;
    await admin.call('PUT', C, { settings: { casinoKey: ua.casinoKey, apiBaseUrl: ua.url } }, 200);
    await admin.call('POST', `${C}/secrets`, { name: 'authToken', value: authToken }, 201);
    await admin.call('POST', `${C}/secrets`, { name: 'casinoToken', value: ua.casinoToken }, 201);
    const catalogue: Array<{ id: string; gameCode: string }> = [];
    for (const table of TABLES) {
      const g = await admin.call('PUT', `/admin/providers/${provider.id}/games/${table.code}`, { name: table.name, category: table.category }, 200);
      catalogue.push({ id: g.id, gameCode: table.code });
    }
    await admin.call('PUT', `/admin/providers/${provider.id}/operators/${me.operatorId}`, { enabled: true }, 200);
    const connector = await admin.call('GET', `/admin/providers/${provider.id}/connector`, undefined, 200);
    const endpointUrl = `${opts.gatewayUrl.replace(/\/+$/, '')}${new URL(connector.environments.find((e: { environment: string }) => e.environment === environment).endpointUrl).pathname}`;
    const wallet = new EvolutionWalletClient({ baseUrl: endpointUrl, authToken, timeoutMs: opts.timeoutMs });
    log(`registered Evolution provider ${provider.id}; its wallet endpoint ${endpointUrl}; UA API at ${ua.url}`);

    const expected = new Map<string, bigint>();
    /** The first answer's balance of each call sent again, by its key: a retransmission must answer it. */
    const firsts = new Map<string, number | undefined>();

    /** One call until it has a final answer: a network failure or a TEMPORARY_ERROR is sent again with the same body. */
    const answered = async (call: EvolutionWalletCall, body: Record<string, unknown>): Promise<EvolutionWireAnswer> => {
      const deadline = Date.now() + opts.retryDeadlineMs;
      for (let attempt = 0; ; attempt++) {
        const r = await wallet.send(call, body);
        if (r.ok && r.answer.status !== 'TEMPORARY_ERROR') return r.answer;
        if (Date.now() > deadline) throw new Error(`${call} ${JSON.stringify(body).slice(0, 200)}: no final answer (${r.ok ? r.answer.status : r.failure})`);
        counts.retries++;
        await sleep(Math.min(2000, 100 * 2 ** Math.min(attempt, 5)));
      }
    };
    /** An answer against what it must be: its status, and its balance the book's (a retransmission: its first answer's). */
    const check = (what: string, player: string, a: EvolutionWireAnswer, status: EvolutionStatus, key?: string) => {
      if (a.status !== status) problems.push(`${what}: ${a.status}, expected ${status}`);
      if (a.status !== 'OK') counts.refusals[a.status] = (counts.refusals[a.status] ?? 0) + 1;
      if (key !== undefined && firsts.has(key)) {
        counts.replays++;
        if (a.balance !== firsts.get(key)) problems.push(`${what}: a retransmission answered ${a.balance}, the first answer was ${firsts.get(key)}`);
        return;
      }
      if (key !== undefined && a.status === 'OK') firsts.set(key, a.balance);
      if (a.balance !== undefined && centsOf(a.balance) !== expected.get(player)) {
        problems.push(`${what}: balance ${a.balance}, expected ${fromCents(expected.get(player)!)}`);
      }
    };
    const move = (player: string, money: string) => expected.set(player, expected.get(player)! + toCents(money));

    const play = async (n: number) => {
      const rnd = seeded(n + 1);
      const table = catalogue[n % catalogue.length]!;
      const player = await operator.fundedPlayer(`evolution-${n}`, opts.funds);
      expected.set(player, toCents(opts.funds));
      const launched = await operator.openSession(player, table.id);
      const launch = ua.launches.get(player);
      if (!launch) throw new Error(`session ${launched.sessionId}: Evolution's UA API was never asked`);
      const sid = launch.player.session.id;
      const debitOf = (amount: string, over: { round?: string; refId?: string; id?: string; table?: string } = {}) => ({
        sid,
        userId: player,
        currency: 'BRL',
        game: { id: over.round ?? hex(), type: 'roulette', details: { table: { id: over.table ?? table.gameCode, vid: over.table ?? table.gameCode } } },
        transaction: { id: over.id ?? hex(), refId: over.refId ?? hex(), amount: asNumber(amount) },
        uuid: randomUUID(),
      });
      type Tx = ReturnType<typeof debitOf>;
      const creditOf = (d: Tx, amount: string) => ({
        ...d,
        transaction: { id: hex(), refId: d.transaction.refId, amount: asNumber(amount) },
        uuid: randomUUID(),
      });
      const stake = (d: Tx) => fromCents(BigInt(Math.round(d.transaction.amount * 100)));

      /** Evolution's cancel of a debit it could not confirm: sent until answered. `counted`: the book took its debit. */
      const cancel = async (d: Tx, counted: boolean, why: string, status: EvolutionStatus = 'OK') => {
        if (counted) move(player, stake(d));
        const a = await answered('cancel', { ...d, uuid: randomUUID() });
        counts.cancels++;
        check(`cancel after ${why}`, player, a, status, `cancel:${d.transaction.id}`);
        return a;
      };
      /** A debit as Evolution places it: no answer or UNKNOWN_ERROR, and it is cancelled; TEMPORARY_ERROR, sent again. */
      const placeDebit = async (d: Tx, expect: EvolutionStatus, what: string, timeoutMs?: number) => {
        let r = await wallet.send('debit', d, timeoutMs);
        for (let again = 0; r.ok && r.answer.status === 'TEMPORARY_ERROR' && again < 5; again++) {
          counts.retries++;
          await sleep(200);
          r = await wallet.send('debit', d);
        }
        if (!r.ok || r.answer.status === 'UNKNOWN_ERROR' || r.answer.status === 'TEMPORARY_ERROR') {
          counts.lostAnswers++;
          counts.cancelledByPolicy++;
          // A cancel of a debit that was never taken answers BET_DOES_NOT_EXIST; of one taken, OK: both leave the book right.
          const a = await answered('cancel', { ...d, uuid: randomUUID() });
          counts.cancels++;
          if (a.status !== 'OK' && a.status !== 'BET_DOES_NOT_EXIST') problems.push(`cancel after ${what} (no answer): ${a.status}`);
          check(`cancel after ${what} (no answer)`, player, { ...a, status: 'OK' }, 'OK');
          return undefined;
        }
        counts.debits++;
        if (r.answer.status === 'OK' && !firsts.has(d.transaction.id)) move(player, `-${stake(d)}`);
        // Only an accepted debit has a first answer a retransmission must repeat (a refusal answers the balance now).
        check(what, player, r.answer, expect, expect === 'OK' ? d.transaction.id : undefined);
        return r.answer;
      };
      const credit = async (d: Tx, amount: string, expect: EvolutionStatus = 'OK') => {
        const c = creditOf(d, amount);
        const a = await answered('credit', c);
        counts.credits++;
        if (a.status === 'OK') move(player, amount);
        check(`credit ${amount}`, player, a, expect, `credit:${c.transaction.id}`);
        return c;
      };

      // Evolution checks the session, then reads the balance.
      const checked = await answered('check', { sid, userId: player, channel: { type: 'P' }, uuid: randomUUID() });
      if (checked.status !== 'OK' || checked.sid !== sid) problems.push(`check: ${JSON.stringify(checked)}`);
      check('balance', player, await answered('balance', { sid, userId: player, currency: 'BRL', game: null, uuid: randomUUID() }), 'OK');
      // Rounds of a debit and its credit (a lost bet is credited 0).
      for (let i = 0; i < opts.rounds; i++) {
        const amount = `${1 + Math.floor(rnd() * 5)}.${String(Math.floor(rnd() * 100)).padStart(2, '0')}`;
        const d = debitOf(amount);
        if ((await placeDebit(d, 'OK', `round ${i} debit`))?.status !== 'OK') continue;
        await credit(d, rnd() < 0.4 ? fromCents(toCents(amount) * BigInt(1 + Math.floor(rnd() * 4))) : '0.00');
      }
      // A debit retransmitted: its first answer, nothing more debited.
      const twice = debitOf('2.00');
      await placeDebit(twice, 'OK', 'a debit');
      await placeDebit({ ...twice, uuid: randomUUID() }, 'OK', 'the same debit again');
      await credit(twice, '0.00');
      // Three copies of a debit at once: one debit, each answered as the first.
      const thrice = debitOf('1.50');
      move(player, '-1.50');
      const copies = await Promise.all([0, 1, 2].map(() => wallet.send('debit', thrice)));
      counts.debits += 3;
      counts.replays += 2;
      const seen = new Set(copies.map((c) => (c.ok ? `${c.answer.status} ${centsOf(c.answer.balance)}` : c.failure)));
      const want = `OK ${expected.get(player)}`;
      if (seen.size !== 1 || !seen.has(want)) problems.push(`three copies of a debit: ${[...seen].join(', ')}, expected ${want} each`);
      firsts.set(thrice.transaction.id, Number(fromCents(expected.get(player)!)));
      await credit(thrice, '3.00');
      // A credit whose answer is lost: sent again with the same transaction, one credit.
      const d2 = debitOf('1.00');
      await placeDebit(d2, 'OK', 'a debit');
      const c2 = creditOf(d2, '2.00');
      const first = await wallet.send('credit', c2, 1);
      if (first.ok) counts.credits++;
      else counts.lostAnswers++;
      const again = await answered('credit', { ...c2, uuid: randomUUID() });
      counts.credits++;
      move(player, '2.00');
      check('a credit sent again after its answer was lost', player, again, 'OK');
      // A debit whose answer is lost: Evolution cancels it; the money is as before, whichever came first.
      await placeDebit(debitOf('4.00'), 'OK', 'a debit whose answer is lost', 1);
      // A cancel reaching us before its debit: BET_DOES_NOT_EXIST; the debit then refused (its cancel settled it).
      const late = debitOf('1.25');
      await cancel(late, false, 'nothing (before its debit)', 'BET_DOES_NOT_EXIST');
      await placeDebit(late, 'BET_ALREADY_SETTLED', 'the debit arriving after its cancel');
      // Two bets of one game round settled one by one: the first credited, the second cancelled.
      const round = hex();
      const a = debitOf('3.00', { round });
      const b = debitOf('2.00', { round });
      await placeDebit(a, 'OK', 'the first bet of a round');
      await placeDebit(b, 'OK', 'the second bet of the round');
      await credit(a, '6.00');
      await cancel(b, true, 'the first bet of its round was credited');
      // A second credit of a settled bet, and a cancel of it: BET_ALREADY_SETTLED, nothing moves.
      await credit(a, '6.00', 'BET_ALREADY_SETTLED');
      const settledCancel = await answered('cancel', { ...a, uuid: randomUUID() });
      counts.cancels++;
      check('a cancel of a credited bet', player, settledCancel, 'BET_ALREADY_SETTLED');
      // A debit of a table we do not have, and one over the balance: refused, nothing moves.
      await placeDebit(debitOf('1.00', { table: 'no_such_table' }), 'INVALID_PARAMETER', 'a debit of an unknown table');
      await placeDebit(debitOf(fromCents(expected.get(player)! + 1n)), 'INSUFFICIENT_FUNDS', 'a debit over the balance');
      // The same id with another amount: BET_ALREADY_EXIST; the first debit stands and is settled.
      const open = debitOf('2.50');
      await placeDebit(open, 'OK', 'a debit');
      await placeDebit({ ...open, transaction: { ...open.transaction, amount: 3.5 }, uuid: randomUUID() }, 'BET_ALREADY_EXIST', 'the same id, another amount');
      await credit(open, '5.00');
      // A promotional payout (issue #59): free rounds' winnings Evolution funds, credited once (FREE_BET_WIN);
      // sent again, the same answer. Under br-spa (`npm start`'s demo operator) it is refused, final, and moves nothing.
      const payout = {
        sid,
        userId: player,
        currency: 'BRL',
        game: null,
        promoTransaction: { type: 'FreeRoundPlayableSpent', id: `TD${hex()}`, amount: 1.5, voucherId: randomUUID(), remainingRounds: 0 },
        uuid: randomUUID(),
      };
      const promo = await answered('promo_payout', payout);
      if (promo.status === 'OK') move(player, '1.50');
      check('a promotional payout', player, promo, promoAnswer, `promo:${payout.promoTransaction.id}`);
      const promoAgain = await answered('promo_payout', { ...payout, uuid: randomUUID() });
      check('a promotional payout sent again', player, promoAgain, promoAnswer, `promo:${payout.promoTransaction.id}`);
      // A credit after the session ended: when the session ends soon enough to wait for it.
      const b4 = debitOf('1.00');
      await placeDebit(b4, 'OK', 'a debit before the session ends');
      const ends = new Date(launched.expiresAt).getTime();
      if (ends - Date.now() + 1000 <= opts.maxExpiryWaitMs) {
        await sleep(Math.max(0, ends - Date.now() + 1000));
        await placeDebit(debitOf('1.00'), 'INVALID_SID', 'a debit after the session');
      } else skipped.push(`session ${launched.sessionId}: the credit after the session ended (it ends at ${new Date(ends).toISOString()})`);
      await credit(b4, '2.00');
    };
    await playSessions(opts.sessions, opts.concurrency, play);

    if (ua.refused > 0) problems.push(`${ua.refused} of our launches were refused for their casino key or token`);
    const checks = await closingChecks(operator, admin, expected, problems);
    return {
      protocol: 'evolution',
      providerId: provider.id,
      sessions: opts.sessions,
      players: expected.size,
      counts,
      launchesRefused: ua.refused,
      ...checks,
      skipped,
    };
  } finally {
    await ua.close();
  }
}
