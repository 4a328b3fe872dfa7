// What the simulator knows it did: each provider transaction id's first answer (what it moved,
// the balance after), each player's balance as it must be (funds + everything moved), and the
// counts the summary prints. A second answer under an id must be the first, marked replayed, with
// one exception: copies sent together (duplicates at once) are answered in no set order, so the
// copy that applied (replayed: false) may be read after a replay of it, but only a copy sent before
// any answer under its id was read, and only one. An answer's balance must be the player's expected
// balance (each player's calls are sequential).
import { fromCents, toCents } from './money.ts';

export interface TransactionAnswer {
  transactionId: string;
  kind: 'bet' | 'win' | 'rollback' | 'correction' | 'free_bet' | 'promo_credit' | 'jackpot_win';
  playerId: string;
  roundId: string;
  currency: string;
  moved: string;
  balance: string;
  replayed: boolean;
  createdAt: string;
}

export interface Accepted {
  providerId: string;
  answer: TransactionAnswer;
}

export interface Counts {
  bets: number;
  wins: number;
  rollbacks: number;
  corrections: number;
  /** Issue #59 item 1: free bets, promotional credits and jackpot wins the provider funded. */
  freeBets: number;
  promoCredits: number;
  jackpotWins: number;
  /** Answers marked replayed (a retry or a duplicate of an id already done). */
  replays: number;
  /** Attempts sent again after no answer, a 5xx or a 429. */
  retries: number;
  /** Answers dropped on purpose, as a client that timed out would (the call is sent again or rolled back). */
  lostAnswers: number;
  /** Final refusals by error code (expected ones included). */
  refusals: Record<string, number>;
  /** 5xx answers by status and code (the chaos run wants them all 503 with Retry-After). */
  serverErrors: Record<string, number>;
}

const COUNTED = {
  bet: 'bets',
  win: 'wins',
  rollback: 'rollbacks',
  correction: 'corrections',
  free_bet: 'freeBets',
  promo_credit: 'promoCredits',
  jackpot_win: 'jackpotWins',
} as const;

export class Book {
  readonly counts: Counts = {
    bets: 0,
    wins: 0,
    rollbacks: 0,
    corrections: 0,
    freeBets: 0,
    promoCredits: 0,
    jackpotWins: 0,
    replays: 0,
    retries: 0,
    lostAnswers: 0,
    refusals: {},
    serverErrors: {},
  };
  /** Every provider transaction accepted, by `providerId:transactionId`. */
  readonly accepted = new Map<string, Accepted>();
  /** Each player's balance as it must be now (available − held), in cents. */
  readonly balances = new Map<string, bigint>();
  readonly problems: string[] = [];
  /** Scenarios that could not run (e.g. a session that would not expire in time), with why. */
  readonly skipped: string[] = [];
  /** Orders sends and answers: `sent()` and each first answer take the next tick. */
  #clock = 0;
  /** Per id: when its first answer was read, and whether an answer said it applied (replayed: false). */
  readonly #read = new Map<string, { at: number; applied: boolean }>();

  /** The moment an attempt is sent, to pass to `accept` with its answer. */
  sent(): number {
    return ++this.#clock;
  }

  fund(playerId: string, amount: string): void {
    this.balances.set(playerId, (this.balances.get(playerId) ?? 0n) + toCents(amount));
  }

  expected(playerId: string): string {
    return fromCents(this.balances.get(playerId) ?? 0n);
  }

  problem(message: string): void {
    this.problems.push(message);
  }

  refused(code: string): void {
    this.counts.refusals[code] = (this.counts.refusals[code] ?? 0) + 1;
  }

  /**
   * Records an accepted answer; checks a repeat against the first and a first answer's balance
   * against the book. `sentAt` (from `sent()`): when the attempt answered was sent; without it a
   * repeat must be marked replayed.
   */
  accept(providerId: string, a: TransactionAnswer, sentAt = Number.POSITIVE_INFINITY): void {
    const id = `${providerId}:${a.transactionId}`;
    if (a.replayed) this.counts.replays++;
    const first = this.accepted.get(id);
    const read = this.#read.get(id);
    if (first && read) {
      const same = (['kind', 'playerId', 'roundId', 'moved', 'balance', 'createdAt'] as const).every((k) => first.answer[k] === a[k]);
      // Not replayed: the copy that applied, read late, if it was on its way before the first answer was read and no other copy applied.
      const appliedLate = !a.replayed && !read.applied && sentAt < read.at;
      if (!same || !(a.replayed || appliedLate))
        this.problem(`${a.transactionId}: a repeat answered ${JSON.stringify(a)}, the first was ${JSON.stringify(first.answer)}`);
      if (!a.replayed) read.applied = true;
      return;
    }
    this.accepted.set(id, { providerId, answer: a });
    this.#read.set(id, { at: ++this.#clock, applied: !a.replayed });
    this.counts[COUNTED[a.kind]]++;
    const now = (this.balances.get(a.playerId) ?? 0n) + toCents(a.moved);
    this.balances.set(a.playerId, now);
    if (toCents(a.balance) !== now) this.problem(`${a.transactionId} (${a.kind} ${a.moved}): balance after ${a.balance}, expected ${fromCents(now)}`);
  }
}
