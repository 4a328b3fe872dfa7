// Betsy's sportsbook, its partner backend API as the operator implements it (docs/connectors-betsy.md;
// docs.betsy.gg/backend/, the same API as docs.frozebet.com/docs/backend-integration/): the
// sportsbook calls `{PARTNER_API_URL}` for the player's data and balance (`POST /user/profile`,
// `POST /user/balance`) and for every money move on one path, `/payment/bet`: `POST` type 1 places
// a bet, `PUT` type 1 unsettles it, type 2 settles (or resettles, or cashes out) it, type 3 rolls
// it back, type 5 sends the bet's latest data (its odds, selections, status: no money). Every call
// carries `x-sign-jws`, a detached JWS (HS256 with the PARTNER_SECRET) of the raw body; amounts are
// decimal numbers; an error is HTTP 400 `{ code, message }`.
// The schemas here are the one source of the wire shapes: the gateway's connector
// (services/gateway/src/connectors/betsy/), the simulator and the tests use them.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Nullable } from './common.ts';
import { evolutionAmountToMoney } from './evolution.ts';
import type { BetLeg, BetSlip, BetType, SportsOutcome } from './bet-slip.ts';

// ---- errors ---------------------------------------------------------------------------------------

/** Betsy's error codes (its "Error codes" page): the general ones, the place bet's, self-exclusion's and the settle's. */
export const BETSY_ERRORS = {
  1: 'Request signature is invalid',
  3: 'An invalid token',
  4: 'The token is out of date',
  5: 'A request data validation error',
  7: 'Not enough money',
  8: 'The bet has already been processed',
  9: 'The user is blocked',
  10: 'Request timeout on partner system',
  11: "The user's stake limit has been reached",
  12: 'The user loss limit has been reached',
  13: 'The bet count limit has been reached',
  14: 'The user is self-excluded',
  15: 'The user is not verified',
  16: 'The user is not old enough',
  20: 'The transaction recalculation is blocked',
  21: 'Recalculation is blocked due to insufficient amount of money on the balance',
  100: 'System error',
} as const;
export type BetsyErrorCode = keyof typeof BETSY_ERRORS;
export const BETSY_ERROR_CODES = Object.keys(BETSY_ERRORS).map(Number) as BetsyErrorCode[];
/**
 * Codes we never answer (docs/connectors-betsy.md): 10 (our deadline passed is 100), 13 (no bet-count
 * limit), 16 (players are adults from registration), 21 (a player's debt takes a resettlement, never
 * refused). 20 is answered only for a bet Betsy rolled back.
 */
export const BETSY_UNUSED_CODES: readonly BetsyErrorCode[] = [10, 13, 16, 21];

/** An answer's status as the connector's health counts it: `OK`, or `CODE_<n>`. */
export type BetsyHealthStatus = 'OK' | `CODE_${BetsyErrorCode}`;
export const betsyHealthStatus = (code: BetsyErrorCode | undefined): BetsyHealthStatus => (code === undefined ? 'OK' : `CODE_${code}`);

export interface BetsyError {
  code: BetsyErrorCode;
  message: string;
}
export const betsyError = (code: BetsyErrorCode, detail?: string): BetsyError => ({
  code,
  message: detail ? `${BETSY_ERRORS[code]}: ${detail}` : BETSY_ERRORS[code],
});

// ---- the calls ------------------------------------------------------------------------------------

/** The paths under the base URL we hand Betsy (its PARTNER_API_URL, one per provider and environment). */
export const BETSY_PATHS = { profile: '/user/profile', balance: '/user/balance', bet: '/payment/bet' } as const;
/** `/payment/bet`'s `type`: with POST, 1 is a place bet; with PUT, 1 an unsettle, 2 a settle, 3 a rollback, 5 a bet data update. */
export const BETSY_BET_TYPES = { place: 1, unsettle: 1, settle: 2, rollback: 3, update: 5 } as const;
export type BetsyCall = 'profile' | 'balance' | 'place' | 'unsettle' | 'settle' | 'rollback' | 'update';

