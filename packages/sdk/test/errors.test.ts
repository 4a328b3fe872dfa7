// Errors are typed by code and status: the contract envelope's code, message, requestId and
// details on a class per kind of failure.
import t from 'tap';
import {
  AuthenticationError,
  BackOffice,
  BackOfficeError,
  ConflictError,
  ERROR_STATUSES,
  NotFoundError,
  PermissionError,
  RateLimitError,
  RequestError,
  ServerError,
  ValidationError,
  errorClassFor,
  statusOfCode,
  type ErrorCode,
} from '../src/index.ts';
import { KEY, SECRET, envelope, fakeTime, startFakeApi } from './support/fake-api.ts';

t.test('every catalogue code maps to the class of its status', async (t) => {
  const byClass = Object.fromEntries(Object.entries(ERROR_STATUSES).map(([code, status]) => [code, errorClassFor(status).name]));
  t.same(byClass, {
    BAD_REQUEST: 'RequestError',
    EXPECTATION_FAILED: 'RequestError',
    HEADERS_TOO_LARGE: 'RequestError',
    IDEMPOTENCY_KEY_REQUIRED: 'RequestError',
    INVALID_CREDENTIALS: 'AuthenticationError',
    TIMESTAMP_OUT_OF_RANGE: 'AuthenticationError',
    INVALID_SIGNATURE: 'AuthenticationError',
    SIGNATURE_REUSED: 'AuthenticationError',
    UNAUTHORIZED: 'AuthenticationError',
    TOTP_REQUIRED: 'AuthenticationError',
    OPERATOR_SUSPENDED: 'PermissionError',
    FORBIDDEN_IP: 'PermissionError',
    FOUR_EYES_REQUIRED: 'PermissionError',
    AML_REVIEW_REQUIRED: 'PermissionError',
    SANDBOX_ONLY: 'PermissionError',
    FORBIDDEN_ROLE: 'PermissionError',
    READ_ONLY_ROLE: 'PermissionError',
    PERSON_NOT_CONFIRMED: 'PermissionError',
    TEAM_MEMBER_NOT_ACTIVATED: 'ConflictError',
    ACCOUNT_SETUP_REQUIRED: 'PermissionError',
    CSRF_TOKEN_INVALID: 'PermissionError',
    PERSON_REQUIRED: 'PermissionError',
    TOKEN_OWNER_REQUIRED: 'PermissionError',
    COMPLIANCE_CHANGE_NOT_FOUND: 'NotFoundError',
    BRAND_NOT_FOUND: 'NotFoundError',
    COMPLIANCE_CHANGE_PENDING: 'ConflictError',
    COMPLIANCE_CHANGE_NOT_PENDING: 'ConflictError',
    TEAM_MEMBER_NOT_FOUND: 'NotFoundError',
    CREDENTIAL_NOT_FOUND: 'NotFoundError',
    TEAM_MEMBER_ALREADY_EXISTS: 'ConflictError',
    TOTP_ALREADY_ENABLED: 'ConflictError',
    KYC_NOT_APPROVED: 'PermissionError',
    PLAYER_NOT_ACTIVE: 'PermissionError',
    RG_BLOCKED: 'PermissionError',
    PLAYER_IMPEDED: 'PermissionError',
    NOT_FOUND: 'NotFoundError',
    OPERATOR_NOT_FOUND: 'NotFoundError',
    PLAYER_NOT_FOUND: 'NotFoundError',
    DATA_REQUEST_NOT_FOUND: 'NotFoundError',
    DATA_REQUEST_NO_FILE: 'ConflictError',
    DEPOSIT_NOT_FOUND: 'NotFoundError',
    WITHDRAWAL_NOT_FOUND: 'NotFoundError',
    AML_CASE_NOT_FOUND: 'NotFoundError',
    HARM_CASE_NOT_FOUND: 'NotFoundError',
    GAME_NOT_FOUND: 'NotFoundError',
    GAME_SESSION_NOT_FOUND: 'NotFoundError',
    IDEMPOTENCY_CONFLICT: 'ConflictError',
    IDEMPOTENCY_IN_PROGRESS: 'ConflictError',
    PLAYER_ALREADY_EXISTS: 'ConflictError',
    PLAYER_CPF_EXISTS: 'ConflictError',
    DEPOSIT_ALREADY_EXISTS: 'ConflictError',
    DEPOSIT_NOT_PENDING: 'ConflictError',
    WITHDRAWAL_NOT_CANCELLABLE: 'ConflictError',
    WITHDRAWAL_INVALID_TRANSITION: 'ConflictError',
    KYC_ALREADY_APPROVED: 'ConflictError',
    AML_CASE_INVALID_TRANSITION: 'ConflictError',
    HARM_CASE_CLOSED: 'ConflictError',
    LIMIT_REQUIRED: 'ConflictError',
    PAUSE_ACTIVE: 'ConflictError',
    SELF_EXCLUSION_ACTIVE: 'ConflictError',
    STANDING_HAS_OWN_FLOW: 'ConflictError',
    WEBHOOK_NOT_CONFIGURED: 'ConflictError',
    WEBHOOK_EVENT_NOT_FOUND: 'NotFoundError',
    PAYLOAD_TOO_LARGE: 'RequestError',
    UNSUPPORTED_MEDIA_TYPE: 'RequestError',
    VALIDATION_ERROR: 'ValidationError',
    CURRENCY_MISMATCH: 'ValidationError',
    INSUFFICIENT_FUNDS: 'ValidationError',
    PAYER_REQUIRED: 'ValidationError',
    METHOD_NOT_ALLOWED: 'ValidationError',
    DESTINATION_NOT_OWNED: 'ValidationError',
    RATE_LIMITED: 'RateLimitError',
    INTERNAL_ERROR: 'ServerError',
    PROVIDER_UNAVAILABLE: 'ServerError',
    SERVICE_UNAVAILABLE: 'ServerError',
    IMPEDIMENT_CHECK_UNAVAILABLE: 'ServerError',
    LAUNCH_TOKEN_INVALID: 'PermissionError',
    LAUNCH_TOKEN_EXPIRED: 'RequestError',
    GAME_SESSION_ENDED: 'RequestError',
    TERMS_NOT_ACCEPTED: 'PermissionError',
    TERMS_VERSION_EXISTS: 'ConflictError',
    SESSION_TOKEN_INVALID: 'AuthenticationError',
    SESSION_TOKEN_EXPIRED: 'AuthenticationError',
    PROVIDER_DISABLED: 'PermissionError',
    PROVIDER_NOT_ENABLED: 'PermissionError',
    GAME_DISABLED: 'PermissionError',
    GAME_NOT_CERTIFIED: 'PermissionError',
    BONUS_FORBIDDEN: 'PermissionError',
    PROVIDER_NOT_FOUND: 'NotFoundError',
    ROUND_NOT_FOUND: 'NotFoundError',
    TRANSACTION_NOT_FOUND: 'NotFoundError',
    RECONCILIATION_NOT_FOUND: 'NotFoundError',
    TRANSACTION_CONFLICT: 'ConflictError',
    BET_ROLLED_BACK: 'ConflictError',
    BET_ALREADY_SETTLED: 'ConflictError',
    ROUND_CLOSED: 'ConflictError',
    ROUND_NOT_SETTLED: 'ConflictError',
    AML_RISK_SUBJECT_NOT_FOUND: 'NotFoundError',
    AML_RISK_SUBJECT_CONFLICT: 'ConflictError',
    SIGAP_FILE_NOT_REJECTED: 'ConflictError',
    SIGAP_DAY_ACCEPTED: 'ConflictError',
    UNCLAIMED_FUNDS_NOT_FOUND: 'NotFoundError',
    UNCLAIMED_FUNDS_NOT_HELD: 'ConflictError',
    MARKETING_BLOCKED: 'ConflictError',
    FUND_PAYOUT_CONFLICT: 'ConflictError',
    INTEGRITY_HOLD_NOT_FOUND: 'NotFoundError',
    INTEGRITY_HOLD_CONFLICT: 'ConflictError',
  });
  t.same([statusOfCode('DEPOSIT_NOT_PENDING'), statusOfCode('SOMETHING_NEWER')], [409, undefined]);
});

