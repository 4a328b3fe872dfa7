// Typed errors. Every non-2xx answer becomes a BackOfficeError carrying the contract's envelope
// (`code`, `message`, `requestId`, `details`); a subclass per kind of failure lets callers catch
// by class, and `code` is the contract's union so a switch over it is checked by the compiler.
import { ERROR_STATUSES, type ErrorCode } from './operations.generated.ts';

/**
 * Codes the SDK itself uses when there is no contract envelope: `NETWORK_ERROR` (no response),
 * `UNEXPECTED_RESPONSE` (a non-2xx answer without the JSON envelope, e.g. from a proxy).
 */
export type SdkErrorCode = 'NETWORK_ERROR' | 'UNEXPECTED_RESPONSE';
/** A code of the catalogue, the SDK's own, or one a newer API version added. */
export type BackOfficeErrorCode = ErrorCode | SdkErrorCode | (string & {});

export interface ValidationIssue {
  path: string;
  message: string;
}
export interface ValidationDetails {
  in: 'body' | 'query' | 'path' | 'header';
  issues: ValidationIssue[];
}

export interface BackOfficeErrorInit {
  code: BackOfficeErrorCode;
  message: string;
  status?: number;
  requestId?: string;
  details?: Record<string, unknown>;
  /** Milliseconds the server asked to wait (Retry-After), when it said. */
  retryAfterMs?: number;
  idempotencyKey?: string;
  attempts?: number;
  cause?: unknown;
}

export class BackOfficeError extends Error {
  readonly code: BackOfficeErrorCode;
  /** HTTP status; 0 when no response arrived. */
  readonly status: number;
  readonly requestId: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfterMs: number | undefined;
  /** The Idempotency-Key sent, so the caller can retry later with the same one. */
  readonly idempotencyKey: string | undefined;
  /** How many attempts were made before giving up. */
  readonly attempts: number;

  constructor(init: BackOfficeErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.status = init.status ?? 0;
    this.requestId = init.requestId;
    this.details = init.details;
    this.retryAfterMs = init.retryAfterMs;
    this.idempotencyKey = init.idempotencyKey;
    this.attempts = init.attempts ?? 1;
  }

  /** True when `code` is the given contract code (narrows for the compiler). */
  is<C extends ErrorCode>(code: C): this is BackOfficeError & { code: C } {
    return this.code === code;
  }
}

/** 401: bad key, signature or timestamp. Retrying the same request will not help. */
export class AuthenticationError extends BackOfficeError {}
/** 403: suspended operator, address not allowed, sandbox-only route, or a domain refusal (KYC, RG, status). */
export class PermissionError extends BackOfficeError {}
/** 404: unknown route or resource. */
export class NotFoundError extends BackOfficeError {}
/** 409: state conflicts, duplicates, idempotency conflicts. */
export class ConflictError extends BackOfficeError {}
/** 422 VALIDATION_ERROR (with `issues`) and other 422 domain refusals. */
export class ValidationError extends BackOfficeError {
  /** `details.issues` of a VALIDATION_ERROR, empty otherwise. */
  get issues(): ValidationIssue[] {
    const issues = this.details?.issues;
    return Array.isArray(issues) ? (issues as ValidationIssue[]) : [];
  }
}
/** 429 RATE_LIMITED; `retryAfterMs` says when to come back. */
export class RateLimitError extends BackOfficeError {}
/** 5xx: the request may be retried (with the same Idempotency-Key). */
export class ServerError extends BackOfficeError {}
/** No response at all: refused, reset, timed out. */
export class ConnectionError extends BackOfficeError {}
/** Any other status (400, 413, 415, 410, ...). */
export class RequestError extends BackOfficeError {}

/** Which class answers a status. */
export function errorClassFor(status: number): typeof BackOfficeError {
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 422) return ValidationError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return ServerError;
  return RequestError;
}

interface Envelope {
  error: { code: string; message: string; requestId?: string; details?: Record<string, unknown> };
}

function isEnvelope(body: unknown): body is Envelope {
  const e = (body as Envelope | undefined)?.error;
  return typeof e === 'object' && e !== null && typeof e.code === 'string' && typeof e.message === 'string';
}

/** Builds the typed error for a non-2xx answer. */
export function errorFromResponse(
  status: number,
  headers: Headers,
  body: unknown,
  extra: Pick<BackOfficeErrorInit, 'retryAfterMs' | 'idempotencyKey' | 'attempts'>,
): BackOfficeError {
  const requestId = headers.get('x-request-id') ?? undefined;
  const Class = errorClassFor(status);
  if (isEnvelope(body)) {
    return new Class({
      code: body.error.code,
      message: body.error.message,
      status,
      // The body keeps the original request's id on an idempotent replay; the header is this attempt's.
      requestId: body.error.requestId ?? requestId,
      details: body.error.details,
      ...extra,
    });
  }
  return new Class({ code: 'UNEXPECTED_RESPONSE', message: `HTTP ${status} without an error envelope`, status, requestId, ...extra });
}

/** The status the contract gives a code; undefined for codes this SDK version does not know. */
export function statusOfCode(code: string): number | undefined {
  return (ERROR_STATUSES as Record<string, number>)[code];
}
