// The closing's statements in the kit's SQL: the restricted players due closed, the closed players
// whose balance payments has not taken yet, and the hand-over's mark.
import type { Closeout } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';

/** `onlyPlayerId`: that player alone (the sandbox's next day). */
const onlyOf = (onlyPlayerId: string | undefined) => (onlyPlayerId === undefined ? { text: '', params: [] } : { text: ' and id = ?', params: [onlyPlayerId] });

interface ClosedPlayer {
  id: string;
  operatorId: string;
  brandId: string;
  environment: 'sandbox' | 'production';
  externalId: string;
}

/** Closes (`encerrado`) at most `limit` players restricted at or before `due`, skipping rows another replica holds. */
export async function closeDue(sql: SqlRunner, now: Date, due: Date, limit: number, onlyPlayerId?: string): Promise<ClosedPlayer[]> {
  const only = onlyOf(onlyPlayerId);
  return sql.query<ClosedPlayer>(
    `update players.players set status = 'encerrado', updated_at = ?
      where id in (select id from players.players where status = 'restrito' and restricted_at is not null and restricted_at <= ?${only.text}
                   order by restricted_at limit ? for update skip locked)
      returning id, operator_id as "operatorId", brand_id as "brandId", environment, external_id as "externalId"`,
    [now, due, ...only.params, limit],
  );
}

/** Every closed-by-impediment player whose balance payments has not taken yet (at most `limit`). */
export async function pendingCloseouts(
  sql: SqlRunner,
  limit: number,
  onlyPlayerId?: string,
): Promise<Array<Omit<Closeout, 'playerId'> & { id: string; restrictedAt: Date | string }>> {
  const only = onlyOf(onlyPlayerId);
  return sql.query<Omit<Closeout, 'playerId'> & { id: string; restrictedAt: Date | string }>(
    `select id, operator_id as "operatorId", brand_id as "brandId", environment, currency, restricted_at as "restrictedAt" from players.players
      where status = 'encerrado' and restricted_at is not null and closeout_done_at is null${only.text} limit ?`,
    [...only.params, limit],
  );
}

export async function markCloseoutDone(sql: SqlRunner, playerId: string, now: Date): Promise<void> {
  await sql.query('update players.players set closeout_done_at = ? where id = ?', [now, playerId]);
}
