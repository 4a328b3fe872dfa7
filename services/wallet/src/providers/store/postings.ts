// The money of a provider's call, in ONE statement each (its own transaction), through the one
// ledger writer's `postOnPlayerRow` (docs/money.md, docs/providers.md):
//   bet         player −amount, the brand's clearing account with the provider +amount
//   win         player +amount, clearing −amount        (a win of 0.00: zeroMove, no money)
//   rollback    player +bet's amount, clearing −amount
//   correction  player ±amount, clearing ∓amount
//   free bet    nothing moves (the provider funds the stake: issue #59 item 1); its round's wins are
//               FREE_BET_WIN (player +amount, clearing −amount)
//   promo credit / jackpot win   player +amount, clearing −amount   (PROMO_CREDIT, JACKPOT_WIN)
// The player's row is updated first (its lock serialises every money move of the player); the same
// statement writes the provider transaction row (keyed by provider + the provider's transaction
// id: the primary key is the backstop of exactly once), the round's row, and the player's
// responsible-gaming usage, so they all commit together or not at all. The ledger source
// `provider:<providerId>:<transactionId>` is unique too.
//
// Conditions on OTHER rows than the player's (the round still open, the bet not rolled back yet)
// are UPDATEs of those rows inside the statement, guarded by `wallet.must(...)` in the final
// select: an UPDATE re-reads a row that changed while it waited for its lock, where a subquery
// would read the statement's snapshot. When the condition no longer holds, the statement fails
// whole (`must:<what>`) and the caller reads again what happened.
import type { BetSlip, Environment, LedgerType, PromotionType, ProviderTransactionKind } from '@bo/contracts';
import { formatMoney, subMoney, type SqlRunner } from '@bo/service-kit';
import { createPlayerAccount, playerAccountId, postOnPlayerRow, type PlayerRowPosting } from '../../ledger/index.ts';
import type { OutboxPart } from './sports-events.ts';
import { VALID_CERTIFICATE } from './game-register.ts';
import { creditCounterParts, roundCounterParts, UNCOUNTED, usageUndo, usageUpsert, type RoundLimits } from '../../rg/index.ts';

export interface PostedMove {
  balanceAfter: string;
  createdAt: Date;
}

/** What every provider transaction row carries. */
interface TransactionKey {
  /** Ours (`ptx_…`). */
  id: string;
  providerId: string;
  /** The environment of the provider's key: a transaction id is the provider's in all its environments, and conflicts across them. */
  environment: Environment;
  transactionId: string;
  roundId: string;
  brandId: string;
  playerId: string;
  currency: string;
  clearingAccountId: string;
  at: Date;
}

export interface BetPosting extends TransactionKey {
  roundKind: 'casino' | 'sports';
  operatorId: string;
  gameId: string;
  amount: string;
  slip: BetSlip | null;
  /** issue #44 item 7: a sports bet's `sports_bet.placed` outbox insert, reading `x` (store/sports-events.ts). */
  outbox?: OutboxPart;
  /**
   * The session was not read for this bet (handlers/session-cache.ts): the statement checks what the
   * read would have (the session not expired at `at`, the provider enabled, the game enabled, and,
   * unless `offered` is already known, the provider offered to the operator) and writes nothing when
   * one does not hold.
   */
  recheck?: { sessionId: string; offered: boolean };
  /**
   * Issue #59 item 4: the session the bet is played in. The bet's statement moves the session's end
   * on to `at` + its inactivity window (no extra round trip: one more CTE), at most once a second
   * (a burst of bets within a second writes the session once; its end is then at most a second early).
   */
  session: { id: string };
  /**
   * Issue #59 item 5: only a game with a certificate valid at `at` takes the bet (br-spa, production,
   * casino): checked by the statement, which writes nothing otherwise (the caller then says why).
   */
  certifiedOnly?: boolean;
  /** Issue #59 item 1: the part of the stake that goes to the provider's jackpot pools (0 up to the amount), recorded with the bet. */
  jackpotContribution?: string;
  /** Issue #66: the provider's game code, recorded as part of the transaction's identity. */
  gameCode?: string;
}

