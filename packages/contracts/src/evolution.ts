// Evolution's One Wallet as the operator implements it (docs/connectors-evolution.md), read in the
// open-source valkyrie-fnd/valkyrie (provider/evolution/: its routes, models, statuses, the
// document's request examples its controller test replays, and its copy of Evolution's licensee
// integration tests): Evolution calls `/check`, `/balance`, `/debit`, `/credit`, `/cancel` and
// `/promo_payout` under the base URL the operator hands it, each a JSON POST with the API token as
// the `authToken` query parameter; amounts are decimal numbers; every answer carries a `status`.
// The schemas here are the one source of the wire shapes: the gateway's connector
// (services/gateway/src/connectors/evolution/), the wallet's launch, the simulator use them.
import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Nullable } from './common.ts';

/**
 * The answer statuses. valkyrie names OK, TEMPORARY_ERROR, UNKNOWN_ERROR, INVALID_SID,
 * INSUFFICIENT_FUNDS, INVALID_TOKEN_ID, INVALID_PARAMETER, BET_ALREADY_SETTLED, BET_DOES_NOT_EXIST
 * and OPERATION_IN_PROCESS; its copy of Evolution's licensee tests adds BET_ALREADY_EXIST; another
 * public Evolution integration lists ACCOUNT_LOCKED and FINAL_ERROR_ACTION_FAILED.
 */
export const EVOLUTION_STATUSES = [
  'OK',
  'TEMPORARY_ERROR',
  'UNKNOWN_ERROR',
  'INVALID_TOKEN_ID',
  'INVALID_SID',
  'ACCOUNT_LOCKED',
  'INSUFFICIENT_FUNDS',
  'INVALID_PARAMETER',
  'BET_DOES_NOT_EXIST',
  'BET_ALREADY_EXIST',
  'BET_ALREADY_SETTLED',
  'FINAL_ERROR_ACTION_FAILED',
  'OPERATION_IN_PROCESS',
] as const;
export type EvolutionStatus = (typeof EVOLUTION_STATUSES)[number];
/** A status we never answer: we have no asynchronous processing, every call is answered final. */
export const EVOLUTION_UNUSED_STATUSES: readonly EvolutionStatus[] = ['OPERATION_IN_PROCESS'];
/** Statuses valkyrie marks `retransmission: true`: Evolution sends the call again. */
export const EVOLUTION_RETRYABLE_STATUSES: ReadonlySet<string> = new Set<EvolutionStatus>(['TEMPORARY_ERROR', 'OPERATION_IN_PROCESS']);

/** The wallet's paths under the base URL we hand Evolution (one per provider and environment). */
export const EVOLUTION_WALLET_PATHS = {
  check: '/check',
  balance: '/balance',
  debit: '/debit',
  credit: '/credit',
  cancel: '/cancel',
  promo_payout: '/promo_payout',
} as const;
export type EvolutionWalletCall = keyof typeof EVOLUTION_WALLET_PATHS;

/** The query parameter carrying Evolution's API token on every call (valkyrie's `apiTokenParamName`). */
export const EVOLUTION_AUTH_PARAM = 'authToken';

/**
 * The HTTP status of an answer: INVALID_TOKEN_ID is 401 (valkyrie's), a body that is not JSON or
 * not the call's shape is 400 INVALID_PARAMETER (valkyrie's controller), every other answer 200.
 */
export const evolutionHttpStatus = (status: EvolutionStatus, malformed = false): number => (status === 'INVALID_TOKEN_ID' ? 401 : malformed ? 400 : 200);

// ---- money: decimal numbers ------------------------------------------------------------------------

/**
 * An amount as Evolution wrote it (the JSON number's own text, e.g. `1.556179`, `10`, `10.000000`)
 * as our two-decimal money, or undefined when it is not exactly a whole number of cents (1.556179,
 * 1e2, -1): never rounded. Only digits after the second decimal that are all zeros are dropped.
 */
export function evolutionAmountToMoney(source: string | undefined): string | undefined {
  const m = source === undefined ? null : /^(0|[1-9]\d{0,12})(?:\.(\d{1,12}))?$/.exec(source);
  if (!m) return undefined;
  const decimals = m[2] ?? '';
  if (/[1-9]/.test(decimals.slice(2))) return undefined;
  return `${m[1]}.${decimals.slice(0, 2).padEnd(2, '0')}`;
}

