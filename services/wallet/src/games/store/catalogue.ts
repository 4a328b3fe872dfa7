// The catalogue as an operator sees it (GET /games, and the game a session opens): the built-in
// games and the games of the providers enabled for the operator, only while the provider and the
// game are enabled (docs/providers.md). Plain SQL: a provider's standing is three tables.
import { SANDBOX_PROVIDER, type Environment, type Game } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';

// The built-in sandbox provider is offered to every operator in the sandbox and never in
// production, whatever our team enabled (docs/providers.md, "The built-in sandbox provider").
const OFFERED = `g.enabled and (g.provider_id is null or exists (
       select 1 from wallet.providers p left join wallet.provider_operators po on po.provider_id = p.id and po.operator_id = ?
       where p.id = g.provider_id and p.status = 'enabled'
         and case when p.id = '${SANDBOX_PROVIDER.id}' then ?::text = 'sandbox' else po.operator_id is not null end))`;

export async function offeredGames(sql: SqlRunner, operatorId: string, environment: Environment): Promise<Game[]> {
  return sql.query<Game>(`select g.id, g.name, g.provider, g.category from wallet.games g where ${OFFERED} order by g.sort_order, g.id`, [
    operatorId,
    environment,
  ]);
}

/** A provider's game: where and how long to ask for its launch. */
export interface ProviderLaunchConfig {
  providerId: string;
  gameCode: string;
  launchUrl: string | null;
  timeoutMs: number;
  /** `native` (its launch URL) or a connector's protocol (docs/connectors.md), launched through the aggregator's own API. */
  protocol: string;
  /**
   * A connector's settings for the session's environment and our key pair signing now (its private
   * key sealed): read here from the providers module's tables, which this module does not import.
   */
  connector: { settings: unknown; privateKeySealed: string | null; secretsSealed: Record<string, string> } | null;
}

/** The provider's launch settings of a game offered to the operator; undefined for a built-in game or one not offered. */
export async function providerLaunchOf(
  sql: SqlRunner,
  gameId: string,
  operatorId: string,
  environment: Environment,
): Promise<ProviderLaunchConfig | undefined> {
  const [row] = await sql.query<
    Omit<ProviderLaunchConfig, 'connector'> & { settings: unknown; privateKeySealed: string | null; secretsSealed: Record<string, string> | null }
  >(
    `select p.id as "providerId", g.game_code as "gameCode", p.launch_url as "launchUrl", p.launch_timeout_ms as "timeoutMs", p.protocol,
            c.settings, k.private_key_sealed as "privateKeySealed",
            -- our shared secrets in force (Evolution's casino token), the latest of each name
            (select jsonb_object_agg(x.name, x.sealed) from (
               select distinct on (s.name) s.name, s.sealed from wallet.provider_connector_secrets s
               where p.protocol <> 'native' and s.provider_id = p.id and s.environment = ? and s.owner = 'ours' and s.revoked_at is null
                 and s.starts_at <= now() and (s.expires_at is null or s.expires_at > now())
               order by s.name, s.starts_at desc) x) as "secretsSealed"
     from wallet.games g join wallet.providers p on p.id = g.provider_id
     left join wallet.provider_connectors c on p.protocol <> 'native' and c.provider_id = p.id and c.environment = ?
     left join lateral (select private_key_sealed from wallet.provider_connector_keys k
                        where p.protocol <> 'native' and k.provider_id = p.id and k.environment = ? and k.owner = 'ours' and k.revoked_at is null
                          and k.starts_at <= now() and (k.expires_at is null or k.expires_at > now())
                        order by k.starts_at desc limit 1) k on true
     where g.id = ? and ${OFFERED}`,
    [environment, environment, environment, gameId, operatorId, environment],
  );
  if (!row) return undefined;
  const { settings, privateKeySealed, secretsSealed, ...launch } = row;
  return { ...launch, connector: settings ? { settings, privateKeySealed, secretsSealed: secretsSealed ?? {} } : null };
}

/** Binds a provider session token (by its SHA-256) to the game session it was minted for. */
export async function addProviderSession(
  sql: SqlRunner,
  s: {
    id: string;
    tokenHash: string;
    providerId: string;
    gameSessionId: string;
    operatorId: string;
    brandId: string;
    environment: string;
    playerId: string;
    gameId: string;
    currency: string;
    expiresAt: Date;
    /** Its inactivity window (issue #59 item 4): `expiresAt` moves on to each play + this. */
    idleSeconds: number;
    createdAt: Date;
  },
): Promise<void> {
  await sql.query(
    `insert into wallet.provider_sessions (id, token_hash, provider_id, game_session_id, operator_id, brand_id, environment, player_id, game_id, currency, expires_at, idle_seconds, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      s.id,
      s.tokenHash,
      s.providerId,
      s.gameSessionId,
      s.operatorId,
      s.brandId,
      s.environment,
      s.playerId,
      s.gameId,
      s.currency,
      s.expiresAt,
      s.idleSeconds,
      s.createdAt,
    ],
  );
}
