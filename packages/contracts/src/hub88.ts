// Hub88's Operator API as the operator sees it (docs/connectors-hub88.md; Hub88's reference at
// https://docs.hub88.io/developer-docs/operator-api-reference/): the Wallet API Hub88 calls on us
// (`/user/info`, `/user/balance`, `/transaction/bet|win|rollback`, every answer HTTP 200 with an
// `RS_*` status and the request's `request_uuid`), the Games API we call on Hub88 (the game list,
// a game's URL) and its Transactions API (a day's transactions, for reconciliation), the signature
// both ways (`X-Hub88-Signature`: base64 of RSA-SHA256 over the exact body bytes,
// github.com/coingaming/Hub88-Examples) and money as an integer × 100000. The schemas
// here are the one source of the wire shapes: the gateway's connector (services/gateway/src/
// connectors/hub88/), the wallet's Games API calls, the simulator and the bench use them.
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { ValueErrorType } from '@sinclair/typebox/value';
import { Nullable } from './common.ts';

/**
 * The Wallet API's answer statuses, in the order of Hub88's table ("Seamless Wallet response
 * statuses - Operator API"). Every answer is HTTP 200; the status says what happened.
 */
export const HUB88_STATUSES = [
  'RS_OK',
  'RS_ERROR_UNKNOWN',
  'RS_ERROR_INVALID_PARTNER',
  'RS_ERROR_INVALID_TOKEN',
  'RS_ERROR_INVALID_GAME',
  'RS_ERROR_WRONG_CURRENCY',
  'RS_ERROR_NOT_ENOUGH_MONEY',
  'RS_ERROR_USER_DISABLED',
  'RS_ERROR_INVALID_SIGNATURE',
  'RS_ERROR_TOKEN_EXPIRED',
  'RS_ERROR_WRONG_SYNTAX',
  'RS_ERROR_WRONG_TYPES',
  'RS_ERROR_DUPLICATE_TRANSACTION',
  'RS_ERROR_TRANSACTION_DOES_NOT_EXIST',
  'RS_ERROR_LIMIT_REACHED',
] as const;
export type Hub88Status = (typeof HUB88_STATUSES)[number];

/** The Wallet API's paths, under the base URL we hand Hub88 (one per provider and environment). */
export const HUB88_WALLET_PATHS = {
  info: '/user/info',
  balance: '/user/balance',
  bet: '/transaction/bet',
  win: '/transaction/win',
  rollback: '/transaction/rollback',
} as const;
export type Hub88WalletCall = keyof typeof HUB88_WALLET_PATHS;

/** The Games API's paths at Hub88's base URL (signed with our private key). */
export const HUB88_GAMES_PATHS = { list: '/operator/generic/v2/game/list', url: '/operator/generic/v2/game/url' } as const;
/** The Transactions API's path at Hub88's base URL (signed with our private key): the day's transactions, for reconciliation. */
export const HUB88_TRANSACTIONS_PATH = '/operator/generic/v2/transactions/list';

// ---- money: Int64 × 100000 ------------------------------------------------------------------------

/** Hub88's amounts are integers: the real amount × 100000 ($3.56 is 356000). */
export const HUB88_AMOUNT_SCALE = 100_000;
/** One cent in Hub88's units: our money has two decimals, so an amount that is not a multiple of it is refused, never rounded. */
const CENT = HUB88_AMOUNT_SCALE / 100;

/**
 * A Hub88 amount as our two-decimal money, or undefined when it is not exactly representable: not
 * a safe non-negative integer, or not a whole number of cents (e.g. 100500 is 1.005). Exact: integer
 * arithmetic on the cents only.
 */
export function hub88AmountToMoney(amount: unknown): string | undefined {
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0 || amount % CENT !== 0) return undefined;
  const cents = amount / CENT;
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Our money (`"90.00"`, `"-1.50"`) in Hub88's units (9000000, -150000); exact, from the decimal string. */
export function moneyToHub88Amount(money: string): number {
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(money);
  if (!m) throw new Error(`not a two-decimal amount: ${money}`);
  const cents = Number(m[2]) * 100 + Number(m[3]);
  return (m[1] === '-' ? -cents : cents) * CENT;
}

