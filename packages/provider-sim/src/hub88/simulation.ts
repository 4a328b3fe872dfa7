// `npm run provider-sim -- --protocol hub88`: plays Hub88 against the operator's connector
// (docs/connectors-hub88.md) the way Hub88's documents say it behaves:
// - a bet whose answer is a network failure, or any status but RS_ERROR_NOT_ENOUGH_MONEY and
//   RS_ERROR_LIMIT_REACHED, is rolled back; a rollback is sent again until it is answered;
// - a win with no answer is sent again (the same transaction_uuid) until it is answered;
// - a repeated transaction_uuid is answered as the first time (its balance then), and the same
//   uuid with other data is RS_ERROR_DUPLICATE_TRANSACTION;
// - the token is not checked on wins and rollbacks (they may come after the session);
// - a free bet (is_free) takes nothing and its win is paid; a supplier promotion (is_supplier_promo)
//   is a bet of 0, then its win, which Hub88 may send without the bet (issue #66). Each session also
//   plays both for a player who never deposited; under Brazil's rules (br-spa) the free bet and that
//   player's promotion win are refused (an advantage before a bet), and nothing moves.
// Our team's part is done on the admin API first: the provider registered with protocol hub88,
// the connector's settings, Hub88's public key uploaded, a key pair of ours made (its public key
// trusted by the simulated Games API), the game list synced, the games offered to the operator.
// At the end each player's wallet must be what the simulator counted, and the ledger must verify.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { hub88AmountToMoney, moneyToHub88Amount, type Hub88Answer, type Hub88Status, type Hub88WalletCall } from '@bo/contracts';
import { AdminSide } from '../admin-side.ts';
import { closingChecks, playSessions } from '../connector-run.ts';
import { fromCents, toCents } from '../money.ts';
import { OperatorSide } from '../operator-side.ts';
import type { RetryPolicy } from '../retry.ts';
import { startHub88GamesServer, type Hub88GamesServer } from './games-server.ts';
import { Hub88WalletClient } from './wallet-client.ts';

export interface Hub88SimulationOptions {
  gatewayUrl: string;
  operator: { key: string; secret: string };
  admin: { url: string; token: string };
  /** Where the simulated Games API listens, and its URL as the wallet reaches it. */
  gamesServer?: { host?: string; port?: number; publicUrl?: string };
  sessions: number;
  concurrency: number;
  rounds: number;
  funds: string;
  /** How long a call is sent again until it is answered (ms). */
  retryDeadlineMs: number;
  timeoutMs: number;
  maxExpiryWaitMs: number;
  log?: (line: string) => void;
  /** Each Wallet API call answered, as Hub88's own record of what it was told (the restore drill compares it with a restored wallet). */
  onAnswer?: (call: Hub88WalletCall, body: Record<string, unknown>, answer: Hub88Answer) => void;
}

export interface Hub88SimulationSummary {
  protocol: 'hub88';
  providerId: string;
  sessions: number;
  players: number;
  counts: {
    bets: number;
    wins: number;
    rollbacks: number;
    /** Answers to a transaction_uuid sent again, which must be its first answer. */
    replays: number;
    /** Bets rolled back by Hub88's policy (no answer, or a status it rolls back on). */
    rolledBackByPolicy: number;
    /** Answers dropped on purpose, as when Hub88's call times out. */
    lostAnswers: number;
    /** Attempts sent again after a network failure. */
    retries: number;
    /** Final statuses other than RS_OK, by status. */
    refusals: Record<string, number>;
    /** Issue #66: players who never deposited (a free bet and supplier promotions each). */
    newcomers: number;
    /** Free bets (is_free) and their wins paid. */
    freeBets: number;
    freeBetWins: number;
    /** Supplier promotions' zero bets, and their wins paid (with or without the zero bet). */
    promoZeroBets: number;
    promoWins: number;
  };
  /** Our calls to the simulated Games API refused for their signature (must be 0). */
  gamesApiRefused: number;
  balanceMismatches: string[];
  ledger: { verified: boolean; ok?: boolean; mismatches?: number };
  problems: string[];
  skipped: string[];
}

