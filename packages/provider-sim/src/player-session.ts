// One player's session of one provider game as the provider's server sees it: the token from the
// launch, and every call signed and sent through the retry policy, its answer entered in the book
// and checked against what the scenario expected (accepted, or refused with a given code).
import { randomUUID } from 'node:crypto';
import type { Book, TransactionAnswer } from './book.ts';
import type { Launch } from './launch-server.ts';
import type { ProviderAnswer, ProviderClient, ProviderOperation } from './provider-client.ts';
import { untilAnswered, type RetryPolicy } from './retry.ts';
import type { SimGame, SimProvider } from './admin-side.ts';

/** A fresh provider id for a transaction, round or slip. */
export const providerId = (label: string) => `${label}-${randomUUID()}`;

/** What a call must get: accepted (`ok`), or refused with one of these codes. */
export type Expect = 'ok' | readonly string[];

const MONEY_OPS: ReadonlySet<ProviderOperation> = new Set(['bets', 'wins', 'rollbacks', 'corrections', 'free-bets', 'promo-credits', 'jackpot-wins']);

export class PlayerSession {
  readonly book: Book;
  readonly provider: SimProvider;
  readonly game: SimGame;
  readonly launch: Launch;
  readonly #client: ProviderClient;
  readonly #retry: RetryPolicy;

  constructor(opts: { book: Book; provider: SimProvider; game: SimGame; launch: Launch; client: ProviderClient; retry: RetryPolicy }) {
    this.book = opts.book;
    this.provider = opts.provider;
    this.game = opts.game;
    this.launch = opts.launch;
    this.#client = opts.client;
    this.#retry = opts.retry;
  }

  get playerId(): string {
    return this.launch.playerId;
  }

  /** A bet body of this session (a fresh transaction id; a fresh round unless given). */
  betBody(amount: string, over: Record<string, unknown> = {}) {
    return {
      transactionId: providerId('bet'),
      token: this.launch.token,
      roundId: providerId('round'),
      gameCode: this.game.code,
      amount,
      currency: this.launch.currency,
      ...over,
    };
  }

  winBody(roundId: string, amount: string, over: Record<string, unknown> = {}) {
    return { transactionId: providerId('win'), playerId: this.playerId, roundId, amount, currency: this.launch.currency, roundClosed: true, ...over };
  }

  /** Issue #59 item 1: a free bet or free round the provider funds (a fresh round unless given). */
  freeBetBody(amount: string, over: Record<string, unknown> = {}) {
    return {
      transactionId: providerId('freebet'),
      token: this.launch.token,
      roundId: providerId('freeround'),
      gameCode: this.game.code,
      amount,
      currency: this.launch.currency,
      rewardId: 'sim-reward',
      ...over,
    };
  }

  promoCreditBody(amount: string, promotionType: string, over: Record<string, unknown> = {}) {
    return {
      transactionId: providerId('promo'),
      playerId: this.playerId,
      amount,
      currency: this.launch.currency,
      promotionType,
      promotionId: 'sim-tournament',
      ...over,
    };
  }

  jackpotWinBody(amount: string, over: Record<string, unknown> = {}) {
    return { transactionId: providerId('jackpot'), playerId: this.playerId, jackpotId: 'sim-mega', amount, currency: this.launch.currency, ...over };
  }

  rollbackBody(bet: { transactionId: string; roundId: string }) {
    return { transactionId: providerId('rollback'), playerId: this.playerId, betTransactionId: bet.transactionId, roundId: bet.roundId };
  }

  /** Sends until a final answer; enters it in the book; a result other than `expect` is a problem. */
  async send(op: ProviderOperation, body: Record<string, unknown>, expect: Expect = 'ok'): Promise<ProviderAnswer> {
    const what = `${op} ${String(body.transactionId ?? '')}`.trim();
    // When the attempt that got the final answer was sent: the book tells a copy that applied, read late, from a second answer.
    let sentAt = 0;
    const attempt = () => {
      sentAt = this.book.sent();
      return this.#client.call(op, body);
    };
    const r = await untilAnswered(attempt, what, this.#retry);
    if (r.status === 200) {
      if (MONEY_OPS.has(op)) this.book.accept(this.provider.providerId, r.body as TransactionAnswer, sentAt);
      else if (r.body.balance !== this.book.expected(this.playerId))
        this.book.problem(`${op} of ${this.playerId}: balance ${r.body.balance}, expected ${this.book.expected(this.playerId)}`);
    } else {
      const code = r.body?.error?.code ?? `HTTP_${r.status}`;
      this.book.refused(code);
      if (expect === 'ok' || !expect.includes(code)) this.book.problem(`${what}: ${r.status} ${code}, expected ${expect === 'ok' ? 'ok' : expect.join('|')}`);
      return r;
    }
    if (expect !== 'ok') this.book.problem(`${what}: accepted, expected ${expect.join('|')}`);
    return r;
  }

  /**
   * A call whose answer the provider never gets (its client timed out): the simulator still
   * enters the answer in its book, to know what moved, but the scenario acts as if none came.
   */
  async lose(op: ProviderOperation, body: Record<string, unknown>): Promise<void> {
    await this.send(op, body);
    this.book.counts.lostAnswers++;
  }
}
