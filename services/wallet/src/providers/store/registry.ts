// Our team's register of providers (docs/providers.md, "Providers"): the providers, their keys per
// environment (looked up by SHA-256; secrets sealed with SECRETS_MASTER_KEY, shown once), the
// operators they are offered to, and their games (rows of wallet.games). Plain SQL: small tables
// read by id, and a key lookup on the gateway's miss path.
import type { Environment, ProviderKind, ProviderProtocol } from '@bo/contracts';
import { isoTime, type SqlRunner } from '@bo/service-kit';

export interface ProviderRow {
  id: string;
  name: string;
  kind: ProviderKind;
  protocol: ProviderProtocol;
  status: 'enabled' | 'disabled';
  launchUrl: string | null;
  launchTimeoutMs: number;
  allowedIps: string[];
  openRoundLimitMinutes: number;
  operatorIds: string[];
  createdAt: string;
}

const PROVIDER_SELECT = `select p.id, p.name, p.kind, p.protocol, p.status, p.launch_url as "launchUrl", p.launch_timeout_ms as "launchTimeoutMs",
  p.allowed_ips as "allowedIps", p.open_round_limit_minutes as "openRoundLimitMinutes", p.created_at as "createdAt",
  coalesce((select array_agg(po.operator_id order by po.operator_id) from wallet.provider_operators po where po.provider_id = p.id), '{}') as "operatorIds"
  from wallet.providers p`;

const asProvider = (r: ProviderRow): ProviderRow => ({ ...r, createdAt: isoTime(r.createdAt) });

export async function listProviders(sql: SqlRunner): Promise<ProviderRow[]> {
  return (await sql.query<ProviderRow>(`${PROVIDER_SELECT} order by p.created_at, p.id`)).map(asProvider);
}

export async function findProvider(sql: SqlRunner, id: string): Promise<ProviderRow | undefined> {
  const [row] = await sql.query<ProviderRow>(`${PROVIDER_SELECT} where p.id = ?`, [id]);
  return row && asProvider(row);
}

/**
 * Locks the provider's row against other changes for the caller's transaction (`no key update`:
 * the provider calls' rows that reference it are not held up); false when there is none.
 */
export async function lockProvider(tx: SqlRunner, id: string): Promise<boolean> {
  return (await tx.query('select 1 from wallet.providers where id = ? for no key update', [id])).length === 1;
}

export async function insertProvider(
  sql: SqlRunner,
  p: {
    id: string;
    name: string;
    kind: ProviderKind;
    protocol: ProviderProtocol;
    launchUrl: string | null;
    launchTimeoutMs: number;
    allowedIps: string[];
    openRoundLimitMinutes: number;
  },
): Promise<void> {
  await sql.query(
    `insert into wallet.providers (id, name, kind, protocol, launch_url, launch_timeout_ms, allowed_ips, open_round_limit_minutes) values (?, ?, ?, ?, ?, ?, ?::text[], ?)`,
    [p.id, p.name, p.kind, p.protocol, p.launchUrl, p.launchTimeoutMs, p.allowedIps, p.openRoundLimitMinutes],
  );
}

export async function updateProvider(
  sql: SqlRunner,
  id: string,
  c: { status?: 'enabled' | 'disabled'; launchUrl?: string | null; launchTimeoutMs?: number; allowedIps?: string[]; openRoundLimitMinutes?: number },
): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [];
  const set = (column: string, value: unknown, cast = '') => {
    sets.push(`${column} = ?${cast}`);
    params.push(value);
  };
  if (c.status !== undefined) set('status', c.status);
  if (c.launchUrl !== undefined) set('launch_url', c.launchUrl);
  if (c.launchTimeoutMs !== undefined) set('launch_timeout_ms', c.launchTimeoutMs);
  if (c.allowedIps !== undefined) set('allowed_ips', c.allowedIps, '::text[]');
  if (c.openRoundLimitMinutes !== undefined) set('open_round_limit_minutes', c.openRoundLimitMinutes);
  await sql.query(`update wallet.providers set updated_at = now()${sets.map((s) => `, ${s}`).join('')} where id = ?`, [...params, id]);
}

export async function setProviderOperator(sql: SqlRunner, providerId: string, operatorId: string, enabled: boolean): Promise<void> {
  if (enabled)
    await sql.query('insert into wallet.provider_operators (provider_id, operator_id) values (?, ?) on conflict do nothing', [providerId, operatorId]);
  else await sql.query('delete from wallet.provider_operators where provider_id = ? and operator_id = ?', [providerId, operatorId]);
}

// ---- credentials --------------------------------------------------------------------------------

