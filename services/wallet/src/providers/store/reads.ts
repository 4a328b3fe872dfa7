// What a provider call reads before it moves money: its transaction id's earlier row (a replay),
// the session its token names with the provider's, operator's and game's standing, the round and
// the bet it settles. Plain SQL, one indexed statement each.
import { SANDBOX_PROVIDER, type Environment, type ProviderTransactionKind } from '@bo/contracts';
import { formatMoney, isoTime, type SqlRunner } from '@bo/service-kit';

export interface TransactionRow {
  id: string;
  environment: Environment;
  providerId: string;
  transactionId: string;
  kind: ProviderTransactionKind;
  roundId: string;
  betTransactionId: string | null;
  brandId: string | null;
  playerId: string;
  currency: string;
  requested: string;
  moved: string;
  balanceAfter: string;
  rolledBackBy: string | null;
  neverReceived: boolean;
  /** Issue #66: the call's game code, when it named one (null before the column). */
  gameCode: string | null;
  createdAt: string;
}

const TX_FIELDS = `select id, environment, provider_id as "providerId", transaction_id as "transactionId", kind, round_id as "roundId",
  bet_transaction_id as "betTransactionId", brand_id as "brandId", player_id as "playerId", currency, requested::text, moved::text,
  balance_after::text as "balanceAfter", rolled_back_by as "rolledBackBy", never_received as "neverReceived", game_code as "gameCode",
  created_at as "createdAt"`;
const TX_SELECT = `${TX_FIELDS}
  from wallet.provider_transactions`;

const asTransaction = (r: TransactionRow): TransactionRow => ({
  ...r,
  requested: formatMoney(r.requested),
  moved: formatMoney(r.moved),
  balanceAfter: formatMoney(r.balanceAfter),
  createdAt: isoTime(r.createdAt),
});

/** The provider's transaction with this id, if one was accepted. */
export async function findTransaction(sql: SqlRunner, providerId: string, transactionId: string): Promise<TransactionRow | undefined> {
  const [row] = await sql.query<TransactionRow>(`${TX_SELECT} where provider_id = ? and transaction_id = ?`, [providerId, transactionId]);
  return row && asTransaction(row);
}

/**
 * A bet's transaction id's earlier row, with the player of the bet's session token (a token is
 * bound to its player): null when the token is not one issued to this provider in this
 * environment. One statement: read only when a bet is refused or writes nothing.
 */
export async function findBetUnderToken(
  sql: SqlRunner,
  providerId: string,
  environment: Environment,
  transactionId: string,
  tokenHash: string,
): Promise<(TransactionRow & { tokenPlayerId: string | null }) | undefined> {
  const [row] = await sql.query<TransactionRow & { tokenPlayerId: string | null }>(
    `${TX_FIELDS},
       (select s.player_id from wallet.provider_sessions s where s.token_hash = ? and s.provider_id = ? and s.environment = ?) as "tokenPlayerId"
     from wallet.provider_transactions where provider_id = ? and transaction_id = ?`,
    [tokenHash, providerId, environment, providerId, transactionId],
  );
  return row && { ...asTransaction(row), tokenPlayerId: row.tokenPlayerId };
}

/** A session token's session, with what a bet on it must find in force. */
export interface SessionStanding {
  sessionId: string;
  providerId: string;
  operatorId: string;
  brandId: string;
  environment: Environment;
  playerId: string;
  currency: string;
  gameId: string;
  gameCode: string;
  /** The session's end as it stands now: each bet, refresh and authenticate moves it on by `idleSeconds` (issue #59 item 4). */
  expiresAt: Date;
  idleSeconds: number;
  startedAt: Date;
  providerKind: 'casino' | 'sportsbook';
  providerEnabled: boolean;
  /** The provider's games are offered to the session's operator. */
  operatorEnabled: boolean;
  /** The game the call names (by code), when the provider has one by that code; `certified`: a certificate of it is valid at the read's time (issue #59 item 5). */
  betGame: { id: string; enabled: boolean; certified: boolean } | null;
}

/** The session of a token (by its SHA-256) issued for this provider in this environment; `gameCode`: the game a bet names, at `at`. */
export async function findSession(
  sql: SqlRunner,
  providerId: string,
  environment: Environment,
  tokenHash: string,
  gameCode?: string,
  at: Date = new Date(),
): Promise<SessionStanding | undefined> {
  const [row] = await sql.query<
    Omit<SessionStanding, 'betGame'> & { betGameId: string | null; betGameEnabled: boolean | null; betGameCertified: boolean | null }
  >(
    `select s.id as "sessionId", s.provider_id as "providerId", s.operator_id as "operatorId", s.brand_id as "brandId", s.environment,
            s.player_id as "playerId", s.currency, s.game_id as "gameId", sg.game_code as "gameCode", s.expires_at as "expiresAt",
            s.idle_seconds as "idleSeconds", s.created_at as "startedAt",
            p.kind as "providerKind", p.status = 'enabled' as "providerEnabled", case when p.id = '${SANDBOX_PROVIDER.id}' then s.environment = 'sandbox' else po.operator_id is not null end as "operatorEnabled",
            g.id as "betGameId", g.enabled as "betGameEnabled",
            exists (select 1 from wallet.game_certificates gc where gc.game_id = g.id and gc.valid_from <= ?::timestamptz and gc.valid_to > ?::timestamptz) as "betGameCertified"
     from wallet.provider_sessions s
     join wallet.providers p on p.id = s.provider_id
     join wallet.games sg on sg.id = s.game_id
     left join wallet.provider_operators po on po.provider_id = s.provider_id and po.operator_id = s.operator_id
     left join wallet.games g on g.provider_id = s.provider_id and g.game_code = ?
     where s.token_hash = ? and s.provider_id = ? and s.environment = ?`,
    [at, at, gameCode ?? sqlNoGame, tokenHash, providerId, environment],
  );
  if (!row) return undefined;
  const { betGameId, betGameEnabled, betGameCertified, ...session } = row;
  return {
    ...session,
    expiresAt: new Date(row.expiresAt),
    startedAt: new Date(row.startedAt),
    betGame: betGameId ? { id: betGameId, enabled: betGameEnabled === true, certified: betGameCertified === true } : null,
  };
}
/** No game code: matches no game (codes are printable, never empty). */
const sqlNoGame = '';

