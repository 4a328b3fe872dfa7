// OpenAPI 3.1 document generated from the operation table: no shape is written twice.
// The TypeBox schemas also drive the gateway's validation; where they use formats only our
// FormatRegistry knows (cpf, calendar-date, adult-birth-date, the amounts' formats), the document gets
// a standard format or a pattern instead, so generic validators and linters understand it. Response
// objects are published open (no additionalProperties: false): responses may gain fields.
import { Type, type TSchema } from '@sinclair/typebox';
import { EventDataSchemas, type EventType } from './events.ts';
import { API_VERSION } from './common.ts';
import {
  AMOUNT_UP_TO_MAX_PATTERN,
  MAX_AMOUNT,
  MAX_WIN_AMOUNT,
  PRIZE_AMOUNT_PATTERN,
  SIGNED_WIN_AMOUNT_PATTERN,
  STAKE_AMOUNT_PATTERN,
  WIN_AMOUNT_PATTERN,
} from './formats.ts';
import { ERROR_CATALOGUE, type ErrorCode } from './errors.ts';
import { openApiPath, type Operation } from './operations.ts';
import { OPERATION_DESCRIPTIONS, OPERATION_EXAMPLES, WEBHOOK_EXAMPLES, type OperationExample } from './openapi-examples.ts';

export { OPERATION_DESCRIPTIONS, OPERATION_EXAMPLES, WEBHOOK_EXAMPLES, type OperationExample } from './openapi-examples.ts';

type Json = Record<string, unknown>;

const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
/** Custom formats → what the published document says instead. */
const FORMAT_REPLACEMENTS: Record<string, Json> = {
  cpf: {
    pattern: '^([0-9]{11}|[0-9]{3}\\.[0-9]{3}\\.[0-9]{3}-[0-9]{2})$',
    description: 'A valid CPF (check digits verified), 11 digits with or without punctuation (529.982.247-25 or 52998224725).',
  },
  'calendar-date': { format: 'date', pattern: DATE_PATTERN, description: 'A calendar date, YYYY-MM-DD.' },
  'adult-birth-date': { format: 'date', pattern: DATE_PATTERN, description: 'YYYY-MM-DD, a real calendar date; the player must be at least 18 years old.' },
  'amount-up-to-max': {
    pattern: AMOUNT_UP_TO_MAX_PATTERN,
    maxLength: MAX_AMOUNT.length,
    description: `Decimal string with at most 2 decimals, from 0 up to ${MAX_AMOUNT}.`,
  },
  'stake-amount': {
    pattern: STAKE_AMOUNT_PATTERN,
    maxLength: MAX_AMOUNT.length,
    description: `Decimal string with at most 2 decimals, from 0.01 up to ${MAX_AMOUNT}.`,
  },
  'win-amount': {
    pattern: WIN_AMOUNT_PATTERN,
    maxLength: MAX_WIN_AMOUNT.length,
    description: `Decimal string with at most 2 decimals, from 0 up to ${MAX_WIN_AMOUNT}.`,
  },
  'prize-amount': {
    pattern: PRIZE_AMOUNT_PATTERN,
    maxLength: MAX_WIN_AMOUNT.length,
    description: `Decimal string with at most 2 decimals, from 0.01 up to ${MAX_WIN_AMOUNT}.`,
  },
  'signed-win-amount': {
    pattern: SIGNED_WIN_AMOUNT_PATTERN,
    maxLength: MAX_WIN_AMOUNT.length + 1,
    description: `Signed decimal string with at most 2 decimals, not zero, from -${MAX_WIN_AMOUNT} up to ${MAX_WIN_AMOUNT}.`,
  },
};

/** Deep-copies a TypeBox schema to plain JSON, moving every `$id` schema into components. */
function toJsonSchema(schema: TSchema, components: Record<string, unknown>): unknown {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    let out: Json = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === '$id') continue;
      if (k === 'additionalProperties' && v === false) continue; // open objects: fields may be added
      out[k] = walk(v);
    }
    const replacement = typeof out.format === 'string' ? FORMAT_REPLACEMENTS[out.format] : undefined;
    if (replacement) {
      const { format: _drop, ...rest } = out;
      out = { ...rest, ...replacement, ...(rest.description ? { description: rest.description } : {}) };
    }
    const id = (node as Json).$id;
    if (typeof id === 'string') {
      components[id] = out;
      return { $ref: `#/components/schemas/${id}` };
    }
    return out;
  };
  return walk(schema);
}

