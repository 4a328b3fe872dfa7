// The money of one real-money game round, posted inside the caller's transaction (the games
// module's round transaction), so a round and its money commit together or not at all:
//   BET  player −amount, brand game clearing +amount
//   WIN  player +payout, brand game clearing −payout   (only when the round pays)
// Sources `game-round:<roundId>:bet|win` are unique, so a round's money is posted at most once
// whatever its caller does. The caller holds the player's account lock from the funds check to
// the commit (docs/money.md, "Play"); the game clearing side is appended, never locked.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '@bo/contracts';
import { compareMoney, formatMoney, subMoney } from '@bo/service-kit';
import { ensureClearingAccount, lockPlayerAccount, type LockedAccount } from './accounts.ts';
import { postTransactions, type AlsoInsert, type NewTransaction, type PostedTransaction } from './post-transaction.ts';

/** What a player can stake: `available − held`. Money reserved for open withdrawals is never bet. */
export function stakeableOf(account: LockedAccount): string {
  return subMoney(account.available, account.held);
}

/** Locks (creating it at 0.00 if need be) the account a round's money moves on. */
export function lockPlayerForRound(tx: EntityManager, brandId: string, playerId: string, currency: string): Promise<LockedAccount> {
  return lockPlayerAccount(tx, brandId, playerId, currency);
}

export interface RoundMoney { brandId: string; currency: string; roundId: string; amount: string; payout: string; clearingAccountId: string }

/** The brand's game clearing account; call before the round's transaction (it may commit a creation). */
export function gameClearingAccount(em: EntityManager, brandId: string, currency: string): Promise<string> {
  return ensureClearingAccount(em, brandId, 'game_clearing', currency);
}
export interface RoundEntries { betEntryId: string; winEntryId: string | null }

/** Thrown when the stake is more than `available − held`; `details.balance` is what could be staked. */
export function insufficientFunds(stakeable: string): AppError {
  return new AppError('INSUFFICIENT_FUNDS', 'The bet is larger than the withdrawable balance.', { balance: formatMoney(stakeable) });
}

/**
 * Posts BET (and WIN) on the locked player account; `player` is updated in place. The entry ids
 * are chosen before the statement, so `roundRow(entries)` can add the round's own insert to it.
 */
export async function postRoundMoney(tx: EntityManager, player: LockedAccount, r: RoundMoney, roundRow?: (e: RoundEntries) => AlsoInsert): Promise<RoundEntries> {
  if (player.kind !== 'player') throw new Error(`round ${r.roundId}: ${player.id} is not a player account`);
  const amount = formatMoney(r.amount);
  const payout = formatMoney(r.payout);
  if (compareMoney(amount, 0) <= 0 || compareMoney(payout, 0) < 0) throw new Error(`round ${r.roundId}: amount ${amount}, payout ${payout}`);
  // The caller checked already; checked again here because this is where the money moves.
  const stakeable = stakeableOf(player);
  if (compareMoney(amount, stakeable) > 0) throw insufficientFunds(stakeable);

  const clearing = r.clearingAccountId;
  const money: NewTransaction[] = [{
    source: `game-round:${r.roundId}:bet`, type: 'BET', brandId: r.brandId, currency: r.currency, referenceId: r.roundId,
    postings: [{ account: player, amount: formatMoney(`-${amount}`) }, { clearingAccountId: clearing, amount }],
  }];
  if (compareMoney(payout, 0) > 0) {
    money.push({
      source: `game-round:${r.roundId}:win`, type: 'WIN', brandId: r.brandId, currency: r.currency, referenceId: r.roundId,
      postings: [{ account: player, amount: payout }, { clearingAccountId: clearing, amount: formatMoney(`-${payout}`) }],
    });
  }
  // BET, WIN and the caller's round row in one statement.
  const entriesOf = ([bet, win]: PostedTransaction[]): RoundEntries => ({ betEntryId: bet.entries[0].id, winEntryId: win ? win.entries[0].id : null });
  return entriesOf(await postTransactions(tx, money, roundRow ? (posted) => roundRow(entriesOf(posted)) : undefined));
}
