// The win path's hook (issue #60 item 3): the providers module's win asks this before it credits a
// sports slip's prize. While our compliance team holds the slip, the win is accepted and kept on the
// brand's integrity-hold account instead of the player's (store/holds.ts, postHeldWin); otherwise the
// win goes on as usual. A win that read the slip before a hold committed is refused by the round's
// trigger (`must:round`) and read again by the win path, which then comes here.
import { crashPoint, type Sql } from '@bo/service-kit';
import { ensureClearingAccount } from '../../ledger/index.ts';
import { holdIdOfRound, postHeldWin, type HeldWin, type WinOfSlip } from '../store/holds.ts';

/** Is this slip held? Its win kept on the hold account (`held`), or not held (`held: false`; `taken`: the id was taken meanwhile). */
export async function holdWinIfHeld(sql: Sql, w: WinOfSlip): Promise<HeldWin> {
  // One cheap read first: most slips are never held, and their wins take no transaction here.
  if (!(await holdIdOfRound(sql, w.providerId, w.roundId))) return { held: false };
  // The brand's hold account, ensured before the transaction (a committed statement of its own).
  const holdAccountId = await ensureClearingAccount(sql, w.brandId, 'integrity_hold', w.currency);
  const held = await sql.transaction((tx) => postHeldWin(tx, w, holdAccountId));
  if (held.held) crashPoint('wallet.integrity.heldWin.after-commit');
  return held;
}