/** The header carrying the detached JWS of every call. */
export const BETSY_SIGNATURE_HEADER = 'x-sign-jws';
const JWS_HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/** The detached JWS of a body: `<header>..<HS256 of header.base64url(body)>`, as Betsy signs. */
export function betsySignature(body: string | Buffer, secret: string): string {
  const payload = Buffer.from(body).toString('base64url');
  const mac = createHmac('sha256', secret).update(`${JWS_HEADER}.${payload}`).digest('base64url');
  return `${JWS_HEADER}..${mac}`;
}

/**
 * True when `header` is a detached JWS of `body` (its payload part empty, or the body's own
 * base64url) signed HS256 with one of `secrets`: the header must say HS256 (never `none`), the
 * MAC is compared in constant time.
 */
export function betsySignatureValid(header: string | undefined, body: Buffer, secrets: readonly string[]): boolean {
  if (!header || header.length > 2048) return false;
  const parts = header.split('.');
  if (parts.length !== 3) return false;
  const [h, p, mac] = parts as [string, string, string];
  const payload = body.toString('base64url');
  if (p !== '' && p !== payload) return false;
  try {
    const alg = (JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as { alg?: unknown }).alg;
    if (alg !== 'HS256') return false;
  } catch {
    return false;
  }
  const given = Buffer.from(mac, 'base64url');
  return secrets.some((secret) => {
    const expected = createHmac('sha256', secret).update(`${h}.${payload}`).digest();
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * A JSON body as Betsy sent it, with the exact text of each `amount` and `coefficient` member
 * (JSON.parse's source text access): a decimal is never read through a float. Throws on text that
 * is not JSON.
 */
export function parseBetsyBody(text: string): { body: unknown; sourceOf: (holder: unknown, key: 'amount' | 'coefficient') => string | undefined } {
  const sources = new WeakMap<object, Map<string, string>>();
  const body = JSON.parse(text, function (this: object, key: string, value: unknown, context?: { source?: string }) {
    if ((key === 'amount' || key === 'coefficient') && typeof value === 'number' && context?.source !== undefined) {
      const kept = sources.get(this) ?? new Map<string, string>();
      kept.set(key, context.source);
      sources.set(this, kept);
    }
    return value;
  });
  return { body, sourceOf: (holder, key) => (holder !== null && typeof holder === 'object' ? sources.get(holder)?.get(key) : undefined) };
}

/** An amount's JSON text as our two-decimal money, or undefined when it is not a whole number of cents (never rounded). */
export const betsyAmountToMoney = (source: string | undefined): string | undefined => evolutionAmountToMoney(source);

/** Odds as our slips write them (at most 4 decimals: odds describe the bet, the money is the stake and the payout). */
export function betsyOdds(source: string | undefined): string | undefined {
  const m = source === undefined ? null : /^(0|[1-9]\d{0,5})(?:\.(\d+))?$/.exec(source);
  if (!m) return undefined;
  const decimals = (m[2] ?? '').slice(0, 4).replace(/0+$/, '');
  return decimals ? `${m[1]}.${decimals}` : m[1]!;
}

// Members the document's examples carry are described; the ones we need are required, the others
// accepted as they come (additionalProperties), so a member Betsy adds never breaks a money call.
/** A transactionId: ours are it with a prefix and a number (`resettle:<id>:<n>`), within the wallet's 128 characters. */
const Id = Type.String({ minLength: 1, maxLength: 100, pattern: '^[\\x21-\\x7e]+$' });
const Currency = Type.String({ minLength: 3, maxLength: 5 });
const UserId = Type.String({ minLength: 1, maxLength: 64 });
const Token = Type.String({ minLength: 1, maxLength: 256 });
const Optional = <T extends Parameters<typeof Nullable>[0]>(s: T) => Type.Optional(Nullable(s));

/** A selection of the slip (Betsy's `metadata` item). */
export const BetsyLegSchema = Type.Object({
  disciplineId: Optional(Type.String()),
  discipline: Type.String({ minLength: 1 }),
  tournamentId: Optional(Type.String()),
  tournament: Optional(Type.String()),
  eventId: Optional(Type.String()),
  event: Type.String({ minLength: 1 }),
  eventDate: Type.String({ minLength: 10, maxLength: 40 }),
  marketId: Optional(Type.String()),
  market: Type.String({ minLength: 1 }),
  outcomeId: Optional(Type.String()),
  outcome: Type.String({ minLength: 1 }),
  coefficient: Type.Number({ exclusiveMinimum: 0 }),
  stage: Optional(Type.Integer()),
});
export type BetsyLeg = Static<typeof BetsyLegSchema>;

const common = {
  requestId: Type.Optional(Type.String({ maxLength: 128 })),
  transactionId: Id,
  userId: UserId,
  currency: Currency,
  amount: Type.Number({ minimum: 0 }),
};

export const BetsyProfileRequestSchema = Type.Object({ token: Token, requestId: Type.Optional(Type.String({ maxLength: 128 })) });
export const BetsyBalanceRequestSchema = Type.Object({
  token: Token,
  userId: UserId,
  currency: Currency,
  requestId: Type.Optional(Type.String({ maxLength: 128 })),
});
export const BetsyPlaceBetRequestSchema = Type.Object({
  ...common,
  type: Type.Literal(1),
  token: Token,
  coefficient: Type.Number({ exclusiveMinimum: 0 }),
  info: Optional(Type.String()),
  ip: Optional(Type.String()),
  subPartnerId: Optional(Type.Union([Type.String(), Type.Number()])),
  bonusId: Optional(Type.Union([Type.String(), Type.Number()])),
  bonusTemplateId: Optional(Type.Union([Type.String(), Type.Number()])),
  bonusAmount: Optional(Type.Number()),
  gameType: Type.String({ minLength: 1, maxLength: 64 }),
  ticketType: Type.String({ minLength: 1, maxLength: 32 }),
  boosterCoefficient: Optional(Type.Number()),
  metadata: Type.Array(BetsyLegSchema, { minItems: 1, maxItems: 50 }),
});
/** A settle: the bet's transactionId, the payout (`amount`, 0 for a lost bet) and how it settled; a cashout carries the user's token. */
export const BetsySettleRequestSchema = Type.Object({
  ...common,
  type: Type.Literal(2),
  resultType: Type.String({ minLength: 1, maxLength: 32 }),
  token: Optional(Token),
  coefficient: Optional(Type.Number()),
});
export const BetsyUnsettleRequestSchema = Type.Object({ ...common, type: Type.Literal(1), token: Optional(Token), resultType: Optional(Type.String()) });
/** A rollback: the bet's transactionId and why (`errorCode`: Betsy's rollback reasons). */
export const BetsyRollbackRequestSchema = Type.Object({ ...common, type: Type.Literal(3), token: Optional(Token), errorCode: Optional(Type.Integer()) });
/**
 * A bet data update (Betsy's "Bet data update", `PUT` type 5): the bet's latest actual state, before or
 * after its settle; no money. Its bet and user are required; what the state carries (the place bet's
 * members: `amount`, `coefficient`, `ticketType`, `metadata`, and a `status`) is kept as sent, any
 * member Betsy adds included. Its order among the bet's updates (docs/connectors-betsy.md, "Bet data
 * updates"): `version` when sent, else `updatedAt`; an update without either is older than any with one.
 */
export const BetsyBetUpdateRequestSchema = Type.Object({
  requestId: common.requestId,
  transactionId: Id,
  userId: UserId,
  type: Type.Literal(5),
  currency: Type.Optional(Currency),
  amount: Optional(Type.Number({ minimum: 0 })),
  coefficient: Optional(Type.Number()),
  token: Optional(Type.String({ maxLength: 256 })),
  ticketType: Optional(Type.String({ maxLength: 32 })),
  status: Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Integer()])),
  resultType: Optional(Type.String({ maxLength: 32 })),
  metadata: Optional(Type.Array(Type.Object({}), { maxItems: 50 })),
  version: Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  updatedAt: Optional(Type.String({ minLength: 10, maxLength: 40 })),
});
export type BetsyBetUpdateRequest = Static<typeof BetsyBetUpdateRequestSchema>;
export type BetsyProfileRequest = Static<typeof BetsyProfileRequestSchema>;
export type BetsyBalanceRequest = Static<typeof BetsyBalanceRequestSchema>;
export type BetsyPlaceBetRequest = Static<typeof BetsyPlaceBetRequestSchema>;
export type BetsySettleRequest = Static<typeof BetsySettleRequestSchema>;
export type BetsyUnsettleRequest = Static<typeof BetsyUnsettleRequestSchema>;
export type BetsyRollbackRequest = Static<typeof BetsyRollbackRequestSchema>;

export const BETSY_REQUEST_SCHEMAS = {
  profile: BetsyProfileRequestSchema,
  balance: BetsyBalanceRequestSchema,
  place: BetsyPlaceBetRequestSchema,
  unsettle: BetsyUnsettleRequestSchema,
  settle: BetsySettleRequestSchema,
  rollback: BetsyRollbackRequestSchema,
  update: BetsyBetUpdateRequestSchema,
} as const;
export type BetsyRequest<C extends BetsyCall> = Static<(typeof BETSY_REQUEST_SCHEMAS)[C]>;

const compiled = Object.fromEntries(Object.entries(BETSY_REQUEST_SCHEMAS).map(([k, s]) => [k, TypeCompiler.Compile(s)])) as {
  [C in BetsyCall]: ReturnType<typeof TypeCompiler.Compile<(typeof BETSY_REQUEST_SCHEMAS)[C]>>;
};

/** A parsed body against its call's schema: the request, or the path of its first fault. */
export function checkBetsyRequest<C extends BetsyCall>(call: C, body: unknown): { ok: true; request: BetsyRequest<C> } | { ok: false; path: string } {
  const check = compiled[call];
  if (check.Check(body)) return { ok: true, request: body as BetsyRequest<C> };
  return { ok: false, path: check.Errors(body).First()?.path ?? '' };
}

/** Which `/payment/bet` call a method and `type` make; undefined for any other pair. */
export function betsyBetCall(method: string, type: unknown): 'place' | 'unsettle' | 'settle' | 'rollback' | 'update' | undefined {
  if (method === 'POST') return type === 1 ? 'place' : undefined;
  if (method === 'PUT') return type === 1 ? 'unsettle' : type === 2 ? 'settle' : type === 3 ? 'rollback' : type === 5 ? 'update' : undefined;
  return undefined;
}

// ---- the slip -------------------------------------------------------------------------------------

/** Betsy's `resultType` as our sports outcome (its settle names won, lost, refund and cashout). */
export function betsyOutcome(resultType: string): SportsOutcome | undefined {
  const known: Record<string, SportsOutcome> = { won: 'won', win: 'won', lost: 'lost', lose: 'lost', refund: 'void', cashout: 'cashout' };
  return known[resultType.toLowerCase()];
}

/** `2021-03-05 11:08:00` (the document's `eventDate`, read as UTC) or an ISO time, as our timestamp. */
function eventStartOf(date: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)(Z|[+-]\d{2}:?\d{2})?$/.exec(date.trim());
  if (!m) return undefined;
  const t = new Date(`${m[1]}T${m[2]}${m[3] ?? 'Z'}`);
  return Number.isNaN(t.getTime()) ? undefined : t.toISOString();
}

