// The money of one real-money game round and the round row naming it, in ONE statement (its own
// transaction; the ledger writer's `postOnPlayerRow` with the round's own conditions and CTEs), so
// a round and its money commit together or not at all:
//   BET  player −amount, brand game clearing +amount
//   WIN  player +payout, brand game clearing −payout   (only when the round pays)
// The player's account row is updated first: the UPDATE takes the row lock that serialises every
// money move of the player and checks the stake against `available − held` on the row it locked
// (a concurrent bet that committed first is seen). Entries take their sequence numbers, balances
// after and time from the row it returns. The round's number in its session comes the same way,
// from the session row's counter, updated only once the player's row is locked (so the two locks
// are always taken in that order): a row updated after a lock wait is read at its latest version,
// which a `max(seq) + 1` from the statement's snapshot is not. Sources
// `game-round:<roundId>:bet|win` are unique and a session's clientRoundId is unique, so a round's
// money is posted at most once whatever its caller does. The game clearing side is appended,
// never locked (docs/money.md, "Hot accounts"). The same statement adds the round to the player's
// responsible-gaming usage of its hour (wallet.rg_usage: staked, net loss), so usage and money
// commit together. A round of a player with limits also counts the activity and is checked
// against the limits on the locked row (the rg module's counters); one without leaves the counters
// uncounted. The ledger and rg are reached through their faces (../../ledger/index.ts, ../../rg/index.ts).
import { compareMoney, formatMoney, subMoney, type Sql, type SqlRunner, type StatementPart } from '@bo/service-kit';
import { ensureClearingAccount, playerAccountId, playerRowPart, postOnPlayerRow, type PlayerRowPosting } from '../../ledger/index.ts';
import { roundCounterParts, UNCOUNTED, usageUpsert, type RoundLimits } from '../../rg/index.ts';

/** The brand's game clearing account (created, committed, the first time). */
export function gameClearingAccount(sql: Sql, brandId: string, currency: string): Promise<string> {
  return ensureClearingAccount(sql, brandId, 'game_clearing', currency);
}

export interface RealRound {
  id: string;
  sessionId: string;
  clientRoundId: string;
  brandId: string;
  playerId: string;
  currency: string;
  amount: string;
  payout: string;
  win: boolean;
  outcome: Record<string, unknown>;
  createdAt: Date;
  clearingAccountId: string;
}

/**
 * The round's posting (the ledger writer's, with the round's conditions and CTEs), its CTEs
 * named with `suffix` when it is a group commit's part.
 */
function roundPosting(r: RealRound, limits: RoundLimits | undefined): PlayerRowPosting {
  const amount = formatMoney(r.amount);
  const payout = formatMoney(r.payout);
  if (compareMoney(amount, 0) <= 0 || compareMoney(payout, 0) < 0) throw new Error(`round ${r.id}: amount ${amount}, payout ${payout}`);
  const pays = compareMoney(payout, 0) > 0;
  const netLoss = formatMoney(subMoney(amount, payout));
  const counters = limits ? roundCounterParts(limits, r.createdAt, amount, netLoss) : undefined;
  // Four texts (with and without a WIN, with and without limits), each prepared once. The round's number is a scalar
  // subquery on `s`: without its session row it is null and the whole statement fails (seq is not
  // null), so there is never money without its round.
  return {
    accountId: playerAccountId(r.brandId, r.playerId, r.currency),
    brandId: r.brandId,
    currency: r.currency,
    referenceId: r.id,
    transactions: [
      { source: `game-round:${r.id}:bet`, type: 'BET', amount: `-${amount}`, clearingAccountId: r.clearingAccountId },
      ...(pays ? [{ source: `game-round:${r.id}:win`, type: 'WIN' as const, amount: payout, clearingAccountId: r.clearingAccountId }] : []),
    ],
    alsoSet: counters?.set ?? UNCOUNTED,
    onlyIf: {
      text: `and available - held >= ?::numeric
                  and not exists (select 1 from wallet.game_rounds where session_id = ? and client_round_id = ?)
                  and exists (select 1 from wallet.game_sessions where id = ? and expires_at > ?::timestamptz)${counters ? `\n                  ${counters.onlyIf.text}` : ''}`,
      params: [amount, r.sessionId, r.clientRoundId, r.sessionId, r.createdAt, ...(counters?.onlyIf.params ?? [])],
    },
    ...(counters ? { alsoReturns: counters.returns } : {}),
    alsoWith: ([bet, win], { a, suffix }) => {
      const usage = usageUpsert(`u${suffix}`, r.createdAt, amount, netLoss, counters ? 'a.rg_gap_seconds' : '0', a);
      return {
        text: `s${suffix} as (update wallet.game_sessions set rounds_played = rounds_played + 1 where id = ? and exists (select 1 from ${a}) returning rounds_played),
     r${suffix} as (insert into wallet.game_rounds (id, session_id, seq, client_round_id, amount, payout, win, outcome, balance_before, balance_after, bet_entry_id, win_entry_id, created_at)
           select ?, ?, (select rounds_played from s${suffix}), ?, ?::numeric, ?::numeric, ?::boolean, ?::json,
                  a.available + ?::numeric - ?::numeric - a.held, a.available - a.held, ?, ?, ?::timestamptz from ${a}
           returning 1),
     ${usage.text}`,
        params: [
          r.sessionId,
          r.id,
          r.sessionId,
          r.clientRoundId,
          amount,
          payout,
          r.win,
          JSON.stringify(r.outcome),
          amount,
          payout,
          bet!.playerEntryId,
          win?.playerEntryId ?? null,
          r.createdAt,
          ...usage.params,
        ],
      };
    },
    returning: 'a.available - a.held as balance_after',
  };
}

/** A round to post, with its limits when its player has them. */
export interface RoundPosting {
  round: RealRound;
  limits?: RoundLimits;
}

/** Real-money rounds as a group commit (the games module's `groupCommits`): the rounds of different players running at once, one statement. */
export const ROUND_GROUP = 'wallet.games.rounds';
export const roundStatements = {
  keyOf: (p: RoundPosting) => playerAccountId(p.round.brandId, p.round.playerId, p.round.currency),
  part: (p: RoundPosting, suffix: string): StatementPart => playerRowPart(roundPosting(p.round, p.limits), suffix).part,
  // With or without a WIN, with or without limits: the four texts of a round.
  shapeOf: (p: RoundPosting) => `${compareMoney(p.round.payout, 0) > 0 ? 'w' : '-'}${p.limits ? 'l' : '-'}`,
};
export type PostRounds = (p: RoundPosting) => Promise<{ balance_after: string }[]>;

/**
 * Posts the round; returns the stakeable balance after it, or undefined when nothing was written
 * (not enough to stake, no account, this clientRoundId is played already, or the session has
 * ended by the round's time: its row's `expires_at` is read in the statement itself, so a
 * session ended early is not played on by a round that passed the handler's first look). With
 * `limits`, also when the counters are not of the current periods or a limit does not hold.
 * Through `group` (shared with concurrent rounds) when given, otherwise alone on `sql` (a
 * transaction's).
 */
export async function postRealRound(sql: SqlRunner, r: RealRound, limits?: RoundLimits, group?: PostRounds): Promise<{ balanceAfter: string } | undefined> {
  const rows = group
    ? await group({ round: r, ...(limits ? { limits } : {}) })
    : [(await postOnPlayerRow<{ balance_after: string }>(sql, roundPosting(r, limits))).row].filter((x) => x !== undefined);
  const row = rows[0];
  return row ? { balanceAfter: formatMoney(row.balance_after) } : undefined;
}