const GAMES = [
  { game_code: 'sim_hub88_slot', name: 'Simulated Hub88 Slot', category: 'Video Slots', enabled: true },
  { game_code: 'sim_hub88_live', name: 'Simulated Hub88 Live', category: 'Live Casino', enabled: true },
];
/** Statuses Hub88 does not roll a bet back on: the player's money or limits. */
const NO_ROLLBACK: ReadonlySet<string> = new Set<Hub88Status>(['RS_ERROR_NOT_ENOUGH_MONEY', 'RS_ERROR_LIMIT_REACHED']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

export async function runHub88Simulation(opts: Hub88SimulationOptions): Promise<Hub88SimulationSummary> {
  const log = opts.log ?? (() => undefined);
  const counts: Hub88SimulationSummary['counts'] = {
    bets: 0,
    wins: 0,
    rollbacks: 0,
    replays: 0,
    rolledBackByPolicy: 0,
    lostAnswers: 0,
    retries: 0,
    refusals: {},
    newcomers: 0,
    freeBets: 0,
    freeBetWins: 0,
    promoZeroBets: 0,
    promoWins: 0,
  };
  const problems: string[] = [];
  const skipped: string[] = [];
  const retry: RetryPolicy = { deadlineMs: opts.retryDeadlineMs, onRetry: () => counts.retries++ };
  const operator = new OperatorSide({ baseUrl: opts.gatewayUrl, ...opts.operator, retry });
  const admin = new AdminSide({ ...opts.admin, retry });
  const games: Hub88GamesServer = await startHub88GamesServer({ ...opts.gamesServer, games: GAMES });
  try {
    // Our team's part.
    const me = await operator.me();
    const environment = me.environment === 'production' ? 'production' : 'sandbox';
    // Brazil's rules refuse an advantage before a bet: a free bet, and a promotion's prize to a player with no paid bet.
    const brSpa = me.profile === 'br-spa';
    const hub88Keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const provider = await admin.call(
      'POST',
      '/admin/providers',
      { name: `Simulated Hub88 ${new Date().toISOString().slice(0, 19)} ${Math.random().toString(36).slice(2, 6)}`, kind: 'casino', protocol: 'hub88' },
      201,
    );
    const C = `/admin/providers/${provider.id}/connector/${environment}`;
    await admin.call('PUT', C, { settings: { operatorId: 1, apiBaseUrl: games.url } }, 200);
    await admin.call('POST', `${C}/their-keys`, { publicKey: hub88Keys.publicKey.export({ type: 'spki', format: 'pem' }) }, 201);
    games.trust((await admin.call('POST', `${C}/our-keys`, {}, 201)).publicKey);
    const synced = await admin.call('POST', `${C}/sync-games`, undefined, 200);
    if (synced.added !== GAMES.length) problems.push(`game sync: ${JSON.stringify(synced)}`);
    await admin.call('PUT', `/admin/providers/${provider.id}/operators/${me.operatorId}`, { enabled: true }, 200);
    const catalogue = (await admin.call('GET', `/admin/providers/${provider.id}/games`, undefined, 200)).data as Array<{ id: string; gameCode: string }>;
    const connector = await admin.call('GET', `/admin/providers/${provider.id}/connector`, undefined, 200);
    const endpointUrl = `${opts.gatewayUrl.replace(/\/+$/, '')}${new URL(connector.environments.find((e: { environment: string }) => e.environment === environment).endpointUrl).pathname}`;
    const wallet = new Hub88WalletClient({ baseUrl: endpointUrl, privateKey: hub88Keys.privateKey, timeoutMs: opts.timeoutMs });
    log(`registered Hub88 provider ${provider.id}; its wallet endpoint ${endpointUrl}; Games API at ${games.url}`);

    const expected = new Map<string, bigint>();
    /** The first answer's balance of each transaction_uuid: a repeat must answer it. */
    const firsts = new Map<string, number | undefined>();

    /** One call until it is answered (a network failure is sent again with the same body). */
    const answered = async (call: Hub88WalletCall, body: Record<string, unknown>): Promise<Hub88Answer> => {
      const deadline = Date.now() + opts.retryDeadlineMs;
      for (let attempt = 0; ; attempt++) {
        const r = await wallet.send(call, body);
        if (r.ok) {
          opts.onAnswer?.(call, body, r.answer);
          return r.answer;
        }
        if (Date.now() > deadline) throw new Error(`${call} ${String(body.transaction_uuid ?? body.request_uuid)}: no answer (${r.failure})`);
        counts.retries++;
        await sleep(Math.min(2000, 100 * 2 ** Math.min(attempt, 5)));
      }
    };
    const check = (what: string, player: string, a: Hub88Answer, status: Hub88Status, uuid?: string) => {
      if (a.status !== status) problems.push(`${what}: ${a.status}, expected ${status}`);
      if (a.status !== 'RS_OK') counts.refusals[a.status] = (counts.refusals[a.status] ?? 0) + 1;
      if (uuid !== undefined && firsts.has(uuid)) {
        counts.replays++;
        if (a.balance !== firsts.get(uuid)) problems.push(`${what}: a repeat answered ${a.balance}, the first answer was ${firsts.get(uuid)}`);
        return;
      }
      if (uuid !== undefined && a.status === 'RS_OK') firsts.set(uuid, a.balance);
      if ((a.status === 'RS_OK' || a.status === 'RS_ERROR_NOT_ENOUGH_MONEY') && a.balance !== undefined) {
        const want = moneyToHub88Amount(fromCents(expected.get(player)!));
        if (a.balance !== want) problems.push(`${what}: balance ${hub88AmountToMoney(a.balance)}, expected ${fromCents(expected.get(player)!)}`);
      }
    };
    const move = (player: string, money: string) => expected.set(player, expected.get(player)! + toCents(money));

    const play = async (n: number) => {
      const rnd = seeded(n + 1);
      const game = catalogue[n % catalogue.length]!;
      const player = await operator.fundedPlayer(`hub88-${n}`, opts.funds);
      expected.set(player, toCents(opts.funds));
      const launched = await operator.openSession(player, game.id);
      const launch = [...games.launches.values()].find((l) => l.user === player);
      if (!launch) throw new Error(`session ${launched.sessionId}: Hub88 was never asked for its game URL`);
      const token = launch.token;
      const bet = (amount: string, over: Record<string, unknown> = {}) => ({
        user: player,
        transaction_uuid: randomUUID(),
        supplier_transaction_id: randomUUID(),
        token,
        round: randomUUID(),
        round_closed: false,
        request_uuid: randomUUID(),
        is_free: false,
        is_aggregated: false,
        game_code: game.gameCode,
        currency: 'BRL',
        bet: 'sim',
        amount: moneyToHub88Amount(amount),
        ...over,
      });
      const rollbackOf = (b: { transaction_uuid: string; round: string }) => ({
        user: player,
        transaction_uuid: randomUUID(),
        round: b.round,
        round_closed: true,
        request_uuid: randomUUID(),
        reference_transaction_uuid: b.transaction_uuid,
        game_code: game.gameCode,
      });
      /**
       * Hub88's rollback of a bet it could not confirm: sent until answered, RS_OK. `counted`: the
       * book took the bet's debit (its RS_OK was read), so the refund goes back in; a bet whose answer
       * never came is not in the book, and the rollback leaves the balance as the book has it.
       */
      const rollBack = async (b: ReturnType<typeof bet>, counted: boolean, why: string) => {
        counts.rolledBackByPolicy++;
        if (counted) move(player, hub88AmountToMoney(b.amount)!);
        const rb = rollbackOf(b);
        const a = await answered('rollback', rb);
        counts.rollbacks++;
        check(`rollback after ${why}`, player, a, 'RS_OK', rb.transaction_uuid);
      };
      /** A bet as Hub88 places it: no answer, or a status it rolls back on, and it is rolled back. */
      const placeBet = async (b: ReturnType<typeof bet>, expect: Hub88Status, what: string, timeoutMs?: number) => {
        const r = await wallet.send('bet', b, timeoutMs);
        if (!r.ok) {
          counts.lostAnswers++;
          await rollBack(b, false, `${what} (no answer)`);
          return undefined;
        }
        counts.bets++;
        if (r.answer.status === 'RS_OK' && !firsts.has(b.transaction_uuid)) move(player, `-${hub88AmountToMoney(b.amount)}`);
        check(what, player, r.answer, expect, b.transaction_uuid);
        if (r.answer.status !== 'RS_OK' && !NO_ROLLBACK.has(r.answer.status)) await rollBack(b, false, `${what} (${r.answer.status})`);
        return r.answer;
      };
      const pay = async (b: { transaction_uuid: string; round: string }, amount: string, over: Record<string, unknown> = {}) => {
        const w = { ...bet(amount), reference_transaction_uuid: b.transaction_uuid, round: b.round, round_closed: true, ...over };
        const a = await answered('win', w);
        counts.wins++;
        if (a.status === 'RS_OK') move(player, amount);
        check(`win ${amount}`, player, a, 'RS_OK', w.transaction_uuid);
        return w;
      };

      // Rounds of a bet and its win (a lost round closes with a win of 0.00).
      for (let i = 0; i < opts.rounds; i++) {
        const stake = `${1 + Math.floor(rnd() * 5)}.${String(Math.floor(rnd() * 100)).padStart(2, '0')}`;
        const b = bet(stake);
        if ((await placeBet(b, 'RS_OK', `round ${i} bet`))?.status !== 'RS_OK') continue;
        await pay(b, rnd() < 0.4 ? fromCents(toCents(stake) * BigInt(1 + Math.floor(rnd() * 4))) : '0.00');
      }
      // The same bet sent again: its first answer, nothing more debited.
      const twice = bet('2.00');
      await placeBet(twice, 'RS_OK', 'a bet');
      await placeBet({ ...twice, request_uuid: randomUUID() }, 'RS_OK', 'the same bet again');
      await pay(twice, '0.00');
      // Three copies of a bet at once: one debit, each answered as the first.
      const thrice = bet('1.50');
      move(player, '-1.50');
      const copies = await Promise.all([0, 1, 2].map(() => wallet.send('bet', thrice)));
      counts.bets += 3;
      counts.replays += 2;
      const balances = new Set(copies.map((c) => (c.ok ? `${c.answer.status} ${c.answer.balance}` : c.failure)));
      const want = `RS_OK ${moneyToHub88Amount(fromCents(expected.get(player)!))}`;
      if (balances.size !== 1 || !balances.has(want)) problems.push(`three copies of a bet: ${[...balances].join(', ')}, expected ${want} each`);
      firsts.set(thrice.transaction_uuid, moneyToHub88Amount(fromCents(expected.get(player)!)));
      await pay(thrice, '3.00');
      // A win whose answer is lost: sent again with the same transaction_uuid, one credit.
      const b2 = bet('1.00');
      await placeBet(b2, 'RS_OK', 'a bet');
      const w2 = { ...bet('2.00'), reference_transaction_uuid: b2.transaction_uuid, round: b2.round, round_closed: true };
      const first = await wallet.send('win', w2, 1);
      if (first.ok) counts.wins++;
      else counts.lostAnswers++;
      const again = await answered('win', { ...w2, request_uuid: randomUUID() });
      counts.wins++;
      move(player, '2.00');
      check('a win sent again after its answer was lost', player, again, 'RS_OK');
      // A bet whose answer is lost: Hub88 rolls it back; the money is as before, whichever came first.
      await placeBet(bet('4.00'), 'RS_OK', 'a bet whose answer is lost', 1);
      // A rollback reaching us before its bet: RS_OK; the bet then refused as a duplicate, and rolled back again.
      const late = bet('1.25');
      const early = rollbackOf(late);
      check('a rollback before its bet', player, await answered('rollback', early), 'RS_OK', early.transaction_uuid);
      counts.rollbacks++;
      await placeBet(late, 'RS_ERROR_DUPLICATE_TRANSACTION', 'the bet arriving after its rollback');
      // A bet of a game we do not have: refused (RS_ERROR_INVALID_GAME), rolled back, nothing moves.
      await placeBet(bet('1.00', { game_code: 'no_such_game' }), 'RS_ERROR_INVALID_GAME', 'a bet of an unknown game');
      // More than the balance: RS_ERROR_NOT_ENOUGH_MONEY with the balance, and not rolled back.
      await placeBet(bet(fromCents(expected.get(player)! + 1n)), 'RS_ERROR_NOT_ENOUGH_MONEY', 'a bet over the balance');
      // The same transaction_uuid with another amount: a duplicate; Hub88 rolls back the bet of that uuid.
      const open = bet('2.50');
      await placeBet(open, 'RS_OK', 'a bet');
      const dup = await answered('bet', { ...open, amount: moneyToHub88Amount('3.50'), request_uuid: randomUUID() });
      counts.bets++;
      check('the same uuid, another amount', player, dup, 'RS_ERROR_DUPLICATE_TRANSACTION');
      await rollBack(open, true, 'a duplicate');
      // A win with a token that is not the session's: the token is not checked on wins.
      const b3 = bet('1.00');
      await placeBet(b3, 'RS_OK', 'a bet');
      await pay(b3, '1.50', { token: 'not-this-session' });
      // A win after the session ended: when the session ends soon enough to wait for it.
      const b4 = bet('1.00');
      await placeBet(b4, 'RS_OK', 'a bet before the session ends');
      const ends = new Date(launched.expiresAt).getTime();
      if (ends - Date.now() + 1000 <= opts.maxExpiryWaitMs) {
        await sleep(Math.max(0, ends - Date.now() + 1000));
        await placeBet(bet('1.00'), 'RS_ERROR_TOKEN_EXPIRED', 'a bet after the session');
      } else skipped.push(`session ${launched.sessionId}: the win after the session ended (it ends at ${new Date(ends).toISOString()})`);
      await pay(b4, '2.00');
      await newcomer(n, game);
    };

    /**
     * Issue #66: a player who never deposited (no wallet account yet): a free bet of 1.00 and its win
     * of 2.00, a supplier promotion's zero bet and its win of 1.50 (sent again: its first answer), and a
     * promotion's win of 0.75 whose zero bet never arrived. Under br-spa the free bet is refused (Hub88
     * rolls it back) and the promotion wins too (RS_ERROR_UNKNOWN; sent once here, as Hub88 would send
     * them again and again): nothing moves.
     */
    const newcomer = async (n: number, game: { id: string; gameCode: string }) => {
      const player = await operator.fundedPlayer(`hub88-new-${n}`, '0.00');
      expected.set(player, 0n);
      counts.newcomers++;
      await operator.openSession(player, game.id);
      const launch = [...games.launches.values()].find((l) => l.user === player);
      if (!launch) throw new Error(`player ${player}: Hub88 was never asked for its game URL`);
      const tx = (amount: string, over: Record<string, unknown> = {}) => ({
        user: player,
        transaction_uuid: randomUUID(),
        token: launch.token,
        round: randomUUID(),
        round_closed: false,
        request_uuid: randomUUID(),
        game_code: game.gameCode,
        currency: 'BRL',
        amount: moneyToHub88Amount(amount),
        ...over,
      });
      const refused = brSpa ? 'RS_ERROR_UNKNOWN' : 'RS_OK';
      // A free bet: nothing taken; its win paid (br-spa: refused, and Hub88 rolls it back).
      const free = tx('1.00', { is_free: true, reward_uuid: randomUUID() });
      counts.bets++;
      counts.freeBets++;
      check('a free bet of a player who never deposited', player, await answered('bet', free), refused, free.transaction_uuid);
      if (brSpa) {
        counts.rolledBackByPolicy++;
        const rb = {
          user: player,
          transaction_uuid: randomUUID(),
          round: free.round,
          request_uuid: randomUUID(),
          reference_transaction_uuid: free.transaction_uuid,
        };
        counts.rollbacks++;
        check('the rollback of a refused free bet', player, await answered('rollback', rb), 'RS_OK', rb.transaction_uuid);
      } else {
        const w = { ...tx('2.00'), reference_transaction_uuid: free.transaction_uuid, round: free.round, round_closed: true };
        const a = await answered('win', w);
        counts.wins++;
        if (a.status === 'RS_OK') {
          counts.freeBetWins++;
          move(player, '2.00');
        }
        check("a free bet's win to a player who never deposited", player, a, 'RS_OK', w.transaction_uuid);
      }
      // A supplier promotion: its zero bet moves nothing; its win is paid, and sent again answers the first answer.
      const zero = tx('0.00', { is_supplier_promo: true });
      counts.bets++;
      counts.promoZeroBets++;
      check("a supplier promotion's zero bet", player, await answered('bet', zero), 'RS_OK');
      const promoWin = async (what: string, w: Record<string, unknown> & { transaction_uuid: string; amount: number }) => {
        const a = await answered('win', w);
        counts.wins++;
        if (a.status === 'RS_OK' && !firsts.has(w.transaction_uuid)) {
          counts.promoWins++;
          move(player, hub88AmountToMoney(w.amount)!);
        }
        check(what, player, a, refused, w.transaction_uuid);
      };
      const promo = { ...tx('1.50', { is_supplier_promo: true }), reference_transaction_uuid: zero.transaction_uuid, round: zero.round, round_closed: true };
      await promoWin("a supplier promotion's win", promo);
      if (!brSpa) await promoWin("a supplier promotion's win sent again", { ...promo, request_uuid: randomUUID() });
      const orphan = { ...tx('0.75', { is_supplier_promo: true }), reference_transaction_uuid: randomUUID(), round_closed: true };
      await promoWin("a supplier promotion's win whose zero bet never arrived", orphan);
    };
    await playSessions(opts.sessions, opts.concurrency, play);

    if (games.refused > 0) problems.push(`${games.refused} of our Games API calls were refused for their signature`);
    const checks = await closingChecks(operator, admin, expected, problems);
    return {
      protocol: 'hub88',
      providerId: provider.id,
      sessions: opts.sessions,
      players: expected.size,
      counts,
      gamesApiRefused: games.refused,
      ...checks,
      skipped,
    };
  } finally {
    await games.close();
  }
}