const MUST_FAILED = /^must:([a-z_]+)$/;
/** The condition a statement's `wallet.must` found false, or undefined for any other error. */
export function failedCondition(e: unknown): string | undefined {
  const m = e instanceof Error ? MUST_FAILED.exec(e.message) : null;
  return m?.[1];
}

/** issue #44 item 7: an event's outbox insert as the statement's last CTE (written with the money, or not at all). */
const outboxCte = (o: OutboxPart | undefined) => (o ? `,\n     o as (${o.text})` : '');

const negated = (m: string) => formatMoney(subMoney(0, m));
const source = (t: TransactionKey) => `provider:${t.providerId}:${t.transactionId}`;

const TX_COLUMNS =
  'environment, provider_id, transaction_id, id, kind, round_id, bet_transaction_id, brand_id, player_id, currency, requested, moved, balance_after, entry_id, created_at';

/** A bet's conditions on the session's standing when the session was not read for it (`BetPosting.recheck`). */
function standingRecheck(b: BetPosting): { text: string; params: unknown[] } {
  if (!b.recheck) return { text: '', params: [] };
  return {
    text: `
                  and exists (select 1 from wallet.provider_sessions where id = ? and expires_at > ?::timestamptz)
                  and exists (select 1 from wallet.providers where id = ? and status = 'enabled')
                  and exists (select 1 from wallet.games where id = ? and enabled)${
                    b.recheck.offered
                      ? ''
                      : '\n                  and exists (select 1 from wallet.provider_operators where provider_id = ? and operator_id = ?)'
                  }`,
    params: [b.recheck.sessionId, b.at, b.providerId, b.gameId, ...(b.recheck.offered ? [] : [b.providerId, b.operatorId])],
  };
}

/**
 * Debits a bet; undefined when nothing was written: no account, not enough (`available − held`),
 * this transaction id is taken, (with `recheck`) the session's standing no longer holds, or (with
 * `limits`) the counters are not of the current periods or a limit does not hold. Throws
 * `must:round` when the round is closed or another player's.
 */