const cut = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);
const joined = (values: readonly string[], max: number) => cut([...new Set(values)].join(' | '), max);

/**
 * A place bet's slip as ours: each `metadata` item a leg (discipline, event, market, outcome, its
 * coefficient, its event's start), the bet type from `ticketType` and the legs (`system`; one leg a
 * single; more a multiple), and the slip's own line: a single's leg, or the legs' events, markets and
 * selections joined, the slip's `coefficient`, the first event's start. Undefined when a leg's date
 * or a coefficient is not one we can write.
 */
export function betsySlipOf(r: BetsyPlaceBetRequest, coefficientOf: (holder: unknown) => string | undefined): BetSlip | undefined {
  const legs: BetLeg[] = [];
  for (const m of r.metadata) {
    const odds = betsyOdds(coefficientOf(m));
    const eventStartsAt = eventStartOf(m.eventDate);
    if (odds === undefined || eventStartsAt === undefined) return undefined;
    legs.push({ sport: cut(m.discipline, 64), event: cut(m.event, 256), market: cut(m.market, 128), selection: cut(m.outcome, 128), odds, eventStartsAt });
  }
  const odds = betsyOdds(coefficientOf(r));
  if (odds === undefined) return undefined;
  const betType: BetType = r.ticketType.toLowerCase() === 'system' ? 'system' : legs.length === 1 ? 'single' : 'multiple';
  const first = [...legs].sort((a, b) => a.eventStartsAt.localeCompare(b.eventStartsAt))[0]!;
  return {
    sport: joined(
      legs.map((l) => l.sport),
      64,
    ),
    event: joined(
      legs.map((l) => l.event),
      256,
    ),
    market: joined(
      legs.map((l) => l.market),
      128,
    ),
    selection: joined(
      legs.map((l) => l.selection),
      128,
    ),
    odds,
    eventStartsAt: first.eventStartsAt,
    betType,
    legs,
  };
}