export interface RoundRow {
  providerId: string;
  environment: Environment;
  roundId: string;
  kind: 'casino' | 'sports';
  brandId: string;
  playerId: string;
  currency: string;
  gameId: string;
  status: 'open' | 'settled' | 'voided';
  bets: number;
  wins: number;
  /** Who pays the round's stakes: the player, or the provider (free bets and free rounds, issue #59 item 1). */
  funding: 'player' | 'provider';
  /** What the round's player owes this provider in its brand and currency (store/debts.ts), read with the round: a credit repays it first. */
  owed: string;
}

export async function findRound(sql: SqlRunner, providerId: string, roundId: string): Promise<RoundRow | undefined> {
  const [row] = await sql.query<RoundRow>(
    `select r.provider_id as "providerId", r.environment, r.round_id as "roundId", r.kind, r.brand_id as "brandId", r.player_id as "playerId",
            r.currency, r.game_id as "gameId", r.status, r.bets, r.wins, r.funding, coalesce(d.owed, 0)::text as owed
     from wallet.provider_rounds r
     left join wallet.provider_debts d on d.provider_id = r.provider_id and d.brand_id = r.brand_id and d.player_id = r.player_id and d.currency = r.currency
     where r.provider_id = ? and r.round_id = ?`,
    [providerId, roundId],
  );
  return row && { ...row, owed: formatMoney(row.owed) };
}

/**
 * The brand and currency of a player this provider has had a session for in this environment (a
 * rollback names neither); undefined for a player the provider never launched.
 */
export async function launchedPlayer(
  sql: SqlRunner,
  providerId: string,
  environment: Environment,
  playerId: string,
): Promise<{ brandId: string; currency: string } | undefined> {
  const [row] = await sql.query<{ brandId: string; currency: string }>(
    `select brand_id as "brandId", currency from wallet.provider_sessions
     where provider_id = ? and environment = ? and player_id = ? order by created_at desc limit 1`,
    [providerId, environment, playerId],
  );
  return row;
}

/**
 * A round (a bet slip) as a sportsbook connector reads it (connectorMessages.round): its payout is its
 * wins and its corrections as asked. A credit's repayment of the player's debt (its `repays` row) is
 * no correction of the payout: it moves the credit on to the provider, and is left out of the payout.
 * It still counts in `corrections`, which only numbers the next correction: so a number once taken
 * is never read as free again.
 */
export interface ConnectorRoundRow {
  roundId: string;
  environment: Environment;
  playerId: string;
  currency: string;
  status: 'open' | 'settled' | 'voided';
  staked: string;
  payout: string;
  corrections: number;
  lastAt: string;
}

export async function findConnectorRound(sql: SqlRunner, providerId: string, roundId: string): Promise<ConnectorRoundRow | undefined> {
  const [row] = await sql.query<ConnectorRoundRow & { lastAt: string | Date }>(
    `select r.round_id as "roundId", r.environment, r.player_id as "playerId", r.currency, r.status, r.staked::text as staked,
            (r.won + coalesce(t.corrected, 0))::text as payout, coalesce(t.corrections, 0)::int as corrections,
            coalesce(t.last_at, r.opened_at) as "lastAt"
     from wallet.provider_rounds r
     left join lateral (
       select sum(requested) filter (where kind = 'correction' and repays is null) as corrected, count(*) filter (where kind = 'correction') as corrections,
              max(created_at) as last_at
       from wallet.provider_transactions where provider_id = r.provider_id and round_id = r.round_id
     ) t on true
     where r.provider_id = ? and r.round_id = ?`,
    [providerId, roundId],
  );
  return row && { ...row, staked: formatMoney(row.staked), payout: formatMoney(row.payout), corrections: Number(row.corrections), lastAt: isoTime(row.lastAt) };
}

/** A bet of the player (paid, not a free bet, received) with this provider in this environment (of this round when given). */
export async function playerHasBet(
  sql: SqlRunner,
  b: { providerId: string; playerId: string; environment: Environment; roundId?: string | undefined },
): Promise<boolean> {
  const rows = await sql.query<{ one: number }>(
    `select 1 as one from wallet.provider_transactions
     where provider_id = ? and player_id = ? and environment = ? and kind = 'bet' and not never_received and moved < 0
       ${b.roundId === undefined ? '' : 'and round_id = ?'} limit 1`,
    [b.providerId, b.playerId, b.environment, ...(b.roundId === undefined ? [] : [b.roundId])],
  );
  return rows.length > 0;
}