// ---- the signature ------------------------------------------------------------------------------

/** Base64 as Hub88's examples write it (standard alphabet, padded); a 4096-bit key's signature is 684 characters. */
const SIGNATURE_FORMAT = /^[A-Za-z0-9+/]{4,1024}={0,2}$/;

/** A PEM public key prepared once (verification then costs the RSA operation only). */
export function hub88PublicKey(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'rsa') throw new Error('not an RSA public key');
  return key;
}

export function hub88PrivateKey(pem: string): KeyObject {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== 'rsa') throw new Error('not an RSA private key');
  return key;
}

/** `X-Hub88-Signature` of a body: base64 of RSA-SHA256 (PKCS #1 v1.5) over its exact bytes. */
export function signHub88(body: Buffer | string, privateKey: KeyObject | string): string {
  return sign('sha256', typeof body === 'string' ? Buffer.from(body, 'utf8') : body, privateKey).toString('base64');
}

/** True when `signature` is one of these keys' over `body`. A malformed header verifies nothing. */
export function verifyHub88(body: Buffer | string, signature: string | undefined, keys: readonly KeyObject[]): boolean {
  if (!signature || !SIGNATURE_FORMAT.test(signature)) return false;
  const bytes = Buffer.from(signature, 'base64');
  const data = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return keys.some((k) => verify('sha256', data, k, bytes));
}

// ---- the Wallet API's requests (Hub88 → us) -----------------------------------------------------
// Members Hub88 documents as optional or nullable are so here; members it may add later are
// accepted (additionalProperties), so a new field of theirs never breaks money calls.

const Text = Type.String();
const OptionalText = Type.Optional(Nullable(Type.String()));
const OptionalFlag = Type.Optional(Nullable(Type.Boolean()));
/** An Int64 × 100000 amount as JSON: an integer (its range and cents are checked by hub88AmountToMoney). */
const Amount = Type.Integer();

export const Hub88UserInfoRequestSchema = Type.Object({ user: Text, request_uuid: Text });
export const Hub88BalanceRequestSchema = Type.Object({
  user: Type.Optional(Text),
  token: Text,
  request_uuid: Text,
  game_code: OptionalText,
});

const transactionFields = {
  user: Text,
  transaction_uuid: Text,
  supplier_transaction_id: OptionalText,
  token: Type.Optional(Nullable(Text)),
  supplier_user: OptionalText,
  round_closed: OptionalFlag,
  round: OptionalText,
  reward_uuid: OptionalText,
  request_uuid: Text,
  is_free: OptionalFlag,
  /** A promotion the game supplier funds (Hub88's changelog, May 2025): a bet of 0, then its win. */
  is_supplier_promo: OptionalFlag,
  is_aggregated: OptionalFlag,
  game_code: OptionalText,
  currency: Text,
  bet: OptionalText,
  amount: Amount,
  meta: Type.Optional(Type.Unknown()),
};

export const Hub88BetRequestSchema = Type.Object({ ...transactionFields, token: Text, game_code: Text });
/** A win names its bet; a supplier promotion's may not (the connector refuses any other win without one: RS_ERROR_WRONG_SYNTAX). */
export const Hub88WinRequestSchema = Type.Object({ ...transactionFields, reference_transaction_uuid: Type.Optional(Nullable(Text)) });
export const Hub88RollbackRequestSchema = Type.Object({
  user: Text,
  transaction_uuid: Text,
  supplier_transaction_id: OptionalText,
  token: Type.Optional(Nullable(Text)),
  round_closed: OptionalFlag,
  round: OptionalText,
  request_uuid: Text,
  reference_transaction_uuid: Text,
  game_code: OptionalText,
  meta: Type.Optional(Type.Unknown()),
});
export type Hub88UserInfoRequest = Static<typeof Hub88UserInfoRequestSchema>;
export type Hub88BalanceRequest = Static<typeof Hub88BalanceRequestSchema>;
export type Hub88BetRequest = Static<typeof Hub88BetRequestSchema>;
export type Hub88WinRequest = Static<typeof Hub88WinRequestSchema>;
export type Hub88RollbackRequest = Static<typeof Hub88RollbackRequestSchema>;