export async function postBet(sql: SqlRunner, b: BetPosting, limits?: RoundLimits): Promise<PostedMove | undefined> {
  const amount = formatMoney(b.amount);
  const counters = limits ? roundCounterParts(limits, b.at, amount, amount) : undefined;
  const usage = usageUpsert('u', b.at, amount, amount, counters ? 'a.rg_gap_seconds' : '0');
  const recheck = standingRecheck(b);
  const certified = b.certifiedOnly ? { text: `\n                  and ${VALID_CERTIFICATE}`, params: [b.gameId, b.at, b.at] } : { text: '', params: [] };
  const { row } = await postOnPlayerRow<{ balance_after: string; at: Date }>(sql, {
    accountId: playerAccountId(b.brandId, b.playerId, b.currency),
    brandId: b.brandId,
    currency: b.currency,
    referenceId: b.id,
    transactions: [{ source: source(b), type: 'BET', amount: `-${amount}`, clearingAccountId: b.clearingAccountId }],
    alsoSet: counters?.set ?? UNCOUNTED,
    onlyIf: {
      text: `and available - held >= ?::numeric
                  and not exists (select 1 from wallet.provider_transactions where provider_id = ? and transaction_id = ?)${recheck.text}${certified.text}${counters ? `\n                  ${counters.onlyIf.text}` : ''}`,
      params: [amount, b.providerId, b.transactionId, ...recheck.params, ...certified.params, ...(counters?.onlyIf.params ?? [])],
    },
    ...(counters ? { alsoReturns: counters.returns } : {}),
    alsoWith: ([bet]) => ({
      // A round whose bets were all rolled back (voided) opens again with a new bet.
      text: `r as (insert into wallet.provider_rounds (provider_id, round_id, kind, operator_id, brand_id, environment, player_id, currency, game_id, bets, staked, slip, opened_at)
           select ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?::numeric, ?::jsonb, a.at from a
           on conflict (provider_id, round_id) do update
             set bets = wallet.provider_rounds.bets + 1, staked = wallet.provider_rounds.staked + excluded.staked, status = 'open', closed_at = null
             where wallet.provider_rounds.status in ('open', 'voided') and wallet.provider_rounds.player_id = excluded.player_id
               and wallet.provider_rounds.brand_id = excluded.brand_id and wallet.provider_rounds.currency = excluded.currency
               and wallet.provider_rounds.environment = excluded.environment and wallet.provider_rounds.funding = 'player'
           returning 1),
     x as (insert into wallet.provider_transactions (${TX_COLUMNS}, jackpot_contribution, game_code)
           select ?, ?, ?, ?, 'bet', ?, null, ?, ?, ?, ?::numeric, ?::numeric, a.available - a.held, ?, a.at, ?::numeric, ? from a
           returning 1),
     s as (update wallet.provider_sessions set last_activity_at = ?::timestamptz,
             expires_at = greatest(expires_at, ?::timestamptz + make_interval(secs => idle_seconds))
           where id = ? and expires_at > ?::timestamptz
             and (last_activity_at is null or last_activity_at <= ?::timestamptz - interval '1 second') and exists (select 1 from a)
           returning 1),
     ${usage.text}${outboxCte(b.outbox)}`,
      params: [
        b.providerId,
        b.roundId,
        b.roundKind,
        b.operatorId,
        b.brandId,
        b.environment,
        b.playerId,
        b.currency,
        b.gameId,
        amount,
        b.slip ? JSON.stringify(b.slip) : null,
        b.environment,
        b.providerId,
        b.transactionId,
        b.id,
        b.roundId,
        b.brandId,
        b.playerId,
        b.currency,
        `-${amount}`,
        `-${amount}`,
        bet!.playerEntryId,
        b.jackpotContribution === undefined ? null : formatMoney(b.jackpotContribution),
        b.gameCode ?? null,
        b.at,
        b.at,
        b.session.id,
        b.at,
        b.at,
        ...usage.params,
        ...(b.outbox?.params ?? []),
      ],
    }),
    returning: `a.available - a.held as balance_after, a.at, wallet.must(exists (select 1 from r), 'round')`,
  });
  return row ? { balanceAfter: formatMoney(row.balance_after), createdAt: row.at } : undefined;
}

export interface CreditPosting extends TransactionKey {
  kind: Exclude<ProviderTransactionKind, 'bet' | 'free_bet'>;
  /**
   * Issue #59 item 1: what the provider funded (a win of a free round: FREE_BET_WIN; free rounds'
   * winnings; a promotional credit or a jackpot win), its campaign (promotion, reward or jackpot
   * id) and a promotional credit's type. A win of a provider-funded round is FREE_BET_WIN.
   */
  providerFunded?: boolean;
  campaignId?: string;
  promotionType?: PromotionType;
  ledgerType?: LedgerType;
  /** What the provider asked (signed, for the player). */
  requested: string;
  /** What moves (signed): a correction's debit is taken up to the balance. */
  amount: string;
  /** A rollback's bet. */
  betTransactionId?: string;
  /** Issue #66: the call's game, when it names one (a connector's win, a promotional credit): part of its identity. */
  gameCode?: string;
  /** When the move counts in the player's usage: a rollback's, when its bet was placed (the bet is undone where it counted). */
  usageAt?: Date;
  /** A win: the round closes with it (settled), with the sports outcome when given. */
  roundClosed?: boolean;
  outcome?: string | null;
  /** issue #44 item 7: the `sports_bet.settled` outbox insert, reading `r` (store/sports-events.ts). */
  outbox?: OutboxPart;
  /** A credit: what of it repays the player's debt to the provider (positive), read just before (store/debts.ts). */
  repay?: string;
  /** A credit whose round was not read (handlers/round-facts.ts): written only while the player owes the provider nothing (else the caller reads and repays). */
  unlessOwing?: boolean;
  /** A win on kept facts naming its bet (`betTransactionId`): written only while that bet is a live bet of the player (a connector's win). */
  liveBetOnly?: boolean;
  /** A correction's debit: what the balance could not cover, added to the player's debt (positive). */
  shortfall?: string;
  /** A win that owes a prize and names when its event ended: that end and the prize's deadline (domain/prize-clock.ts), recorded on its row with whether the credit met it. */
  prizeClock?: { eventEndedAt: Date; dueAt: Date };
  /**
   * A rollback of ours at the closing of an account after an impediment hit (handlers/refund-open-bets.ts):
   * refunds a bet of an open round even when the round already has a win (issue #60), which the provider's
   * own rollback may not.
   */
  closingRefund?: boolean;
}

