// Public surface of @bo/sdk.
export { BackOffice, type BackOfficeOptions, type OperationRequest, type ReadOptions, type TransactionsPage } from './back-office-client.ts';
export { SignedTransport, type ApiResponse, type OperationInput, type OperationSpec, type RequestOptions, type TransportOptions } from './signed-transport.ts';
export { DEFAULT_RETRY, backoffDelay, isRetryable, parseRetryAfter, type AttemptFailure, type RetryOptions, type RetrySafety } from './retry-policy.ts';
export {
  AuthenticationError,
  BackOfficeError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  RequestError,
  ServerError,
  ValidationError,
  errorClassFor,
  statusOfCode,
  type BackOfficeErrorCode,
  type BackOfficeErrorInit,
  type SdkErrorCode,
  type ValidationDetails,
  type ValidationIssue,
} from './errors.ts';
export { EMPTY_BODY_SHA256, bodySha256, canonicalRequestString, canonicalRequestStringV2, signRequest, signRequestV2, type PreparedSecret } from './signing.ts';
export { generateCpf } from './cpf.ts';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  WebhookVerificationError,
  headerValue,
  verifyWebhook,
  type HeaderSource,
  type VerifiedWebhook,
  type VerifyWebhookOptions,
  type WebhookFailure,
  type WebhookScheme,
} from './webhook-verification.ts';
export type { WebhookEvent, WebhookEventData } from './webhook-events.ts';
export * from './operations.generated.ts';