/**
 * A JSON body as Evolution sent it, with the exact text of each `amount` member (JSON.parse's
 * source text access): a decimal is never read through a float. Throws on text that is not JSON.
 */
export function parseEvolutionBody(text: string): { body: unknown; amountOf: (holder: unknown) => string | undefined } {
  const sources = new WeakMap<object, string>();
  const body = JSON.parse(text, function (this: object, key: string, value: unknown, context?: { source?: string }) {
    if (key === 'amount' && typeof value === 'number' && context?.source !== undefined) sources.set(this, context.source);
    return value;
  });
  return { body, amountOf: (holder) => (holder !== null && typeof holder === 'object' ? sources.get(holder) : undefined) };
}

// ---- the calls (Evolution → us) ----------------------------------------------------------------
// Members valkyrie's models mark required are required here; Evolution's other members are accepted
// (additionalProperties), so a member it adds never breaks money calls.

const Text = Type.String({ minLength: 1, maxLength: 256 });
const Currency = Type.String({ minLength: 3, maxLength: 3 });
const base = { sid: Text, userId: Text, uuid: Type.Optional(Type.String({ maxLength: 256 })) };
/** The game: `id` is Evolution's game round, `details.table.id` the table (the game code of our catalogue). */
const GameSchema = Type.Object({
  id: Text,
  type: Type.Optional(Nullable(Type.String())),
  details: Type.Object({ table: Type.Object({ id: Text, vid: Type.Optional(Nullable(Type.String())) }) }),
});
/** `id`: the transaction; `refId`: the bet it belongs to (a credit and a cancel name their debit's); `amount`: a decimal number. */
const TransactionSchema = Type.Object({ id: Text, refId: Text, amount: Type.Number() });

export const EvolutionCheckRequestSchema = Type.Object({ ...base, channel: Type.Optional(Nullable(Type.Object({ type: Type.Optional(Type.String()) }))) });
export const EvolutionBalanceRequestSchema = Type.Object({ ...base, currency: Currency, game: Type.Optional(Type.Unknown()) });
export const EvolutionTransactionRequestSchema = Type.Object({ ...base, currency: Currency, game: GameSchema, transaction: TransactionSchema });
export const EvolutionPromoPayoutRequestSchema = Type.Object({
  ...base,
  currency: Currency,
  game: Type.Optional(Nullable(Type.Unknown())),
  promoTransaction: Type.Object({
    type: Type.String(),
    id: Text,
    amount: Type.Number(),
    voucherId: Type.Optional(Nullable(Type.String())),
    remainingRounds: Type.Optional(Nullable(Type.Integer())),
  }),
});
export type EvolutionCheckRequest = Static<typeof EvolutionCheckRequestSchema>;
export type EvolutionBalanceRequest = Static<typeof EvolutionBalanceRequestSchema>;
export type EvolutionTransactionRequest = Static<typeof EvolutionTransactionRequestSchema>;
export type EvolutionPromoPayoutRequest = Static<typeof EvolutionPromoPayoutRequestSchema>;

export const EVOLUTION_REQUEST_SCHEMAS = {
  check: EvolutionCheckRequestSchema,
  balance: EvolutionBalanceRequestSchema,
  debit: EvolutionTransactionRequestSchema,
  credit: EvolutionTransactionRequestSchema,
  cancel: EvolutionTransactionRequestSchema,
  promo_payout: EvolutionPromoPayoutRequestSchema,
} as const;
export type EvolutionRequest<C extends EvolutionWalletCall> = Static<(typeof EVOLUTION_REQUEST_SCHEMAS)[C]>;

const compiled = Object.fromEntries(Object.entries(EVOLUTION_REQUEST_SCHEMAS).map(([k, s]) => [k, TypeCompiler.Compile(s)])) as {
  [C in EvolutionWalletCall]: ReturnType<typeof TypeCompiler.Compile<(typeof EVOLUTION_REQUEST_SCHEMAS)[C]>>;
};

/** A parsed body against its call's schema: the request, or the path of its first fault. */
export function checkEvolutionRequest<C extends EvolutionWalletCall>(
  call: C,
  body: unknown,
): { ok: true; request: EvolutionRequest<C> } | { ok: false; path: string } {
  const check = compiled[call];
  if (check.Check(body)) return { ok: true, request: body as EvolutionRequest<C> };
  return { ok: false, path: check.Errors(body).First()?.path ?? '' };
}

// ---- the answers ------------------------------------------------------------------------------------

