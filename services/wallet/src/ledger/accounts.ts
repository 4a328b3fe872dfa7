// Accounts are created lazily and locked in one order: the player's account first, then the
// brand clearing account, so two money transactions never wait on each other in a cycle.
// (A real-money game round locks its session row before both; nothing else locks sessions.)
import type { EntityManager } from '@mikro-orm/postgresql';

export type AccountKind = 'player' | 'deposit_clearing' | 'payout_clearing' | 'game_clearing';

export interface LockedAccount {
  id: string;
  kind: AccountKind;
  available: string;
  held: string;
  entryCount: number;
}

/** Deterministic ids: the account of a (brand, player, currency) needs no lookup to be found. */
export function playerAccountId(brandId: string, playerId: string, currency: string): string {
  return `acct:player:${brandId}:${playerId}:${currency}`;
}
export function clearingAccountId(brandId: string, kind: Exclude<AccountKind, 'player'>, currency: string): string {
  return `acct:${kind}:${brandId}:${currency}`;
}

interface AccountRow { id: string; kind: AccountKind; available: string; held: string; entry_count: string | number }
const toLocked = (r: AccountRow): LockedAccount => ({ id: r.id, kind: r.kind, available: r.available, held: r.held, entryCount: Number(r.entry_count) });

async function lockAccount(tx: EntityManager, id: string): Promise<LockedAccount> {
  const rows = await tx.execute<AccountRow[]>(
    'select id, kind, available, held, entry_count from wallet.accounts where id = ? for update', [id]);
  if (!rows[0]) throw new Error(`account ${id} vanished`);
  return toLocked(rows[0]);
}

export async function lockPlayerAccount(tx: EntityManager, brandId: string, playerId: string, currency: string): Promise<LockedAccount> {
  const id = playerAccountId(brandId, playerId, currency);
  await tx.execute(
    `insert into wallet.accounts (id, kind, brand_id, player_id, currency) values (?, 'player', ?, ?, ?) on conflict do nothing`,
    [id, brandId, playerId, currency]);
  return lockAccount(tx, id);
}

export async function lockClearingAccount(tx: EntityManager, brandId: string, kind: Exclude<AccountKind, 'player'>, currency: string): Promise<LockedAccount> {
  const id = clearingAccountId(brandId, kind, currency);
  await tx.execute(
    `insert into wallet.accounts (id, kind, brand_id, currency) values (?, ?, ?, ?) on conflict do nothing`,
    [id, kind, brandId, currency]);
  return lockAccount(tx, id);
}

/** Locks an existing account by id (holds know their account). */
export async function lockAccountById(tx: EntityManager, id: string): Promise<LockedAccount> {
  return lockAccount(tx, id);
}

export async function setHeld(tx: EntityManager, account: LockedAccount, held: string): Promise<void> {
  await tx.execute('update wallet.accounts set held = ?, updated_at = now() where id = ?', [held, account.id]);
  account.held = held;
}