t.test('answers become typed errors with the envelope fields', async (t) => {
  const api = await startFakeApi();
  t.teardown(() => api.close());
  const time = fakeTime();
  const sdk = new BackOffice({ baseUrl: api.baseUrl, key: KEY, secret: SECRET, now: time.now, sleep: time.sleep, retry: { maxAttempts: 1 } });
  const cases: [number, unknown, () => Promise<unknown>, typeof BackOfficeError][] = [
    [401, envelope('INVALID_SIGNATURE', 'X-Signature does not match', undefined, 'req_a'), () => sdk.me.get(), AuthenticationError],
    [403, envelope('KYC_NOT_APPROVED', 'no', undefined, 'req_b'), () => sdk.games.createSession('plr_1', { gameId: 'g' }), PermissionError],
    [404, envelope('PLAYER_NOT_FOUND', 'no', undefined, 'req_c'), () => sdk.wallet.get('plr_x'), NotFoundError],
    [
      409,
      envelope('DEPOSIT_ALREADY_EXISTS', 'dup', { depositId: 'dep_1' }, 'req_d'),
      () => sdk.deposits.create('plr_1', { amount: '1.00', currency: 'BRL', method: 'pix', externalReference: 'r' }),
      ConflictError,
    ],
    [
      422,
      envelope('VALIDATION_ERROR', 'bad', { in: 'body', issues: [{ path: '/birthDate', message: 'must be an adult' }] }, 'req_e'),
      () => sdk.players.create({ externalId: 'e', name: 'Ana', email: 'a@b.co', cpf: '1', birthDate: '2020-01-01' }),
      ValidationError,
    ],
    [429, envelope('RATE_LIMITED', 'slow down', undefined, 'req_f'), () => sdk.games.list(), RateLimitError],
    [413, envelope('PAYLOAD_TOO_LARGE', 'big', undefined, 'req_g'), () => sdk.kyc.submit('plr_1', { documentType: 'rg', reference: 'x' }), RequestError],
    [502, '<html>bad gateway</html>', () => sdk.withdrawals.get('wd_1'), ServerError],
  ];
  const seen = [];
  for (const [status, body, call, Class] of cases) {
    api.script.push(
      typeof body === 'string' ? { status, headers: { 'content-type': 'text/html', 'retry-after': '5' } } : { status, body, headers: { 'retry-after': '5' } },
    );
    const err = (await call().catch((e: unknown) => e)) as BackOfficeError;
    seen.push({
      isClass: err instanceof Class && err instanceof BackOfficeError && err instanceof Error,
      name: err.name,
      code: err.code,
      status: err.status,
      requestId: err.requestId,
      details: err.details,
      retryAfterMs: err.retryAfterMs,
    });
  }
  t.same(seen, [
    { isClass: true, name: 'AuthenticationError', code: 'INVALID_SIGNATURE', status: 401, requestId: 'req_a', details: undefined, retryAfterMs: 5000 },
    { isClass: true, name: 'PermissionError', code: 'KYC_NOT_APPROVED', status: 403, requestId: 'req_b', details: undefined, retryAfterMs: 5000 },
    { isClass: true, name: 'NotFoundError', code: 'PLAYER_NOT_FOUND', status: 404, requestId: 'req_c', details: undefined, retryAfterMs: 5000 },
    {
      isClass: true,
      name: 'ConflictError',
      code: 'DEPOSIT_ALREADY_EXISTS',
      status: 409,
      requestId: 'req_d',
      details: { depositId: 'dep_1' },
      retryAfterMs: 5000,
    },
    {
      isClass: true,
      name: 'ValidationError',
      code: 'VALIDATION_ERROR',
      status: 422,
      requestId: 'req_e',
      details: { in: 'body', issues: [{ path: '/birthDate', message: 'must be an adult' }] },
      retryAfterMs: 5000,
    },
    { isClass: true, name: 'RateLimitError', code: 'RATE_LIMITED', status: 429, requestId: 'req_f', details: undefined, retryAfterMs: 5000 },
    { isClass: true, name: 'RequestError', code: 'PAYLOAD_TOO_LARGE', status: 413, requestId: 'req_g', details: undefined, retryAfterMs: 5000 },
    // No envelope (a proxy's page): the SDK's own code, and the request id from the header.
    { isClass: true, name: 'ServerError', code: 'UNEXPECTED_RESPONSE', status: 502, requestId: 'req_8', details: undefined, retryAfterMs: 5000 },
  ]);
});

t.test('code is the catalogue union: is() narrows and a switch is checked', async (t) => {
  const err = new ValidationError({
    code: 'VALIDATION_ERROR',
    message: 'bad',
    status: 422,
    details: { in: 'query', issues: [{ path: '/cursor', message: 'invalid' }] },
  });
  t.same(err.issues, [{ path: '/cursor', message: 'invalid' }]);
  const describe = (code: ErrorCode): string => {
    switch (code) {
      case 'INSUFFICIENT_FUNDS':
        return 'ask for less';
      case 'KYC_NOT_APPROVED':
        return 'finish KYC first';
      default:
        return 'other';
    }
  };
  t.same([err.is('VALIDATION_ERROR'), err.is('RATE_LIMITED'), describe('INSUFFICIENT_FUNDS')], [true, false, 'ask for less']);
});
