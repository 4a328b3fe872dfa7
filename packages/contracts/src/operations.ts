// An operation is one HTTP route of the public or admin API. The gateway registers every
// operation from this table, validates with its schemas, and forwards it over NATS to
// `<prefix>.<subject>`; the OpenAPI document is generated from the same table.
import type { TSchema } from '@sinclair/typebox';
import type { ErrorCode } from './errors.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Operation {
  /** operationId in the OpenAPI document. */
  id: string;
  method: HttpMethod;
  /** Fastify-style path relative to the API base (`/players/:playerId`). */
  path: string;
  /** NATS subject without the prefix (`players.create`); absent for gateway-local operations. */
  subject?: string;
  summary: string;
  tag: string;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  response: TSchema;
  /** Success status. */
  status: number;
  /**
   * Requires an Idempotency-Key (every other mutation accepts one). Whichever it is, the owning
   * service keeps the key's answer (docs/architecture.md, "Idempotency"): nothing to declare here.
   */
  idempotent?: boolean;
  sandboxOnly?: boolean;
  /** The gateway's deadline for this operation when it needs more than RPC_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Errors the operation documents beyond the common ones. */
  errors?: ErrorCode[];
  /**
   * The answer is a file: the service answers it in chunks (`FileChunk`, regulator-file.ts) and the
   * gateway streams them as one response with the chunk's content type and file name.
   */
  download?: boolean;
}

export function defineOperations<const T extends Record<string, Operation>>(ops: T): T {
  return ops;
}

/** `/players/:playerId` → `/players/{playerId}` for OpenAPI. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