const legCheck = TypeCompiler.Compile(BetsyLegSchema);

/**
 * A bet data update's legs as our slip (as a place bet's: betsySlipOf), when it carries them whole:
 * every `metadata` item a leg of the place bet's shape, the slip's `coefficient` and `ticketType`.
 * Undefined otherwise (the update is kept as sent all the same).
 */
export function betsyUpdateSlipOf(r: BetsyBetUpdateRequest, coefficientOf: (holder: unknown) => string | undefined): BetSlip | undefined {
  const legs = r.metadata ?? [];
  if (legs.length === 0 || typeof r.coefficient !== 'number' || typeof r.ticketType !== 'string' || r.ticketType === '') return undefined;
  if (!legs.every((l) => legCheck.Check(l))) return undefined;
  const placed = { ...r, ticketType: r.ticketType, metadata: legs } as unknown as BetsyPlaceBetRequest;
  // The legs are the request's own objects; the slip's coefficient is the request's.
  return betsySlipOf(placed, (holder) => coefficientOf(holder === placed ? r : holder));
}

/**
 * A bet data update's place among the bet's updates: its `version`, else its `updatedAt` in epoch
 * milliseconds (`2021-03-05 11:08:00` read as UTC, or an ISO time), else null (older than any update
 * with one). `'unreadable'`: an `updatedAt` we cannot read.
 */