/** The answer to every Wallet API call: HTTP 200 always. Balance and currency with RS_OK and with RS_ERROR_NOT_ENOUGH_MONEY. */
export const Hub88AnswerSchema = Type.Object({
  status: Type.Union(HUB88_STATUSES.map((s) => Type.Literal(s))),
  request_uuid: Type.Optional(Text),
  user: Type.Optional(Text),
  currency: Type.Optional(Text),
  balance: Type.Optional(Type.Integer()),
  /** /user/info: the brand the player plays at, as Hub88's sub-partner. */
  sub_partner_id: Type.Optional(Text),
  country: Type.Optional(Text),
});
export type Hub88Answer = Static<typeof Hub88AnswerSchema>;

export const HUB88_REQUEST_SCHEMAS = {
  info: Hub88UserInfoRequestSchema,
  balance: Hub88BalanceRequestSchema,
  bet: Hub88BetRequestSchema,
  win: Hub88WinRequestSchema,
  rollback: Hub88RollbackRequestSchema,
} as const;
export type Hub88Request<C extends Hub88WalletCall> = Static<(typeof HUB88_REQUEST_SCHEMAS)[C]>;

const compiled = Object.fromEntries(Object.entries(HUB88_REQUEST_SCHEMAS).map(([k, s]) => [k, TypeCompiler.Compile(s)])) as {
  [C in Hub88WalletCall]: ReturnType<typeof TypeCompiler.Compile<(typeof HUB88_REQUEST_SCHEMAS)[C]>>;
};

/**
 * A parsed body against its call's schema: the request, or the status that refuses it. A member
 * the call needs is missing: RS_ERROR_WRONG_SYNTAX ("doesn't match expected request form"); a
 * member of another type: RS_ERROR_WRONG_TYPES.
 */
export function checkHub88Request<C extends Hub88WalletCall>(
  call: C,
  body: unknown,
): { ok: true; request: Hub88Request<C> } | { ok: false; status: Hub88Status; path: string } {
  const check = compiled[call];
  if (check.Check(body)) return { ok: true, request: body as Hub88Request<C> };
  const first = check.Errors(body).First();
  const missing = first?.type === ValueErrorType.ObjectRequiredProperty || first?.type === ValueErrorType.Object;
  return { ok: false, status: missing ? 'RS_ERROR_WRONG_SYNTAX' : 'RS_ERROR_WRONG_TYPES', path: first?.path ?? '' };
}

// ---- the Games API (us → Hub88) -----------------------------------------------------------------

/** One game of `/game/list` as we keep it: Hub88 sends more (thumbnails, platforms, …), which the catalogue does not need. */
export const Hub88GameSchema = Type.Object({
  game_code: Type.String({ minLength: 1 }),
  name: Type.String({ minLength: 1 }),
  category: Type.Optional(Nullable(Type.String())),
  enabled: Type.Optional(Nullable(Type.Boolean())),
  product: Type.Optional(Nullable(Type.String())),
  freebet_support: Type.Optional(Nullable(Type.Boolean())),
});
export type Hub88Game = Static<typeof Hub88GameSchema>;
export const Hub88GameListSchema = Type.Array(Hub88GameSchema);

/** `/game/url`: what we ask (the player's session, our operator id and the brand as sub-partner). */
export interface Hub88GameUrlRequest {
  user: string;
  token: string;
  sub_partner_id: string;
  platform: 'GPL_DESKTOP' | 'GPL_MOBILE';
  operator_id: number;
  meta: Record<string, unknown>;
  lang: string;
  game_code: string;
  currency: string;
  game_currency: string;
  country: string;
  lobby_url?: string;
  ip?: string;
}
export const Hub88GameUrlAnswerSchema = Type.Object({ url: Type.String({ pattern: '^https?://' }) });

const gameList = TypeCompiler.Compile(Hub88GameListSchema);
const gameUrl = TypeCompiler.Compile(Hub88GameUrlAnswerSchema);

// ---- the Transactions API (us → Hub88) ----------------------------------------------------------

