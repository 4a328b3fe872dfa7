// A provider's connectors (docs/connectors.md): settings per environment, keys (theirs and ours),
// and the health the gateways report. Plain SQL: a few small rows read by key; the gateway's
// lookup happens on a miss of its cache.
import type { ConnectorKeyOwner, ConnectorSettings, Environment } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';
import type { ConnectorKeyRow, ConnectorSecretRow } from '../domain/connector-keys.ts';

export interface ConnectorSettingsRow {
  environment: Environment;
  settings: ConnectorSettings;
  updatedAt: Date;
}

export async function connectorSettings(sql: SqlRunner, providerId: string): Promise<ConnectorSettingsRow[]> {
  const rows = await sql.query<ConnectorSettingsRow>(
    `select environment, settings, updated_at as "updatedAt" from wallet.provider_connectors where provider_id = ? order by environment`,
    [providerId],
  );
  return rows.map((r) => ({ ...r, updatedAt: new Date(r.updatedAt) }));
}

export async function putConnectorSettings(sql: SqlRunner, providerId: string, environment: Environment, settings: ConnectorSettings): Promise<void> {
  await sql.query(
    `insert into wallet.provider_connectors (provider_id, environment, settings) values (?, ?, ?::jsonb)
     on conflict (provider_id, environment) do update set settings = excluded.settings, updated_at = now()`,
    [providerId, environment, JSON.stringify(settings)],
  );
}

/** The database's clock (its transaction's start): what a key's start and end are compared with. */
export async function databaseNow(sql: SqlRunner): Promise<Date> {
  const [row] = await sql.query<{ now: Date }>('select now() as now');
  return new Date(row!.now);
}

const KEY_SELECT = `select id, environment, owner, public_key as "publicKey", fingerprint, starts_at as "startsAt", expires_at as "expiresAt",
  revoked_at as "revokedAt", created_at as "createdAt" from wallet.provider_connector_keys`;

const asKey = (r: ConnectorKeyRow): ConnectorKeyRow => ({
  ...r,
  startsAt: new Date(r.startsAt),
  expiresAt: r.expiresAt && new Date(r.expiresAt),
  revokedAt: r.revokedAt && new Date(r.revokedAt),
  createdAt: new Date(r.createdAt),
});

/** Every key of the provider (both environments), newest first. */
export async function connectorKeys(sql: SqlRunner, providerId: string): Promise<ConnectorKeyRow[]> {
  return (await sql.query<ConnectorKeyRow>(`${KEY_SELECT} where provider_id = ? order by created_at desc, id desc`, [providerId])).map(asKey);
}

/**
 * A new key: theirs verifies from now, and their keys in force end at `overlapEnd` (now: at once);
 * ours starts signing at `overlapEnd`, where our keys in force end, and a pair of ours still waiting
 * for an earlier rotation's overlap is revoked (the newest rotation is the one that happens). One
 * statement (each row changed once: the waiting ones are not among those in force).
 */
export async function insertConnectorKey(
  sql: SqlRunner,
  k: {
    id: string;
    providerId: string;
    environment: Environment;
    owner: ConnectorKeyOwner;
    publicKey: string;
    fingerprint: string;
    privateKeySealed: string | null;
    now: Date;
    overlapEnd: Date;
  },
): Promise<ConnectorKeyRow> {
  const startsAt = k.owner === 'ours' ? k.overlapEnd : k.now;
  const [row] = await sql.query<ConnectorKeyRow>(
    `with ended as (update wallet.provider_connector_keys set expires_at = least(coalesce(expires_at, ?::timestamptz), ?::timestamptz)
                    where provider_id = ? and environment = ? and owner = ? and revoked_at is null
                      and (expires_at is null or expires_at > ?::timestamptz) and starts_at <= ?::timestamptz
                    returning 1),
     waiting as (update wallet.provider_connector_keys set revoked_at = ?::timestamptz
                 where provider_id = ? and environment = ? and owner = 'ours' and ?::text = 'ours' and revoked_at is null and starts_at > ?::timestamptz
                 returning 1)
     insert into wallet.provider_connector_keys (id, provider_id, environment, owner, public_key, fingerprint, private_key_sealed, starts_at, created_at)
     select ?, ?, ?, ?, ?, ?, ?, ?, ? from (select count(*) from ended) e, (select count(*) from waiting) w
     returning id, environment, owner, public_key as "publicKey", fingerprint, starts_at as "startsAt", expires_at as "expiresAt",
               revoked_at as "revokedAt", created_at as "createdAt"`,
    [
      k.overlapEnd,
      k.overlapEnd,
      k.providerId,
      k.environment,
      k.owner,
      k.overlapEnd,
      k.now,
      k.now,
      k.providerId,
      k.environment,
      k.owner,
      k.now,
      k.id,
      k.providerId,
      k.environment,
      k.owner,
      k.publicKey,
      k.fingerprint,
      k.privateKeySealed,
      startsAt,
      k.now,
    ],
  );
  return asKey(row!);
}