export function betsyUpdateOrder(r: BetsyBetUpdateRequest): number | null | 'unreadable' {
  if (typeof r.version === 'number') return r.version;
  if (typeof r.updatedAt !== 'string') return null;
  const at = eventStartOf(r.updatedAt);
  return at === undefined ? 'unreadable' : Date.parse(at);
}

// ---- the answers ------------------------------------------------------------------------------------

/** A money call's answer (place, settle, unsettle, rollback: the place bet's shape). */
export interface BetsyTransactionAnswer {
  transactionId: string;
  transactionTime: string;
}
/** `/user/balance`'s answer; `amount` our two-decimal money, written as the JSON number it is. */
export interface BetsyBalanceAnswer {
  userId: string;
  currency: string;
  amount: string;
}
/** `/user/profile`'s answer. */
export interface BetsyProfileAnswer {
  userId: string;
  currency: string;
  currencies: string[];
  isTest: boolean;
}
export type BetsyAnswer = BetsyTransactionAnswer | BetsyBalanceAnswer | BetsyProfileAnswer;

const MONEY = /^-?\d+\.\d{2}$/;
/** An answer's JSON text: money written as its decimal text (1290.10), never through a float. */
export function betsyAnswerText(a: BetsyAnswer | BetsyError): string {
  if ('amount' in a) {
    if (!MONEY.test(a.amount)) throw new Error(`not two-decimal money: ${a.amount}`);
    return `{"userId":${JSON.stringify(a.userId)},"currency":${JSON.stringify(a.currency)},"amount":${a.amount}}`;
  }
  return JSON.stringify(a);
}

/** What Betsy reads back (the simulator, the tests). */
export const BetsyWireAnswerSchema = Type.Object({
  code: Type.Optional(Type.Integer()),
  message: Type.Optional(Type.String()),
  transactionId: Type.Optional(Type.String()),
  transactionTime: Type.Optional(Type.String()),
  userId: Type.Optional(Type.String()),
  currency: Type.Optional(Type.String()),
  currencies: Type.Optional(Type.Array(Type.String())),
  isTest: Type.Optional(Type.Boolean()),
  amount: Type.Optional(Type.Number()),
});
export type BetsyWireAnswer = Static<typeof BetsyWireAnswerSchema>;