export interface CredentialRow {
  id: string;
  providerId: string;
  environment: Environment;
  keyPrefix: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

const CREDENTIAL_SELECT = `select id, provider_id as "providerId", environment, key_prefix as "keyPrefix", expires_at as "expiresAt",
  revoked_at as "revokedAt", created_at as "createdAt" from wallet.provider_credentials`;

const asCredential = (r: CredentialRow): CredentialRow => ({
  ...r,
  expiresAt: r.expiresAt && new Date(r.expiresAt),
  revokedAt: r.revokedAt && new Date(r.revokedAt),
  createdAt: new Date(r.createdAt),
});

export async function listCredentials(sql: SqlRunner, providerId: string): Promise<CredentialRow[]> {
  return (await sql.query<CredentialRow>(`${CREDENTIAL_SELECT} where provider_id = ? order by created_at, id`, [providerId])).map(asCredential);
}

/**
 * A new key of the environment; the environment's keys in force end at `endsAt` (a rotation's
 * overlap; now: at once), or earlier if an earlier rotation set that. One transaction.
 */
export async function insertCredential(
  sql: SqlRunner,
  c: { id: string; providerId: string; environment: Environment; keyHash: string; keyPrefix: string; secretSealed: string; endsAt: Date | null },
): Promise<void> {
  await sql.query(
    `with ended as (update wallet.provider_credentials set expires_at = least(coalesce(expires_at, ?::timestamptz), ?::timestamptz)
                    where ?::timestamptz is not null and provider_id = ? and environment = ? and revoked_at is null
                      and (expires_at is null or expires_at > now())
                    returning 1)
     insert into wallet.provider_credentials (id, provider_id, environment, key_hash, key_prefix, secret_sealed)
     select ?, ?, ?, ?, ?, ? from (select count(*) from ended) e`,
    [c.endsAt, c.endsAt, c.endsAt, c.providerId, c.environment, c.id, c.providerId, c.environment, c.keyHash, c.keyPrefix, c.secretSealed],
  );
}

export async function revokeCredential(sql: SqlRunner, providerId: string, credentialId: string): Promise<CredentialRow | undefined> {
  const [row] = await sql.query<CredentialRow>(
    `update wallet.provider_credentials set revoked_at = coalesce(revoked_at, now()) where provider_id = ? and id = ?
     returning id, provider_id as "providerId", environment, key_prefix as "keyPrefix", expires_at as "expiresAt", revoked_at as "revokedAt", created_at as "createdAt"`,
    [providerId, credentialId],
  );
  return row && asCredential(row);
}

/** The gateway's lookup: a key in force (not revoked, not past its end) by its SHA-256, with its provider's standing. */
export async function credentialByKeyHash(
  sql: SqlRunner,
  keyHash: string,
): Promise<
  | {
      providerId: string;
      providerName: string;
      providerStatus: 'enabled' | 'disabled';
      environment: Environment;
      allowedIps: string[];
      secretSealed: string;
      expiresAt: Date | null;
    }
  | undefined
> {
  const [row] = await sql.query<{
    providerId: string;
    providerName: string;
    providerStatus: 'enabled' | 'disabled';
    environment: Environment;
    allowedIps: string[];
    secretSealed: string;
    expiresAt: Date | null;
  }>(
    `select c.provider_id as "providerId", p.name as "providerName", p.status as "providerStatus", c.environment, p.allowed_ips as "allowedIps",
            c.secret_sealed as "secretSealed", c.expires_at as "expiresAt"
     from wallet.provider_credentials c join wallet.providers p on p.id = c.provider_id
     where c.key_hash = ? and c.revoked_at is null and (c.expires_at is null or c.expires_at > now())`,
    [keyHash],
  );
  return row && { ...row, expiresAt: row.expiresAt && new Date(row.expiresAt) };
}

// ---- games --------------------------------------------------------------------------------------

export interface ProviderGameRow {
  id: string;
  providerId: string;
  gameCode: string;
  name: string;
  category: string;
  enabled: boolean;
}

const GAME_SELECT = `select id, provider_id as "providerId", game_code as "gameCode", name, category, enabled from wallet.games`;

export async function listProviderGames(sql: SqlRunner, providerId: string): Promise<ProviderGameRow[]> {
  return sql.query<ProviderGameRow>(`${GAME_SELECT} where provider_id = ? order by sort_order, game_code`, [providerId]);
}

export async function findProviderGame(sql: SqlRunner, providerId: string, gameCode: string): Promise<ProviderGameRow | undefined> {
  const [row] = await sql.query<ProviderGameRow>(`${GAME_SELECT} where provider_id = ? and game_code = ?`, [providerId, gameCode]);
  return row;
}

/** Adds the provider's game, or changes its name, category and enabled; returns it. */
export async function putProviderGame(
  sql: SqlRunner,
  g: { newId: string; providerId: string; providerName: string; gameCode: string; name: string; category: string; enabled: boolean },
): Promise<ProviderGameRow> {
  const [row] = await sql.query<ProviderGameRow>(
    `insert into wallet.games (id, name, provider, category, kind, adapter, enabled, sort_order, provider_id, game_code)
     values (?, ?, ?, ?, 'external', 'remote', ?, 1000, ?, ?)
     on conflict (provider_id, game_code) where provider_id is not null
       do update set name = excluded.name, category = excluded.category, enabled = excluded.enabled
     returning id, provider_id as "providerId", game_code as "gameCode", name, category, enabled`,
    [g.newId, g.name, g.providerName, g.category, g.enabled, g.providerId, g.gameCode],
  );
  return row!;
}

/** Casino rounds open longer than the provider's limit, oldest first (at most 500). */
export async function openRoundsPastLimit(sql: SqlRunner, providerId: string) {
  return sql.query<{ providerId: string; roundId: string; playerId: string; brandId: string; gameCode: string; staked: string; openedAt: string }>(
    `select r.provider_id as "providerId", r.round_id as "roundId", r.player_id as "playerId", r.brand_id as "brandId", g.game_code as "gameCode",
            r.staked::text as staked, r.opened_at as "openedAt"
     from wallet.provider_rounds r join wallet.providers p on p.id = r.provider_id join wallet.games g on g.id = r.game_id
     where r.provider_id = ? and r.status = 'open' and r.kind = 'casino'
       and r.opened_at < now() - make_interval(mins => p.open_round_limit_minutes)
     order by r.opened_at limit 500`,
    [providerId],
  );
}