/** `/transactions/list`: a time range (Hub88's ISO 8601 without a zone, UTC) or a round; the brand as sub-partner optional. */
export interface Hub88TransactionsRequest {
  operator_id: number;
  user?: string;
  sub_partner_id?: string;
  start_time?: string;
  end_time?: string;
  currency?: string;
  round?: string;
}
/**
 * A transaction item of `/transactions/list` as we read it: its id, status (`TS_SUCCESS`, `TS_DECLINED`,
 * …), amount (Int64 × 100000, made cents exactly by the wallet) and currency; the round, the user and
 * the transaction it refers to when Hub88 sends them; members Hub88 adds are accepted.
 */
export const Hub88TransactionItemSchema = Type.Object({
  transaction_uuid: Type.String({ minLength: 1 }),
  status: Type.String(),
  /** Exactly representable, or the answer is not one we can use. */
  amount: Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }),
  currency: Type.String(),
  round: Type.Optional(Nullable(Type.String())),
  user: Type.Optional(Nullable(Type.String())),
  reference_transaction_uuid: Type.Optional(Nullable(Type.String())),
  game_code: Type.Optional(Nullable(Type.String())),
  inserted_at: Type.Optional(Nullable(Type.String())),
  updated_at: Type.Optional(Nullable(Type.String())),
});
export type Hub88TransactionItem = Static<typeof Hub88TransactionItemSchema>;
const transactionItems = TypeCompiler.Compile(Type.Array(Hub88TransactionItemSchema));

/** What the Games API answered that we can use, or why not (the caller says "the provider is unavailable"). */
export type Hub88GamesResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * Hub88's Games API as an operator calls it: every request a signed JSON POST (our private key),
 * each answer checked against its schema. No retries here: the callers (a launch, our team's sync)
 * answer 502 PROVIDER_UNAVAILABLE and are asked again.
 */
export function hub88GamesApi(o: { baseUrl: string; operatorId: number; privateKey: KeyObject; timeoutMs: number }) {
  const post = async (path: string, body: object): Promise<{ status: number; json: unknown } | { error: string }> => {
    const text = JSON.stringify(body);
    try {
      const res = await fetch(`${o.baseUrl.replace(/\/+$/, '')}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-hub88-signature': signHub88(text, o.privateKey) },
        body: text,
        signal: AbortSignal.timeout(o.timeoutMs),
        redirect: 'error',
      });
      return { status: res.status, json: await res.json().catch(() => undefined) };
    } catch (e) {
      const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
      return { error: timedOut ? 'no answer in time' : 'unreachable' };
    }
  };
  return {
    async gameList(): Promise<Hub88GamesResult<Hub88Game[]>> {
      const r = await post(HUB88_GAMES_PATHS.list, { operator_id: o.operatorId });
      if ('error' in r) return { ok: false, reason: r.error };
      if (r.status !== 200 || !gameList.Check(r.json)) return { ok: false, reason: `answered ${r.status} without a game list` };
      return { ok: true, value: r.json };
    },
    async gameUrl(request: Hub88GameUrlRequest): Promise<Hub88GamesResult<string>> {
      const r = await post(HUB88_GAMES_PATHS.url, request);
      if ('error' in r) return { ok: false, reason: r.error };
      if (r.status !== 200 || !gameUrl.Check(r.json) || !URL.canParse(r.json.url)) return { ok: false, reason: `answered ${r.status} without a game URL` };
      return { ok: true, value: r.json.url };
    },
    /** The transactions of a time range or a round: Hub88's list (an array, or an object holding it in `transactions`). */
    async transactionsList(request: Hub88TransactionsRequest): Promise<Hub88GamesResult<Hub88TransactionItem[]>> {
      const r = await post(HUB88_TRANSACTIONS_PATH, request);
      if ('error' in r) return { ok: false, reason: r.error };
      const list = Array.isArray(r.json) ? r.json : (r.json as { transactions?: unknown } | undefined)?.transactions;
      if (r.status !== 200 || !transactionItems.Check(list)) return { ok: false, reason: `answered ${r.status} without a transaction list` };
      return { ok: true, value: list };
    },
  };
}