export async function revokeConnectorKey(sql: SqlRunner, providerId: string, environment: Environment, keyId: string): Promise<ConnectorKeyRow | undefined> {
  const [row] = await sql.query<ConnectorKeyRow>(
    `update wallet.provider_connector_keys set revoked_at = coalesce(revoked_at, now()) where provider_id = ? and environment = ? and id = ?
     returning id, environment, owner, public_key as "publicKey", fingerprint, starts_at as "startsAt", expires_at as "expiresAt",
               revoked_at as "revokedAt", created_at as "createdAt"`,
    [providerId, environment, keyId],
  );
  return row && asKey(row);
}

/** Their keys verifying now (PEM and end), for the gateway. */
export async function theirKeysInForce(
  sql: SqlRunner,
  providerId: string,
  environment: Environment,
): Promise<Array<{ publicKey: string; expiresAt: Date | null }>> {
  const rows = await sql.query<{ publicKey: string; expiresAt: Date | null }>(
    `select public_key as "publicKey", expires_at as "expiresAt" from wallet.provider_connector_keys
     where provider_id = ? and environment = ? and owner = 'theirs' and revoked_at is null and starts_at <= now() and (expires_at is null or expires_at > now())
     order by starts_at desc`,
    [providerId, environment],
  );
  return rows.map((r) => ({ ...r, expiresAt: r.expiresAt && new Date(r.expiresAt) }));
}

/** Our key pair signing now (its private key sealed), for our calls to the aggregator. */
export async function ourSigningKey(
  sql: SqlRunner,
  providerId: string,
  environment: Environment,
): Promise<{ id: string; privateKeySealed: string } | undefined> {
  const [row] = await sql.query<{ id: string; privateKeySealed: string }>(
    `select id, private_key_sealed as "privateKeySealed" from wallet.provider_connector_keys
     where provider_id = ? and environment = ? and owner = 'ours' and revoked_at is null and starts_at <= now() and (expires_at is null or expires_at > now())
     order by starts_at desc limit 1`,
    [providerId, environment],
  );
  return row;
}

// ---- shared secrets (Evolution's tokens) -------------------------------------------------------

const SECRET_COLUMNS = `id, environment, name, owner, fingerprint, starts_at as "startsAt", expires_at as "expiresAt", revoked_at as "revokedAt", created_at as "createdAt"`;

const asSecret = (r: ConnectorSecretRow): ConnectorSecretRow => ({
  ...r,
  startsAt: new Date(r.startsAt),
  expiresAt: r.expiresAt && new Date(r.expiresAt),
  revokedAt: r.revokedAt && new Date(r.revokedAt),
  createdAt: new Date(r.createdAt),
});

/** Every shared secret of the provider (both environments), newest first; never their values. */
export async function connectorSecrets(sql: SqlRunner, providerId: string): Promise<ConnectorSecretRow[]> {
  return (
    await sql.query<ConnectorSecretRow>(
      `select ${SECRET_COLUMNS} from wallet.provider_connector_secrets where provider_id = ? order by created_at desc, id desc`,
      [providerId],
    )
  ).map(asSecret);
}

/**
 * A new value of a secret: it works from now, and the same secret's values in force end at
 * `overlapEnd` (now: at once). One statement.
 */
