// Event bodies as docs/decisions.md describes them ("Events"): `{ id, type, createdAt, environment, data }`.
// Written by hand over the generated resource types, because the contracts describe events as a
// TypeScript interface rather than a schema; test/types.test.ts checks they match.
import type { Deposit, EventType, HarmMarkerHit, KycStatus, PlayerHarmLevel, PlayerStatus, Withdrawal, WithdrawalStatus } from './operations.generated.ts';

export interface WebhookEventData {
  'kyc.status_changed': { playerId: string; externalId: string | null; previousStatus: KycStatus; status: KycStatus };
  'deposit.confirmed': Deposit;
  'withdrawal.status_changed': { withdrawal: Withdrawal; previousStatus: WithdrawalStatus | null };
  'webhook.test': { message: string };
  /** Our team issued a new key for the environment; the keys it replaces stop at their `expiresAt`. */
  'credential.rotated': {
    credentialId: string;
    keyPrefix: string;
    createdAt: string;
    expiring: { credentialId: string; keyPrefix: string; expiresAt: string }[];
  };
  /** Our team revoked a key of the environment. */
  'credential.revoked': { credentialId: string; keyPrefix: string; revokedAt: string };
  /** A limit was set, lowered, raised or removed; a relaxing change takes effect at `effectiveAt`. */
  'player.limits.changed': {
    playerId: string;
    externalId: string | null;
    type: LimitType;
    period: LimitPeriod;
    previousValue: string | null;
    value: string | null;
    effectiveAt: string;
    by: 'operator' | 'team';
  };
  /** A deposit, a round or a game session was refused because it would pass a limit. */
  'player.limit.reached': { playerId: string; externalId: string | null; type: LimitType; period: LimitPeriod; value: string; resetsAt: string };
  'player.paused': { playerId: string; externalId: string | null; until: string };
  'player.self_excluded': { playerId: string; externalId: string | null; since: string; until: string | null };
  /** A fixed term ran out (`system`) or compliance lifted an indefinite one (`team`); `status`: the player's status after it (the one it replaced). */
  'player.self_exclusion.ended': { playerId: string; externalId: string | null; by: 'system' | 'team'; status: PlayerStatus };
  /** A deposit ended failed without credit; `refundRequired`: the money must go back to its origin. */
  'deposit.failed': { deposit: Deposit; refundRequired: boolean };
  /** br-spa: deposits and play refused from now; withdrawals open until `withdrawalsUntil`. */
  'player.restricted': { playerId: string; externalId: string | null; reason: 'impeded'; withdrawalsUntil: string };
  /** br-spa: the player is closed for good. */
  'player.closed': { playerId: string; externalId: string | null; reason: 'impeded' };
  /** Our team or one of our rules changed the player status (never why). */
  'player.status.changed': { playerId: string; externalId: string | null; previousStatus: PlayerStatus; status: PlayerStatus };
  /** A third-party sportsbook took a bet of the player. */
  'sports_bet.placed': {
    playerId: string;
    providerId: string;
    betId: string;
    transactionId: string;
    gameCode: string;
    currency: string;
    stake: string;
    slip: BetSlip | null;
    placedAt: string;
  };
  /** A sports bet closed: settled (with its outcome) or voided. */
  'sports_bet.settled': {
    playerId: string;
    providerId: string;
    betId: string;
    gameCode: string;
    currency: string;
    status: 'settled' | 'voided';
    outcome: 'won' | 'lost' | 'void' | 'cashout' | 'half_won' | 'half_lost' | null;
    staked: string;
    won: string;
    slip: BetSlip | null;
    settledAt: string;
  };
  /** br-spa: the player lacks registration data (a field by its name, a limit by its type): deposits and bets refused until completed. */
  'player.registration_incomplete': {
    playerId: string;
    externalId: string | null;
    missing: Array<'phone' | 'gender' | 'signupIp' | 'address' | 'loss' | 'time'>;
  };
  /** br-spa: the registration data announced incomplete is complete: the restriction is lifted. */
  'player.registration_completed': { playerId: string; externalId: string | null };
  /** The marketing permission changed: consent given or withdrawn, or forced off by a block. */
  'player.marketing_changed': {
    playerId: string;
    externalId: string | null;
    consent: boolean;
    allowed: boolean;
    blockedBy: 'self_exclusion' | 'pause' | 'impediment' | 'closed' | null;
    reason: 'consent_given' | 'consent_withdrawn' | 'self_exclusion' | 'pause' | 'impediment' | 'closed';
    at: string;
  };
  /** The player's level of risk of gambling harm moved: every marker fired, those that came and went. */
  'player.risk_level_changed': {
    playerId: string;
    previousLevel: PlayerHarmLevel['level'];
    level: PlayerHarmLevel['level'];
    score: number;
    markers: HarmMarkerHit[];
    added: HarmMarkerHit['marker'][];
    removed: HarmMarkerHit['marker'][];
    assessedOn: string;
  };
  /** Our team, following the player's harm case, recommends that the player self-exclude: tell the player. */
  'player.self_exclusion_recommended': {
    playerId: string;
    level: PlayerHarmLevel['level'];
    score: number;
    markers: HarmMarkerHit[];
    assessedOn: string;
    recommendedAt: string;
  };
}

interface BetLeg {
  sport: string;
  event: string;
  market: string;
  selection: string;
  odds: string;
  eventStartsAt: string;
}
/** A slip's own members are its one line (a single's selection, a multiple's summary); `betType` and `legs` list each selection. */
interface BetSlip extends BetLeg {
  betType?: 'single' | 'multiple' | 'system';
  legs?: BetLeg[];
}

type LimitType = 'deposit' | 'loss' | 'wager' | 'time';
type LimitPeriod = 'day' | 'week' | 'month';

interface EventOf<T extends EventType> {
  id: string;
  type: T;
  createdAt: string;
  environment: 'sandbox' | 'production';
  data: WebhookEventData[T];
}

/** A delivery's body; narrow on `type`. Newer API versions may add types: handle the default case. */
export type WebhookEvent = { [T in EventType]: EventOf<T> }[EventType];
