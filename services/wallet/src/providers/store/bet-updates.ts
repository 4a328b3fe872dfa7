// A sportsbook's bet data updates (store/bet-update-migrations.ts): kept once each, beside the bet.
import type { BetSlip, Environment } from '@bo/contracts';
import { isoTime, type SqlRunner } from '@bo/service-kit';

export interface BetUpdate {
  providerId: string;
  environment: Environment;
  roundId: string;
  playerId: string;
  version: number | null;
  /** The request's JSON text as sent: Postgres keeps its numbers exact. */
  state: string;
  slip: BetSlip | null;
  status: string | null;
}

/** The state kept: the request but its requestId (each copy's own) and token (a session's secret, not the bet's data). */
const STATE = `(?::jsonb - 'requestId' - 'token')`;

/**
 * Keeps an update of the player's bet (the round of the provider in this environment): its time, or
 * the time of the same state kept before (a copy sent again, or at once, whatever its requestId or token).
 * Undefined when the player has no such bet.
 */
export async function recordBetUpdate(sql: SqlRunner, u: BetUpdate): Promise<{ receivedAt: string } | undefined> {
  const bet = [u.providerId, u.roundId, u.environment, u.playerId];
  const [inserted] = await sql.query<{ receivedAt: Date | string }>(
    `with s as (select ${STATE} as state)
     insert into wallet.provider_bet_updates (provider_id, round_id, version, digest, state, slip, status)
     select r.provider_id, r.round_id, ?::bigint, md5(s.state::text), s.state, ?::jsonb, ?
     from s, wallet.provider_rounds r
     where r.provider_id = ? and r.round_id = ? and r.environment = ? and r.player_id = ?
     on conflict (provider_id, round_id, digest) do nothing
     returning received_at as "receivedAt"`,
    [u.state, u.version, u.slip === null ? null : JSON.stringify(u.slip), u.status, ...bet],
  );
  if (inserted) return { receivedAt: isoTime(inserted.receivedAt) };
  // Kept before (or by a copy that committed first), or no such bet.
  const [kept] = await sql.query<{ receivedAt: Date | string }>(
    `select u.received_at as "receivedAt"
     from wallet.provider_bet_updates u join wallet.provider_rounds r on r.provider_id = u.provider_id and r.round_id = u.round_id
     where u.digest = md5(${STATE}::text) and u.provider_id = ? and u.round_id = ? and r.environment = ? and r.player_id = ?`,
    [u.state, ...bet],
  );
  return kept ? { receivedAt: isoTime(kept.receivedAt) } : undefined;
}