/** A repayment's own transaction id: the credit's + this (a provider's ids carry no space). */
export const REPAYMENT_SUFFIX = ' repayment';

const DEBT_KEY = 'provider_id = ? and brand_id = ? and player_id = ? and currency = ?';
/** A move of no money: no ledger transaction, so no clearing account. */
type ZeroMove = Omit<CreditPosting, 'clearingAccountId'>;
const debtKey = (c: ZeroMove) => [c.providerId, c.brandId, c.playerId, c.currency];

/**
 * The player's debt as the move changes it: a repayment takes `repay` off it (only if it is still
 * owed: `must:debt` otherwise), a shortfall adds to it. Each only when the player's row was
 * updated (`a`), so a statement that moved nothing changes no debt.
 */
function debtChange(c: ZeroMove): { text: string; params: unknown[]; must: string } | undefined {
  if (c.repay)
    return {
      text: `d as (update wallet.provider_debts set owed = owed - ?::numeric, repaid = repaid + ?::numeric, updated_at = (select at from a)
           where ${DEBT_KEY} and owed >= ?::numeric and exists (select 1 from a) returning 1)`,
      params: [c.repay, c.repay, ...debtKey(c), c.repay],
      must: `wallet.must(exists (select 1 from d), 'debt')`,
    };
  if (c.shortfall)
    return {
      text: `d as (insert into wallet.provider_debts (provider_id, brand_id, player_id, currency, owed, incurred, repaid, updated_at)
           select ?, ?, ?, ?, ?::numeric, ?::numeric, 0, a.at from a
           on conflict (provider_id, brand_id, player_id, currency) do update
             set owed = wallet.provider_debts.owed + excluded.owed, incurred = wallet.provider_debts.incurred + excluded.incurred,
                 updated_at = excluded.updated_at
           returning 1)`,
      params: [...debtKey(c), c.shortfall, c.shortfall],
      must: '',
    };
  return undefined;
}

/** The ledger type of each kind of move (a win of a free round: FREE_BET_WIN, `ledgerType`). */
const LEDGER_TYPE = { win: 'WIN', rollback: 'ROLLBACK', correction: 'CORRECTION', promo_credit: 'PROMO_CREDIT', jackpot_win: 'JACKPOT_WIN' } as const;

/**
 * A statement's other rows change only when the player's row did (`a`: the posting's own update,
 * empty when a condition of it failed): a statement that moved no money changes nothing else.
 * A zero move has no `a` update; its `a` is always one row.
 */
const MOVED = 'exists (select 1 from a)';
/** A rollback's statement took its bet (`b`, roundChange): only then does it change the round and the player's usage. */
const ROLLBACK_TOOK_BET = 'exists (select 1 from b)';

/** A win's bet is a live bet of its player: taken, not rolled back, not the placeholder of a bet never received. */
const LIVE_BET = `exists (select 1 from wallet.provider_transactions where provider_id = ? and transaction_id = ? and environment = ? and player_id = ?
                  and kind in ('bet', 'free_bet') and not never_received and rolled_back_by is null)`;

/**
 * The round (and, for a rollback, the bet) a move changes, as UPDATEs with the move's conditions; `at` the move's time.
 * A promotional credit or a jackpot win changes no round (a jackpot's round is read, never settled by it).
 */