function parameters(
  where: 'path' | 'query',
  schema: TSchema | undefined,
  components: Record<string, unknown>,
  example: Record<string, unknown> | undefined,
): Json[] {
  if (!schema) return [];
  const json = toJsonSchema(schema, components) as Json;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries((json.properties as Json | undefined) ?? {}).map(([name, s]) => {
    const { description, ...rest } = s as Json;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      description: (description as string | undefined) ?? PARAMETER_DESCRIPTIONS[name] ?? name,
      schema: rest,
      ...(example?.[name] !== undefined ? { example: example[name] } : {}),
    };
  });
}

const PARAMETER_DESCRIPTIONS: Record<string, string> = {
  playerId: 'The player `id` (not your externalId).',
  depositId: 'The deposit `id`.',
  withdrawalId: 'The withdrawal `id`.',
  externalId: 'Your own identifier of the player.',
  limit: 'Page size, 1 to 200 (default 50).',
  cursor: 'Opaque cursor: the `nextCursor` of the previous page.',
};

const COMMON_ERRORS: ErrorCode[] = [
  'BAD_REQUEST',
  'HEADERS_TOO_LARGE',
  'INVALID_CREDENTIALS',
  'TIMESTAMP_OUT_OF_RANGE',
  'INVALID_SIGNATURE',
  'OPERATOR_SUSPENDED',
  'FORBIDDEN_IP',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
];
/** What any request carrying bytes can also get. */
const BODY_ERRORS: ErrorCode[] = ['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'EXPECTATION_FAILED'];

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  400: 'Bad request',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  417: 'Expectation failed',
  422: 'Unprocessable',
  429: 'Too many requests',
  431: 'Request headers too large',
  500: 'Internal error',
  502: 'Bad gateway',
  503: 'Service unavailable',
};

const header = (description: string, schema: Json, example: unknown) => ({ description, schema, example });
const HEADERS: Json = {
  'X-Request-Id': header(
    'Identifier of this request; the same value as `error.requestId` in an error body. Quote it when you contact support.',
    { type: 'string', pattern: '^req_[A-Za-z0-9]+$' },
    'req_01934b7e8c8e7c3a9f2d1b0a55aa66bb',
  ),
  'RateLimit-Limit': header('Requests allowed per minute for this operator.', { type: 'integer', minimum: 1 }, 600),
  'RateLimit-Remaining': header('Requests left in the current window.', { type: 'integer', minimum: 0 }, 599),
  'RateLimit-Reset': header('Seconds until the window resets.', { type: 'integer', minimum: 0 }, 42),
  'Retry-After': header('Seconds to wait before retrying.', { type: 'integer', minimum: 0 }, 1),
  'Idempotent-Replayed': header(
    '`true` when this is the stored response of an earlier request with the same Idempotency-Key (the effect was not repeated).',
    { type: 'string', enum: ['true'] },
    'true',
  ),
};
const hdr = (...names: string[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
const RATE_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/** Codes whose responses carry Retry-After. */
const RETRY_AFTER: ErrorCode[] = ['RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'IDEMPOTENCY_IN_PROGRESS', 'SIGNATURE_REUSED'];
/** Refused before the credential is known: no RateLimit-* headers. */
const BEFORE_AUTH: ErrorCode[] = [
  'BAD_REQUEST',
  'HEADERS_TOO_LARGE',
  'INVALID_CREDENTIALS',
  'TIMESTAMP_OUT_OF_RANGE',
  'INVALID_SIGNATURE',
  'PAYLOAD_TOO_LARGE',
  'EXPECTATION_FAILED',
  'OPERATOR_SUSPENDED',
  'FORBIDDEN_IP',
];

function errorResponse(status: number, codes: ErrorCode[], rateLimited = true): Json {
  const headers = [
    'X-Request-Id',
    ...(rateLimited && codes.some((c) => !BEFORE_AUTH.includes(c)) ? RATE_HEADERS : []),
    ...(codes.some((c) => RETRY_AFTER.includes(c)) ? ['Retry-After'] : []),
  ];
  const code = codes[0]!; // a status is listed because some code answers with it
  const details =
    code === 'VALIDATION_ERROR'
      ? { in: 'body', issues: [{ path: '/amount', message: 'Expected string to match pattern' }] }
      : code === 'DEPOSIT_ALREADY_EXISTS'
        ? { depositId: 'dep_01934b7e8c8e7c3a9f2d1b0a55667788' }
        : undefined;
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    headers: hdr(...headers),
    content: {
      'application/json': {
        // The error envelope (common.ts ErrorEnvelope) with this status's codes as an enum; written
        // out rather than allOf so example validators do not see unevaluated properties.
        schema: {
          type: 'object',
          required: ['error'],
          description: 'The error envelope.',
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message', 'requestId'],
              properties: {
                code: { type: 'string', enum: codes, description: 'Stable error code.' },
                message: { type: 'string', description: 'Human-readable; may change.' },
                requestId: { type: 'string', description: 'Equals the X-Request-Id header.' },
                details: { type: 'object', description: 'Optional details (VALIDATION_ERROR: `in` and `issues`).' },
              },
            },
          },
        },
        example: {
          error: { code, message: ERROR_CATALOGUE[code].message, requestId: 'req_01934b7e8c8e7c3a9f2d1b0a55aa66bb', ...(details ? { details } : {}) },
        },
      },
    },
  };
}