/** The standard answer (balance, bonus: our money, two decimals; written as JSON numbers). */
export interface EvolutionAnswer {
  status: EvolutionStatus;
  balance: string;
  bonus: string;
  uuid?: string;
  /** Set on the statuses Evolution sends again (valkyrie's `retransmission`). */
  retransmission?: true;
}
/** `/check`'s answer: the session id Evolution keeps using (ours never changes). */
export interface EvolutionCheckAnswer {
  status: EvolutionStatus;
  sid: string;
  uuid?: string;
}

export const EvolutionAnswerSchema = Type.Object({
  status: Type.Union(EVOLUTION_STATUSES.map((s) => Type.Literal(s))),
  balance: Type.Optional(Type.Number()),
  bonus: Type.Optional(Type.Number()),
  sid: Type.Optional(Type.String()),
  uuid: Type.Optional(Type.String()),
  retransmission: Type.Optional(Type.Boolean()),
});
export type EvolutionWireAnswer = Static<typeof EvolutionAnswerSchema>;

const MONEY = /^-?\d+\.\d{2}$/;

/**
 * An answer's JSON text: our two-decimal money written as the JSON number it is (999.35), from its
 * decimal text, never through a float.
 */
export function evolutionAnswerText(a: EvolutionAnswer | EvolutionCheckAnswer): string {
  const parts = [`"status":${JSON.stringify(a.status)}`];
  if ('sid' in a) parts.push(`"sid":${JSON.stringify(a.sid)}`);
  else {
    if (!MONEY.test(a.balance) || !MONEY.test(a.bonus)) throw new Error(`not two-decimal money: ${a.balance} ${a.bonus}`);
    parts.push(`"balance":${a.balance}`, `"bonus":${a.bonus}`);
  }
  if (a.uuid !== undefined) parts.push(`"uuid":${JSON.stringify(a.uuid)}`);
  if ('retransmission' in a && a.retransmission) parts.push('"retransmission":true');
  return `{${parts.join(',')}}`;
}

// ---- the launch: Evolution's User Authentication API (us → Evolution) -------------------------------

/** `POST <apiBaseUrl>/ua/v1/<casinoKey>/<casinoToken>`: what valkyrie sends (provider_service.go), the player's name left out. */
export interface EvolutionUserAuthentication {
  uuid: string;
  player: {
    id: string;
    update: boolean;
    country: string;
    language: string;
    currency: string;
    session: { id: string; ip?: string };
  };
  config: {
    brand?: { id: string; skin?: string };
    game?: { category?: string; interface?: string; table: { id: string } };
    channel: { wrapped: boolean; mobile?: boolean };
    urls?: { lobby?: string };
  };
}
/** Its answer: the game's entry path under Evolution's base URL. */
export const EvolutionUserAuthenticationAnswerSchema = Type.Object({ entry: Type.String({ minLength: 1 }), entryEmbedded: Type.Optional(Type.String()) });
const uaAnswer = TypeCompiler.Compile(EvolutionUserAuthenticationAnswerSchema);

/**
 * The game URL of a session: Evolution's UA API asked with our casino key and token. No retries
 * here: the launch answers 502 PROVIDER_UNAVAILABLE and the operator asks again.
 */
export async function evolutionGameUrl(o: {
  baseUrl: string;
  casinoKey: string;
  casinoToken: string;
  request: EvolutionUserAuthentication;
  timeoutMs: number;
}): Promise<{ ok: true; value: string } | { ok: false; reason: string }> {
  const base = o.baseUrl.replace(/\/+$/, '');
  let res: Response;
  try {
    res = await fetch(`${base}/ua/v1/${encodeURIComponent(o.casinoKey)}/${encodeURIComponent(o.casinoToken)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(o.request),
      signal: AbortSignal.timeout(o.timeoutMs),
      redirect: 'error',
    });
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
    return { ok: false, reason: timedOut ? 'no answer in time' : 'unreachable' };
  }
  const json = await res.json().catch(() => undefined);
  if (res.status !== 200 || !uaAnswer.Check(json)) return { ok: false, reason: `answered ${res.status} without an entry` };
  const url = /^https?:\/\//.test(json.entry) ? json.entry : `${base}${json.entry.startsWith('/') ? '' : '/'}${json.entry}`;
  return URL.canParse(url) ? { ok: true, value: url } : { ok: false, reason: 'answered an entry that is not a URL' };
}