function roundChange(c: ZeroMove, moved: string): { text: string; params: unknown[] } | undefined {
  const where = 'provider_id = ? and round_id = ? and player_id = ?';
  const key = [c.providerId, c.roundId, c.playerId];
  switch (c.kind) {
    case 'win':
      // The round as the win took it (its brand, currency and funding: read, or kept from its bet, handlers/round-facts.ts).
      return {
        text: `r as (update wallet.provider_rounds set wins = wins + 1, won = won + ?::numeric,
                  status = case when ?::boolean then 'settled' else status end,
                  closed_at = case when ?::boolean then (select at from a) else closed_at end,
                  outcome = coalesce(?::text, outcome)
                where ${where} and status = 'open' and brand_id = ? and currency = ? and funding = ?${c.liveBetOnly ? ` and ${LIVE_BET}` : ''} and ${MOVED} returning *)`,
        params: [
          moved,
          c.roundClosed ?? true,
          c.roundClosed ?? true,
          c.outcome ?? null,
          ...key,
          c.brandId,
          c.currency,
          c.providerFunded ? 'provider' : 'player',
          ...(c.liveBetOnly ? [c.providerId, c.betTransactionId, c.environment, c.playerId] : []),
        ],
      };
    case 'rollback':
      // The round of a bet with a win is settled: its bets are not rolled back (but by our refund at an
      // impediment closing, which refunds every open bet in full). A round whose last bet is rolled back is voided.
      // The bet first, and the round only when this statement took the bet (`b`): issue #66 item 7. A copy
      // of this rollback that waited for the player's row lock went on with its snapshot's reading of the
      // id (free), and its UPDATE of the round re-read the row the first copy had changed: it took the
      // stake off the round a second time (below zero: `provider_rounds_staked_check`, a 500) before its
      // insert met the id taken. The bet's row, re-read under its lock, is rolled back by then: `b` is
      // empty, so the round (and the usage: ROLLBACK_TOOK_BET) is not touched and `must:bet` reads again.
      return {
        text: `b as (update wallet.provider_transactions set rolled_back_by = ?
           where provider_id = ? and transaction_id = ? and kind in ('bet', 'free_bet') and rolled_back_by is null and ${MOVED} returning 1),
     r as (update wallet.provider_rounds set bets = bets - 1, staked = staked - ?::numeric,
                  status = case when bets = 1 then 'voided' else status end,
                  closed_at = case when bets = 1 then (select at from a) else closed_at end
                where ${where} and status = 'open'${c.closingRefund ? '' : ' and wins = 0'} and ${MOVED} and ${ROLLBACK_TOOK_BET} returning *)`,
        params: [c.transactionId, c.providerId, c.betTransactionId, moved, ...key],
      };
    case 'correction':
      return {
        text: `r as (update wallet.provider_rounds set corrected = corrected + ?::numeric where ${where} and status = 'settled' and ${MOVED} returning 1)`,
        params: [moved, ...key],
      };
    case 'promo_credit':
    case 'jackpot_win':
      return undefined;
  }
}

const mustOf = (c: ZeroMove) =>
  c.kind === 'rollback'
    ? `wallet.must(exists (select 1 from r), 'round') and wallet.must(exists (select 1 from b), 'bet')`
    : c.kind === 'promo_credit' || c.kind === 'jackpot_win'
      ? 'true'
      : `wallet.must(exists (select 1 from r), 'round')`;

/** The funding columns of a move's row (issue #59 item 1). */
const FUNDING_COLUMNS = 'provider_funded, campaign_id, promotion_type';
const fundingParams = (c: ZeroMove) => [c.providerFunded ?? false, c.campaignId ?? null, c.promotionType ?? null];

/**
 * Posts a win, a rollback or a correction that moves money (amount ≠ 0). A debit (a correction's)
 * only when `available − held` covers it; undefined when nothing was written (not enough for a
 * debit, no account for a debit, this transaction id is taken). A credit creates the player's
 * account when it does not exist yet. Throws `must:round` / `must:bet` when the
 * round or the bet is no longer as the caller read it.
 */