/** An unauthenticated route that describes the API, listed in the document too. */
export interface PublicRoute {
  path: string;
  id: string;
  summary: string;
  type: string;
  schema: Json;
  example: unknown;
}

/** The unauthenticated routes that describe the API, listed in the document too. */
const PUBLIC_ROUTES: PublicRoute[] = [
  {
    path: '/openapi.json',
    id: 'getOpenApi',
    summary: 'This OpenAPI 3.1 document',
    type: 'application/json',
    schema: { type: 'object' },
    example: { openapi: '3.1.0', info: { title: 'Operator Gaming Back-Office API', version: API_VERSION } },
  },
  {
    path: '/changelog',
    id: 'getChangelog',
    summary: 'The change history (Markdown)',
    type: 'text/markdown',
    schema: { type: 'string' },
    example: `# Changelog\n\n## ${API_VERSION}\n...`,
  },
  {
    path: '/postman.json',
    id: 'getPostmanCollection',
    summary: 'A Postman v2.1 collection that runs the sandbox journey',
    type: 'application/json',
    schema: { type: 'object' },
    example: { info: { name: 'Operator Gaming Back-Office API', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [] },
  },
  {
    path: '/signing-snippets.json',
    id: 'getSigningSnippets',
    summary: 'Code that signs requests and verifies webhooks',
    type: 'application/json',
    schema: { type: 'object' },
    example: { requestSigning: { node: '...' }, webhookVerification: { node: '...' } },
  },
  {
    path: '/test-vectors.json',
    id: 'getTestVectors',
    summary: 'Inputs and the signatures they must produce',
    type: 'application/json',
    schema: { type: 'object' },
    example: { requests: [], webhooks: [] },
  },
  {
    path: '/sdk',
    id: 'getSdkReadme',
    summary: "The Node.js SDK's README: install, quick start, retries, errors, webhooks (Markdown)",
    type: 'text/markdown',
    schema: { type: 'string' },
    example: '# @bo/sdk\n\nThe operator SDK for the Back-Office API...',
  },
  {
    path: '/docs',
    id: 'getDocs',
    summary: 'The API reference (HTML) with a sandbox try-it',
    type: 'text/html',
    schema: { type: 'string' },
    example: '<!doctype html>...',
  },
];

const TAGS = [
  { name: 'Identity', description: 'Who the calling credential is.' },
  { name: 'Players', description: 'Register players and find them by your own identifier.' },
  { name: 'KYC', description: 'Identity-verification submissions and status.' },
  {
    name: 'Terms',
    description:
      "Your terms and conditions versions and each player's acceptance (which version, when, from which IP address). Under `br-spa` a player accepts the version in force before the next deposit or game session.",
  },
  {
    name: 'Responsible gaming',
    description:
      'Limits the player chose (deposit, loss, wager, time by day, week or month), pauses and self-exclusion; enforced on every deposit, game session and round.',
  },
  { name: 'Wallet', description: 'Balances and the ledger (extrato).' },
  { name: 'Deposits', description: 'Deposits: create pending, then confirm (credit) or fail.' },
  { name: 'Withdrawals', description: 'Withdrawals: request, read, cancel; decided by the team.' },
  { name: 'Games', description: 'Game catalogue and game sessions.' },
  { name: 'Webhooks', description: 'Test the delivery of signed events to your URL.' },
  { name: 'Sandbox', description: 'Simulate the team decisions. Sandbox (bk_test_) keys only; production keys get 403 SANDBOX_ONLY.' },
  { name: 'Public documents', description: 'The documents that describe the API. No authentication.' },
];

/** The event id and the signature's time, each sent twice: under our names and the Standard Webhooks'. */
const EVENT_ID = { example: 'evt_01934b7e8c8e7c3a9f2d1b0a99887766', schema: { type: 'string' } };
const EPOCH_SECONDS = { example: '1763719200', schema: { type: 'string', pattern: '^[0-9]+$' } };

const WEBHOOK_HEADERS = [
  { name: 'X-Webhook-Id', description: 'The event id; deduplicate on it (delivery is at-least-once).', ...EVENT_ID },
  { name: 'X-Webhook-Timestamp', description: 'Epoch seconds used in the signature; reject old ones (e.g. more than 300 s).', ...EPOCH_SECONDS },
  {
    name: 'X-Webhook-Signature',
    description: 'Lowercase hex HMAC-SHA256 keyed with the whsec_ secret string over `timestamp + "." + raw body`.',
    example: '5f1c0c5b7d1f4c0e8f6a4a0c2b9f0f3f9f1b6d2b8a7c6e5d4c3b2a1908f7e6d5',
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
  { name: 'webhook-id', description: 'Standard Webhooks: the event id (same as X-Webhook-Id).', ...EVENT_ID },
  { name: 'webhook-timestamp', description: 'Standard Webhooks: epoch seconds (same as X-Webhook-Timestamp).', ...EPOCH_SECONDS },
  {
    name: 'webhook-signature',
    description:
      'Standard Webhooks: space-separated `v1,<base64>` signatures, HMAC-SHA256 keyed with the base64-decoded part of the whsec_ secret over `id.timestamp.body`. Any Standard Webhooks library verifies it.',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    schema: { type: 'string' },
  },
];

/**
 * What differs between the API surfaces one generator documents: the operators' `/api/v1` (the
 * default) and the providers' `/provider/v1` (openapi-provider.ts): who signs (the security
 * scheme), the errors any request may get, whether changes take an Idempotency-Key and answers
 * carry RateLimit-* headers, the public documents, the tags, and the examples.
 */
export interface ApiSurface {
  info: { title: string; summary: string; description: string[]; contactName: string };
  securitySchemes: Record<string, Json>;
  tags: { name: string; description: string }[];
  /** Codes any operation may answer (before its own). */
  commonErrors: ErrorCode[];
  /** Changes take an Idempotency-Key (and may get its errors). */
  idempotencyKeys: boolean;
  /** Answers carry RateLimit-* headers. */
  rateLimited: boolean;
  publicRoutes: PublicRoute[];
  examples: Record<string, OperationExample>;
  descriptions: Record<string, string>;
  serverDescription: string;
}

const OPERATOR_SURFACE: ApiSurface = {
  info: {
    title: 'Operator Gaming Back-Office API',
    summary: 'Server-to-server API for gaming and betting operators.',
    contactName: 'Back-office API support',
    description: [
      'Server-to-server back-office API: players, KYC, deposits, wallet and ledger, withdrawals, games and signed webhooks.',
      '**Authentication.** Every operation except the public documents carries `X-Operator-Key`, `X-Timestamp` (epoch seconds, within 300 s of the server clock) and `X-Signature` = lowercase hex HMAC-SHA256 keyed with your `sk_` secret over four lines joined by LF: the method, the path as sent (with `/api/v1` and the query string), the timestamp and the hex SHA-256 of the body bytes (of the empty string when there is no body). `bk_test_` keys act on your isolated sandbox brand, `bk_live_` keys on production.',
      '**Idempotency.** Operations marked idempotent require `Idempotency-Key`; the same key and request replays the stored response with `Idempotent-Replayed: true`; the key with another request (another operation included) is 409 `IDEMPOTENCY_CONFLICT`. 5xx answers release the key for a retry of the same request. A signed change is accepted with one `Idempotency-Key` only (or only without one): the same signature sent with another key is 401 `SIGNATURE_REUSED`; sign afresh, with a new `X-Timestamp`.',
      '**Errors** use the envelope `{ "error": { "code", "message", "requestId", "details" } }`; `code` is stable. Responses may gain fields: ignore unknown ones.',
    ],
  },
  securitySchemes: {
    operatorKey: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Operator-Key',
      description: 'Your operator key: bk_test_... (sandbox) or bk_live_... (production).',
    },
    timestamp: { type: 'apiKey', in: 'header', name: 'X-Timestamp', description: 'Epoch seconds; within 300 s of the server clock.' },
    signature: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Signature',
      description: 'hex HMAC-SHA256(secret, METHOD\\nPATH?QUERY\\nTIMESTAMP\\nsha256hex(body))',
    },
  },
  tags: TAGS,
  commonErrors: COMMON_ERRORS,
  idempotencyKeys: true,
  rateLimited: true,
  publicRoutes: PUBLIC_ROUTES,
  examples: OPERATION_EXAMPLES,
  descriptions: OPERATION_DESCRIPTIONS,
  serverDescription: 'This server (the key chooses sandbox or production)',
};

