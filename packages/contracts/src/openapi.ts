// OpenAPI 3.1 document generated from the operation table: no shape is written twice.
import type { TSchema } from '@sinclair/typebox';
import { API_VERSION, ErrorEnvelope } from './common.ts';
import { ERROR_CATALOGUE, type ErrorCode } from './errors.ts';
import { openApiPath, type Operation } from './operations.ts';

export { OPERATION_EXAMPLES, WEBHOOK_EXAMPLES, type OperationExample } from './openapi-examples.ts';

type Json = Record<string, unknown>;

/** Deep-copies a TypeBox schema to plain JSON, moving every `$id` schema into components. */
function toJsonSchema(schema: TSchema, components: Record<string, unknown>): unknown {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) if (k !== '$id') out[k] = walk(v);
    const id = (node as Json).$id;
    if (typeof id === 'string') {
      components[id] = out;
      return { $ref: `#/components/schemas/${id}` };
    }
    return out;
  };
  return walk(schema);
}

function parameters(where: 'path' | 'query', schema: TSchema | undefined, components: Record<string, unknown>): Json[] {
  if (!schema) return [];
  const json = toJsonSchema(schema, components) as Json;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries((json.properties as Json | undefined) ?? {}).map(([name, s]) => ({
    name, in: where, required: where === 'path' || required.has(name), schema: s,
  }));
}

const COMMON_ERRORS: ErrorCode[] = [
  'BAD_REQUEST', 'HEADERS_TOO_LARGE', 'INVALID_CREDENTIALS', 'TIMESTAMP_OUT_OF_RANGE', 'INVALID_SIGNATURE', 'OPERATOR_SUSPENDED', 'FORBIDDEN_IP',
  'RATE_LIMITED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE',
];
/** What any request that may carry a body can also get. */
const BODY_ERRORS: ErrorCode[] = ['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'EXPECTATION_FAILED'];

export interface OpenApiOptions { serverUrl: string; webhookEvents: { name: string; type: string; summary: string; schema?: TSchema }[] }

export function buildOpenApi(operations: Record<string, Operation>, opts: OpenApiOptions): Json {
  const components: Record<string, unknown> = {};
  const paths: Record<string, Json> = {};
  for (const op of Object.values(operations)) {
    const path = openApiPath(op.path);
    const errors: ErrorCode[] = [...COMMON_ERRORS, ...(op.errors ?? [])];
    if (op.method !== 'GET') errors.push(...BODY_ERRORS, 'IDEMPOTENCY_CONFLICT', 'IDEMPOTENCY_IN_PROGRESS');
    if (op.idempotent) errors.push('IDEMPOTENCY_KEY_REQUIRED');
    if (op.body || op.query || op.params) errors.push('VALIDATION_ERROR');
    if (op.sandboxOnly) errors.push('SANDBOX_ONLY');
    const byStatus = new Map<number, string[]>();
    for (const code of new Set(errors)) {
      const s = ERROR_CATALOGUE[code].status;
      byStatus.set(s, [...(byStatus.get(s) ?? []), code]);
    }
    const responses: Json = {
      [op.status]: { description: 'Success', content: { 'application/json': { schema: toJsonSchema(op.response, components) } } },
    };
    for (const [status, codes] of byStatus) {
      responses[status] = { description: codes.join(', '), content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } };
    }
    const params = [...parameters('path', op.params, components), ...parameters('query', op.query, components)];
    // Required on idempotent operations; every other mutation accepts one with the same semantics.
    if (op.method !== 'GET') params.push({ name: 'Idempotency-Key', in: 'header', required: op.idempotent === true, schema: { type: 'string', pattern: '^[A-Za-z0-9_\\-:.]{8,128}$' } });
    paths[path] ??= {};
    paths[path][op.method.toLowerCase()] = {
      operationId: op.id, summary: op.summary, tags: [op.tag],
      ...(params.length ? { parameters: params } : {}),
      ...(op.body ? { requestBody: { required: false, content: { 'application/json': { schema: toJsonSchema(op.body, components) } } } } : {}),
      responses,
      ...(op.sandboxOnly ? { description: 'Sandbox only: production keys get 403 SANDBOX_ONLY.' } : {}),
    };
  }
  toJsonSchema(ErrorEnvelope, components);
  const webhooks: Json = {};
  for (const ev of opts.webhookEvents) {
    webhooks[ev.type] = {
      post: {
        operationId: ev.name, summary: ev.summary,
        parameters: [
          { name: 'X-Webhook-Id', in: 'header', required: true, schema: { type: 'string' } },
          { name: 'X-Webhook-Timestamp', in: 'header', required: true, schema: { type: 'string' } },
          { name: 'X-Webhook-Signature', in: 'header', required: true, schema: { type: 'string' } },
        ],
        requestBody: { content: { 'application/json': { schema: ev.schema ? toJsonSchema(ev.schema, components) : { type: 'object' } } } },
        responses: { '2XX': { description: 'Acknowledged' } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Operator Gaming Back-Office API', version: API_VERSION },
    servers: [{ url: opts.serverUrl }],
    security: [{ operatorKey: [], timestamp: [], signature: [] }],
    components: {
      schemas: components,
      securitySchemes: {
        operatorKey: { type: 'apiKey', in: 'header', name: 'X-Operator-Key' },
        timestamp: { type: 'apiKey', in: 'header', name: 'X-Timestamp' },
        signature: { type: 'apiKey', in: 'header', name: 'X-Signature', description: 'hex HMAC-SHA256(secret, METHOD\\nPATH?QUERY\\nTIMESTAMP\\nsha256hex(body))' },
      },
    },
    paths,
    webhooks,
  };
}