export async function postMove(sql: SqlRunner, c: CreditPosting): Promise<PostedMove | undefined> {
  const moved = formatMoney(c.amount);
  const debit = moved.startsWith('-');
  const repay = c.repay ? formatMoney(c.repay) : undefined;
  const wagered = c.kind === 'rollback' ? negated(moved) : '0.00';
  // What the player's money changed by: a repayment takes part of the credit back.
  const netLoss = negated(repay ? subMoney(moved, repay) : moved);
  const usage = c.kind === 'rollback' ? usageUndo('u', c.usageAt ?? c.at, wagered, netLoss, ROLLBACK_TOOK_BET) : usageUpsert('u', c.at, wagered, netLoss, '0');
  const change = roundChange(c, moved);
  const debt = debtChange(c);
  const posting: PlayerRowPosting = {
    accountId: playerAccountId(c.brandId, c.playerId, c.currency),
    brandId: c.brandId,
    currency: c.currency,
    referenceId: c.id,
    transactions: [
      { source: source(c), type: c.ledgerType ?? LEDGER_TYPE[c.kind], amount: moved, clearingAccountId: c.clearingAccountId },
      ...(repay
        ? [{ source: `${source(c)}${REPAYMENT_SUFFIX}`, type: 'CORRECTION' as const, amount: `-${repay}`, clearingAccountId: c.clearingAccountId }]
        : []),
    ],
    alsoSet: creditCounterParts(c.usageAt ?? c.at, wagered, netLoss),
    onlyIf: {
      text: `${debit ? 'and available - held >= ?::numeric ' : ''}and not exists (select 1 from wallet.provider_transactions where provider_id = ? and transaction_id = ?)${
        c.unlessOwing
          ? `
                  and not exists (select 1 from wallet.provider_debts where ${DEBT_KEY} and owed > 0)`
          : ''
      }`,
      params: [...(debit ? [negated(moved)] : []), c.providerId, c.transactionId, ...(c.unlessOwing ? debtKey(c) : [])],
    },
    alsoWith: ([move, repayment]) => ({
      // The prize clock: the credit's own time (a.at) against the deadline, in the statement that credits it.
      text: `${change ? `${change.text},\n     ` : ''}x as (insert into wallet.provider_transactions (${TX_COLUMNS}, event_ended_at, prize_due_at, prize_on_time, ${FUNDING_COLUMNS}, game_code)
           select ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::numeric, ?::numeric, a.available - a.held, ?, a.at,
                  ?::timestamptz, ?::timestamptz, case when ?::timestamptz is null then null else a.at <= ?::timestamptz end, ?, ?, ?, ? from a
           returning 1),${
             repay
               ? `
     y as (insert into wallet.provider_transactions (${TX_COLUMNS}, repays)
           select ?, ?, ?, ?, 'correction', ?, null, ?, ?, ?, ?::numeric, ?::numeric, a.available - a.held, ?, a.at, ? from a
           returning 1),`
               : ''
           }${
             debt
               ? `
     ${debt.text},`
               : ''
           }
     ${usage.text}${outboxCte(c.outbox)}`,
      params: [
        ...(change?.params ?? []),
        c.environment,
        c.providerId,
        c.transactionId,
        c.id,
        c.kind,
        c.roundId,
        c.betTransactionId ?? null,
        c.brandId,
        c.playerId,
        c.currency,
        formatMoney(c.requested),
        moved,
        move!.playerEntryId,
        c.prizeClock?.eventEndedAt ?? null,
        c.prizeClock?.dueAt ?? null,
        c.prizeClock?.dueAt ?? null,
        c.prizeClock?.dueAt ?? null,
        ...fundingParams(c),
        c.gameCode ?? null,
        ...(repay
          ? [
              c.environment,
              c.providerId,
              `${c.transactionId}${REPAYMENT_SUFFIX}`,
              `${c.id}_repay`,
              c.roundId,
              c.brandId,
              c.playerId,
              c.currency,
              `-${repay}`,
              `-${repay}`,
              repayment!.playerEntryId,
              c.transactionId,
            ]
          : []),
        ...(debt?.params ?? []),
        ...usage.params,
        ...(c.outbox?.params ?? []),
      ],
    }),
    returning: `a.available - a.held as balance_after, a.at, ${mustOf(c)}${debt?.must ? `, ${debt.must}` : ''}`,
  };
  let { row } = await postOnPlayerRow<{ balance_after: string; at: Date }>(sql, posting);
  // Issue #66: a credit to a player whose wallet never held money (a free bet's win, a promotion's
  // prize before any deposit) finds no account row to update, and wrote nothing. The account is
  // created at 0.00 (committed on its own, as a first deposit creates it; nothing to undo if the
  // credit then fails) and the credit posted again, once: its conditions are checked as always.
  if (!row && !debit && !(await accountExists(sql, posting.accountId))) {
    await createPlayerAccount(sql, c.brandId, c.playerId, c.currency);
    ({ row } = await postOnPlayerRow<{ balance_after: string; at: Date }>(sql, posting));
  }
  return row ? { balanceAfter: formatMoney(row.balance_after), createdAt: row.at } : undefined;
}

