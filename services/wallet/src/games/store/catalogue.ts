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
}

/** The provider's launch settings of a game offered to the operator; undefined for a built-in game or one not offered. */
export async function providerLaunchOf(
  sql: SqlRunner,
  gameId: string,
  operatorId: string,
  environment: Environment,
): Promise<ProviderLaunchConfig | undefined> {
  const [row] = await sql.query<ProviderLaunchConfig>(
    `select p.id as "providerId", g.game_code as "gameCode", p.launch_url as "launchUrl", p.launch_timeout_ms as "timeoutMs"
     from wallet.games g join wallet.providers p on p.id = g.provider_id
     where g.id = ? and ${OFFERED}`,
    [gameId, operatorId, environment],
  );
  return row;
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
    createdAt: Date;
  },
): Promise<void> {
  await sql.query(
    `insert into wallet.provider_sessions (id, token_hash, provider_id, game_session_id, operator_id, brand_id, environment, player_id, game_id, currency, expires_at, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [s.id, s.tokenHash, s.providerId, s.gameSessionId, s.operatorId, s.brandId, s.environment, s.playerId, s.gameId, s.currency, s.expiresAt, s.createdAt],
  );
}