export async function insertConnectorSecret(
  sql: SqlRunner,
  k: {
    id: string;
    providerId: string;
    environment: Environment;
    name: string;
    owner: ConnectorKeyOwner;
    sealed: string;
    fingerprint: string;
    now: Date;
    overlapEnd: Date;
  },
): Promise<ConnectorSecretRow> {
  const [row] = await sql.query<ConnectorSecretRow>(
    `with ended as (update wallet.provider_connector_secrets set expires_at = least(coalesce(expires_at, ?::timestamptz), ?::timestamptz)
                    where provider_id = ? and environment = ? and name = ? and revoked_at is null
                      and (expires_at is null or expires_at > ?::timestamptz) and starts_at <= ?::timestamptz
                    returning 1)
     insert into wallet.provider_connector_secrets (id, provider_id, environment, name, owner, sealed, fingerprint, starts_at, created_at)
     select ?, ?, ?, ?, ?, ?, ?, ?, ? from (select count(*) from ended) e
     returning ${SECRET_COLUMNS}`,
    [
      k.overlapEnd,
      k.overlapEnd,
      k.providerId,
      k.environment,
      k.name,
      k.now,
      k.now,
      k.id,
      k.providerId,
      k.environment,
      k.name,
      k.owner,
      k.sealed,
      k.fingerprint,
      k.now,
      k.now,
    ],
  );
  return asSecret(row!);
}

export async function revokeConnectorSecret(sql: SqlRunner, providerId: string, environment: Environment, id: string): Promise<ConnectorSecretRow | undefined> {
  const [row] = await sql.query<ConnectorSecretRow>(
    `update wallet.provider_connector_secrets set revoked_at = coalesce(revoked_at, now()) where provider_id = ? and environment = ? and id = ?
     returning ${SECRET_COLUMNS}`,
    [providerId, environment, id],
  );
  return row && asSecret(row);
}

/** The secrets of `owner` in force now (sealed), newest first: theirs for the gateway, ours for our calls. */
export async function secretsInForce(
  sql: SqlRunner,
  providerId: string,
  environment: Environment,
  owner: ConnectorKeyOwner,
): Promise<Array<{ name: string; sealed: string; expiresAt: Date | null }>> {
  const rows = await sql.query<{ name: string; sealed: string; expiresAt: Date | null }>(
    `select name, sealed, expires_at as "expiresAt" from wallet.provider_connector_secrets
     where provider_id = ? and environment = ? and owner = ? and revoked_at is null and starts_at <= now() and (expires_at is null or expires_at > now())
     order by starts_at desc`,
    [providerId, environment, owner],
  );
  return rows.map((r) => ({ ...r, expiresAt: r.expiresAt && new Date(r.expiresAt) }));
}

// ---- health -------------------------------------------------------------------------------------

/** Adds the gateways' counts to their hour, and forgets hours older than two days. */
export async function recordConnectorHealth(
  sql: SqlRunner,
  counts: ReadonlyArray<{ providerId: string; environment: Environment; status: string; calls: number; lastAt: string }>,
): Promise<number> {
  if (counts.length === 0) return 0;
  const rows = await sql.query<{ n: number }>(
    `with c as (select * from jsonb_to_recordset(?::jsonb) as c("providerId" text, environment text, status text, calls bigint, "lastAt" timestamptz)),
     up as (insert into wallet.provider_connector_health (provider_id, environment, hour, status, calls, last_at)
            select c."providerId", c.environment, date_trunc('hour', now()), c.status, sum(c.calls), max(c."lastAt")
            from c join wallet.providers p on p.id = c."providerId"
            group by c."providerId", c.environment, c.status
            on conflict (provider_id, environment, hour, status)
              do update set calls = wallet.provider_connector_health.calls + excluded.calls,
                            last_at = greatest(wallet.provider_connector_health.last_at, excluded.last_at)
            returning 1),
     old as (delete from wallet.provider_connector_health where hour < now() - interval '2 days' returning 1)
     select (select count(*) from up)::int as n`,
    [JSON.stringify(counts)],
  );
  return rows[0]?.n ?? 0;
}

/** The last 24 hours' answers by status, and the last call (whenever it was), per environment. */
export async function connectorHealthOf(
  sql: SqlRunner,
  providerId: string,
): Promise<Array<{ environment: Environment; status: string; calls: string; lastAt: Date }>> {
  const rows = await sql.query<{ environment: Environment; status: string; calls: string; lastAt: Date }>(
    `select environment, status, sum(calls) filter (where hour >= now() - interval '24 hours')::text as calls, max(last_at) as "lastAt"
     from wallet.provider_connector_health where provider_id = ? group by environment, status`,
    [providerId],
  );
  return rows.map((r) => ({ ...r, calls: r.calls ?? '0', lastAt: new Date(r.lastAt) }));
}