async function accountExists(sql: SqlRunner, accountId: string): Promise<boolean> {
  return (await sql.query<{ one: number }>('select 1 as one from wallet.accounts where id = ?', [accountId])).length > 0;
}

/**
 * A move of no money, recorded: a win of 0.00 (a lost round, which it may close: the round changes
 * as postMove's would), or a second rollback of a bet already rolled back (`roundChanges` false).
 * Throws `must:round` like postMove, and a unique violation when this transaction id is taken.
 */
export async function postZeroMove(sql: SqlRunner, c: ZeroMove, roundChanges = true, freeStake?: string): Promise<PostedMove> {
  // A rollback of a free bet (`freeStake`, issue #59 item 1) moves no money but undoes its stake on the round and marks the free bet.
  const change =
    roundChanges && c.kind === 'win'
      ? roundChange(c, '0.00')
      : roundChanges && c.kind === 'rollback' && freeStake !== undefined
        ? roundChange(c, formatMoney(freeStake))
        : undefined;
  // A correction's debit when the balance was 0.00: all of it is the player's debt.
  const debt = c.shortfall ? debtChange(c) : undefined;
  const rows = await sql.query<{ balance_after: string; at: Date }>(
    `with a as materialized (select date_trunc('milliseconds', clock_timestamp()) as at,
                          coalesce((select available - held from wallet.accounts where id = ?), 0) as balance),
     ${change ? `${change.text},` : ''}
     x as (insert into wallet.provider_transactions (${TX_COLUMNS}, ${FUNDING_COLUMNS}, game_code)
           select ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::numeric, 0, a.balance, null, a.at, ?, ?, ?, ? from a
           returning 1)${debt ? `,\n     ${debt.text}` : ''}${change ? outboxCte(c.outbox) : ''}
     select a.balance as balance_after, a.at${change ? `, ${mustOf(c)}` : ''}, (select count(*) from x) as written from a`,
    [
      playerAccountId(c.brandId, c.playerId, c.currency),
      ...(change?.params ?? []),
      c.environment,
      c.providerId,
      c.transactionId,
      c.id,
      c.kind,
      c.roundId,
      c.betTransactionId ?? null,
      c.brandId,
      c.playerId,
      c.currency,
      formatMoney(c.requested),
      ...fundingParams(c),
      c.gameCode ?? null,
      ...(debt?.params ?? []),
      ...(change ? (c.outbox?.params ?? []) : []),
    ],
  );
  const row = rows[0]!;
  return { balanceAfter: formatMoney(row.balance_after), createdAt: row.at };
}

/**
 * A rollback of a bet we never received: recorded, with a placeholder row under the bet's own id
 * (never_received, rolled back by this rollback), so the bet arriving later finds its id taken
 * and is refused. Both rows or neither. Undefined when either id is taken (the caller reads again).
 */