export interface OpenApiOptions {
  serverUrl: string;
  webhookEvents: { name: string; type: string; summary: string; schema?: TSchema }[];
  /** The surface documented; the operators' API when absent. */
  surface?: ApiSurface;
}

export function buildOpenApi(operations: Record<string, Operation>, opts: OpenApiOptions): Json {
  const surface = opts.surface ?? OPERATOR_SURFACE;
  const components: Record<string, unknown> = {};
  const paths: Record<string, Json> = {};
  for (const op of Object.values(operations)) {
    const path = openApiPath(op.path);
    const example = surface.examples[op.id];
    // Any request may carry bytes (even a GET): the gateway checks their size and type on every route.
    const errors: ErrorCode[] = [...surface.commonErrors, ...BODY_ERRORS, ...(op.errors ?? [])];
    // A change's signature is bound to its Idempotency-Key (or to none): the same signature with another is refused.
    if (surface.idempotencyKeys && op.method !== 'GET') errors.push('IDEMPOTENCY_CONFLICT', 'IDEMPOTENCY_IN_PROGRESS', 'SIGNATURE_REUSED');
    if (op.idempotent) errors.push('IDEMPOTENCY_KEY_REQUIRED');
    // Every operation validates its query (its percent-encoding and text), parameters or not.
    errors.push('VALIDATION_ERROR');
    if (op.sandboxOnly) errors.push('SANDBOX_ONLY');
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of new Set(errors)) {
      const s = ERROR_CATALOGUE[code].status;
      byStatus.set(s, [...(byStatus.get(s) ?? []), code]);
    }
    const successHeaders = [
      'X-Request-Id',
      ...(surface.rateLimited ? RATE_HEADERS : []),
      ...(surface.idempotencyKeys && op.method !== 'GET' ? ['Idempotent-Replayed'] : []),
    ];
    const responses: Json = {
      [op.status]: {
        description: op.summary,
        headers: hdr(...successHeaders),
        content: {
          'application/json': {
            // A file is streamed whole (the chunks are between the gateway and the service): its own format, not FileChunk.
            schema: op.download ? { type: 'object', description: 'The file, whole.' } : toJsonSchema(op.response, components),
            ...(example ? { example: example.response } : {}),
          },
        },
      },
    };
    for (const status of [...byStatus.keys()].sort((a, b) => a - b)) responses[status] = errorResponse(status, byStatus.get(status)!, surface.rateLimited);
    // A download's `cursor` is the gateway's, while it pages through the file: never the caller's.
    const query = op.download && op.query ? Type.Omit(op.query, ['cursor']) : op.query;
    const params = [...parameters('path', op.params, components, example?.params), ...parameters('query', query, components, example?.query)];
    // Required on idempotent operations; every other mutation accepts one with the same semantics.
    if (surface.idempotencyKeys && op.method !== 'GET') {
      params.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: op.idempotent === true,
        description: op.idempotent
          ? 'Required. A new unique key per operation (8–128 of A-Z a-z 0-9 _ - : .); resend the same key to retry safely. Kept 24 hours.'
          : 'Optional. With a key, a retry returns the stored response instead of repeating the effect.',
        schema: { type: 'string', pattern: '^[A-Za-z0-9_\\-:.]{8,128}$' },
        example: '5b0f9a8e-2f4d-4c1e-9a77-3e2d1c0b9a88',
      });
    }
    let requestBody: Json | undefined;
    if (op.body) {
      const bodySchema = toJsonSchema(op.body, components);
      const resolved = (bodySchema as Json).$ref
        ? (components[
            String((bodySchema as Json).$ref)
              .split('/')
              .pop()!
          ] as Json)
        : (bodySchema as Json);
      // A body with required fields (or one of several shapes, or at least one field: PATCH) must be sent; one without (confirm, fail, cancel) may be omitted (= {}).
      const required =
        (Array.isArray(resolved.required) && resolved.required.length > 0) ||
        Array.isArray(resolved.anyOf) ||
        (typeof resolved.minProperties === 'number' && resolved.minProperties > 0);
      requestBody = {
        required,
        description: required ? 'JSON object.' : 'JSON object; may be empty or omitted.',
        content: { 'application/json': { schema: bodySchema, ...(example?.body ? { example: example.body } : {}) } },
      };
    }
    const description = [
      surface.descriptions[op.id] ?? op.summary,
      op.idempotent ? 'Idempotent: send `Idempotency-Key`.' : '',
      op.sandboxOnly ? 'Sandbox only: production keys get 403 `SANDBOX_ONLY`.' : '',
    ]
      .filter(Boolean)
      .join('\n\n');
    paths[path] ??= {};
    paths[path][op.method.toLowerCase()] = {
      operationId: op.id,
      summary: op.summary,
      description,
      tags: [op.tag],
      ...(params.length ? { parameters: params } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }
  for (const r of surface.publicRoutes) {
    paths[r.path] = {
      get: {
        operationId: r.id,
        summary: r.summary,
        tags: ['Public documents'],
        security: [],
        description: `${r.summary}. Public: no authentication, not rate limited per operator.`,
        responses: {
          200: { description: r.summary, headers: hdr('X-Request-Id'), content: { [r.type]: { schema: r.schema, example: r.example } } },
          // Refused by the HTTP layer before any route runs.
          400: errorResponse(400, ['BAD_REQUEST'], surface.rateLimited),
          431: errorResponse(431, ['HEADERS_TOO_LARGE'], surface.rateLimited),
          500: errorResponse(500, ['INTERNAL_ERROR'], surface.rateLimited),
        },
      },
    };
  }
  const webhooks: Json = {};
  for (const ev of opts.webhookEvents) {
    webhooks[ev.type] = {
      post: {
        operationId: ev.name,
        summary: ev.summary,
        tags: ['Webhooks'],
        description: `POSTed to your webhook URL when: ${ev.summary.toLowerCase()}. Verify the signature over the raw body, answer any 2xx within 10 s; other answers are retried with backoff, up to 8 attempts. Deduplicate on X-Webhook-Id.`,
        parameters: WEBHOOK_HEADERS.map((h) => ({ ...h, in: 'header', required: true })),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['id', 'type', 'createdAt', 'environment', 'data'],
                properties: {
                  id: { type: 'string', description: 'Event id (evt_...), equal to X-Webhook-Id.' },
                  type: { type: 'string', const: ev.type },
                  createdAt: { type: 'string', format: 'date-time' },
                  environment: { type: 'string', enum: ['sandbox', 'production'] },
                  data: toJsonSchema(ev.schema ?? EventDataSchemas[ev.type as EventType] ?? Type.Object({}), components),
                },
              },
              ...(WEBHOOK_EXAMPLES[ev.type] ? { example: WEBHOOK_EXAMPLES[ev.type] } : {}),
            },
          },
        },
        responses: { '2XX': { description: 'Acknowledged: the event will not be sent again.' } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: surface.info.title,
      version: API_VERSION,
      summary: surface.info.summary,
      description: surface.info.description.join('\n\n'),
      contact: { name: surface.info.contactName, url: `${opts.serverUrl}/docs` },
      license: { name: 'Proprietary', url: `${opts.serverUrl}/docs` },
    },
    servers: [{ url: opts.serverUrl, description: surface.serverDescription }],
    security: [Object.fromEntries(Object.keys(surface.securitySchemes).map((k) => [k, []]))],
    tags: surface.tags,
    components: {
      schemas: components,
      // Only the headers this surface's answers carry (the providers' carry no RateLimit-* or Idempotent-Replayed).
      headers: Object.fromEntries(Object.entries(HEADERS).filter(([name]) => JSON.stringify(paths).includes(`"#/components/headers/${name}"`))),
      securitySchemes: surface.securitySchemes,
    },
    paths,
    ...(opts.webhookEvents.length > 0 ? { webhooks } : {}),
  };
}
