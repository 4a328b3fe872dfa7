// Two kinds of accounts (docs/money.md, "Hot accounts"):
// - player accounts keep a running balance under a row lock, because their balance gates
//   decisions (never below zero, holds must fit): lock, check, post, update;
// - brand clearing accounts are append-only on the hot path: a posting inserts their entry and
//   never locks or updates their row, so the money of one brand is not serialised on one row.
//   Their balance is derived (wallet.account_balances; rolled up in the background, rollup.ts); their ids are ../domain/account-ids.ts.
// A real-money game round locks its session row before the player's; nothing else locks sessions.
import type { Sql, SqlRunner } from '@bo/service-kit';
import { clearingAccountId, playerAccountId, providerClearingAccountId, type AccountKind, type ClearingKind } from '../domain/account-ids.ts';

export interface LockedAccount {
  id: string;
  kind: AccountKind;
  available: string;
  held: string;
  entryCount: number;
}

interface AccountRow {
  id: string;
  kind: AccountKind;
  available: string;
  held: string;
  entry_count: string | number;
}
const toLocked = (r: AccountRow): LockedAccount => ({ id: r.id, kind: r.kind, available: r.available, held: r.held, entryCount: Number(r.entry_count) });

async function lockAccount(tx: SqlRunner, id: string): Promise<LockedAccount | undefined> {
  const rows = await tx.query<AccountRow>('select id, kind, available, held, entry_count from wallet.accounts where id = ? for update', [id]);
  return rows[0] ? toLocked(rows[0]) : undefined;
}

/** Locks the player's account, creating it at 0.00 first if it does not exist (one statement when it does). */
export async function lockPlayerAccount(tx: SqlRunner, brandId: string, playerId: string, currency: string): Promise<LockedAccount> {
  const id = playerAccountId(brandId, playerId, currency);
  const found = await lockAccount(tx, id);
  if (found) return found;
  await createPlayerAccount(tx, brandId, playerId, currency);
  const created = await lockAccount(tx, id);
  if (!created) throw new Error(`account ${id} vanished`);
  return created;
}

/** Creates the player's account at 0.00 unless it exists; returns its id. */
export async function createPlayerAccount(tx: SqlRunner, brandId: string, playerId: string, currency: string): Promise<string> {
  const id = playerAccountId(brandId, playerId, currency);
  await tx.query(`insert into wallet.accounts (id, kind, brand_id, player_id, currency) values (?, 'player', ?, ?, ?) on conflict do nothing`, [
    id,
    brandId,
    playerId,
    currency,
  ]);
  return id;
}

// Clearing accounts known to exist, per database. They are
// created in their own committed statement, never inside a money transaction, so an entry in
// this set can never be rolled back; after the first posting of a brand this costs nothing.
const knownClearing = new WeakMap<Sql, Set<string>>();

/** The id of the brand's clearing account, created (committed, unlocked) if it is new. */
export function ensureClearingAccount(sql: Sql, brandId: string, kind: ClearingKind, currency: string): Promise<string> {
  return ensureAccount(sql, clearingAccountId(brandId, kind, currency), kind, brandId, currency);
}

/** The brand's clearing account with a game provider, created (committed, unlocked) if it is new. */
export function ensureProviderClearingAccount(sql: Sql, brandId: string, providerId: string, currency: string): Promise<string> {
  return ensureAccount(sql, providerClearingAccountId(brandId, providerId, currency), 'provider_clearing', brandId, currency);
}

async function ensureAccount(sql: Sql, id: string, kind: Exclude<AccountKind, 'player'>, brandId: string, currency: string): Promise<string> {
  let known = knownClearing.get(sql);
  if (!known) {
    known = new Set();
    knownClearing.set(sql, known);
  }
  if (known.has(id)) return id;
  await sql.query(`insert into wallet.accounts (id, kind, brand_id, currency) values (?, ?, ?, ?) on conflict do nothing`, [id, kind, brandId, currency]);
  known.add(id);
  return id;
}

/** Locks an existing account by id (holds know their account). */
export async function lockAccountById(tx: SqlRunner, id: string): Promise<LockedAccount> {
  const found = await lockAccount(tx, id);
  if (!found) throw new Error(`account ${id} vanished`);
  return found;
}

export async function setHeld(tx: SqlRunner, account: LockedAccount, held: string): Promise<void> {
  await tx.query('update wallet.accounts set held = ?, updated_at = now() where id = ?', [held, account.id]);
  account.held = held;
}