export async function postRollbackOfUnknownBet(
  sql: SqlRunner,
  c: Omit<CreditPosting, 'kind' | 'amount' | 'requested' | 'clearingAccountId'> & { betTransactionId: string },
): Promise<PostedMove | undefined> {
  try {
    const rows = await sql.query<{ balance_after: string; at: Date }>(
      `with a as materialized (select date_trunc('milliseconds', clock_timestamp()) as at,
                            coalesce((select available - held from wallet.accounts where id = ?), 0) as balance),
       p as (insert into wallet.provider_transactions (${TX_COLUMNS}, rolled_back_by, never_received)
             select ?, ?, ?, ?, 'bet', ?, null, ?, ?, ?, 0, 0, a.balance, null, a.at, ?, true from a returning 1),
       x as (insert into wallet.provider_transactions (${TX_COLUMNS})
             select ?, ?, ?, ?, 'rollback', ?, ?, ?, ?, ?, 0, 0, a.balance, null, a.at from a returning 1)
       select a.balance as balance_after, a.at from a`,
      [
        playerAccountId(c.brandId, c.playerId, c.currency),
        c.environment,
        c.providerId,
        c.betTransactionId,
        `${c.id}_bet`,
        c.roundId,
        c.brandId,
        c.playerId,
        c.currency,
        c.transactionId,
        c.environment,
        c.providerId,
        c.transactionId,
        c.id,
        c.roundId,
        c.betTransactionId,
        c.brandId,
        c.playerId,
        c.currency,
      ],
    );
    const row = rows[0];
    return row ? { balanceAfter: formatMoney(row.balance_after), createdAt: row.at } : undefined;
  } catch (e) {
    if ((e as { code?: string }).code === '23505') return undefined;
    throw e;
  }
}

/** A free bet or free round the provider funds (issue #59 item 1): nothing is taken from the player. */
export interface FreeBetPosting extends Omit<TransactionKey, 'clearingAccountId'> {
  roundKind: 'casino' | 'sports';
  operatorId: string;
  gameId: string;
  amount: string;
  campaignId: string | null;
  /** Issue #66: the free bet's game, part of its identity. */
  gameCode?: string;
}

/**
 * Records a free bet: no money moves (no ledger transaction); the round is opened (or joined) as a
 * round the provider funds, whose wins are FREE_BET_WIN. One statement; throws `must:round` when
 * the round is closed, another player's or a round the player pays, and a unique violation when
 * this transaction id is taken.
 */
export async function postFreeBet(sql: SqlRunner, f: FreeBetPosting): Promise<PostedMove> {
  const amount = formatMoney(f.amount);
  const rows = await sql.query<{ balance_after: string; at: Date }>(
    `with a as materialized (select date_trunc('milliseconds', clock_timestamp()) as at,
                          coalesce((select available - held from wallet.accounts where id = ?), 0) as balance),
     r as (insert into wallet.provider_rounds (provider_id, round_id, kind, operator_id, brand_id, environment, player_id, currency, game_id, bets, staked, opened_at, funding)
           select ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?::numeric, a.at, 'provider' from a
           on conflict (provider_id, round_id) do update
             set bets = wallet.provider_rounds.bets + 1, staked = wallet.provider_rounds.staked + excluded.staked, status = 'open', closed_at = null
             where wallet.provider_rounds.status in ('open', 'voided') and wallet.provider_rounds.player_id = excluded.player_id
               and wallet.provider_rounds.brand_id = excluded.brand_id and wallet.provider_rounds.currency = excluded.currency
               and wallet.provider_rounds.environment = excluded.environment and wallet.provider_rounds.funding = 'provider'
           returning 1),
     x as (insert into wallet.provider_transactions (${TX_COLUMNS}, ${FUNDING_COLUMNS}, game_code)
           select ?, ?, ?, ?, 'free_bet', ?, null, ?, ?, ?, ?::numeric, 0, a.balance, null, a.at, true, ?, null, ? from a
           returning 1)
     select a.balance as balance_after, a.at, wallet.must(exists (select 1 from r), 'round') from a`,
    [
      playerAccountId(f.brandId, f.playerId, f.currency),
      f.providerId,
      f.roundId,
      f.roundKind,
      f.operatorId,
      f.brandId,
      f.environment,
      f.playerId,
      f.currency,
      f.gameId,
      amount,
      f.environment,
      f.providerId,
      f.transactionId,
      f.id,
      f.roundId,
      f.brandId,
      f.playerId,
      f.currency,
      `-${amount}`,
      f.campaignId,
      f.gameCode ?? null,
    ],
  );
  const row = rows[0]!;
  return { balanceAfter: formatMoney(row.balance_after), createdAt: row.at };
}
