// One catalogue of every error code the API can answer, with its HTTP status.
// Domain code throws AppError(code, ...); the gateway renders the contract's envelope.

export const ERROR_CATALOGUE = {
  BAD_REQUEST: { status: 400, message: 'The HTTP request is malformed.' },
  IDEMPOTENCY_KEY_REQUIRED: { status: 400, message: 'This operation requires an Idempotency-Key header.' },
  INVALID_CREDENTIALS: { status: 401, message: 'Unknown or malformed operator key.' },
  TIMESTAMP_OUT_OF_RANGE: { status: 401, message: 'X-Timestamp is missing or more than 300 seconds from the server clock.' },
  INVALID_SIGNATURE: { status: 401, message: 'X-Signature does not match the request.' },
  SIGNATURE_REUSED: {
    status: 401,
    message: 'This X-Signature was already sent with another Idempotency-Key (or without one): sign the request afresh, with a new X-Timestamp.',
  },
  UNAUTHORIZED: { status: 401, message: 'Missing or invalid admin bearer token.' },
  TOTP_REQUIRED: { status: 401, message: 'This account signs in with a code from its authenticator app: send it as `totp`.' },
  OPERATOR_SUSPENDED: { status: 403, message: 'The operator is suspended.' },
  FORBIDDEN_IP: { status: 403, message: 'The caller address is not in the operator allow-list.' },
  SANDBOX_ONLY: { status: 403, message: 'This route is only available with a sandbox (bk_test_) key.' },
  FORBIDDEN_ROLE: { status: 403, message: 'Your role does not allow this action.' },
  ACCOUNT_SETUP_REQUIRED: {
    status: 403,
    message: 'Finish setting up your console account first (a new password, or two-factor sign-in where your role requires it).',
  },
  PERSON_REQUIRED: {
    status: 403,
    message:
      "A decision on money or on a player is taken by a person: sign in to the console, or use your personal API token (made on the console's Account page, POST /admin/account/tokens). ADMIN_TOKEN and named service tokens may set things up and read.",
  },
  TOKEN_OWNER_REQUIRED: {
    status: 403,
    message:
      'A personal API token is made by its owner only, from their own console session (the Account page, POST /admin/account/tokens); admins issue service tokens (no person), list and revoke any token.',
  },
  READ_ONLY_ROLE: {
    status: 403,
    message: 'The regulator role reads, and changes nothing: every change is refused to it, at the gateway and in every service.',
  },
  PERSON_NOT_CONFIRMED: {
    status: 403,
    message:
      "Your power is not confirmed yet: a second admin (not the one who added you, or who last reset your password) confirms you on the console's Team page or with `npm run admin -- users confirm USER_ID` (POST /admin/users/{id}/confirm). Until then you read, and decide nothing.",
  },
  CSRF_TOKEN_INVALID: { status: 403, message: "A console request that changes something must carry the session's X-CSRF-Token." },
  FOUR_EYES_REQUIRED: { status: 403, message: 'A withdrawal approved by one person must be paid by another.' },
  AML_REVIEW_REQUIRED: { status: 403, message: "The player's payouts wait for a compliance review." },
  KYC_NOT_APPROVED: { status: 403, message: 'The player KYC status is not aprovado.' },
  PLAYER_NOT_ACTIVE: { status: 403, message: 'The player status does not allow this operation.' },
  RG_BLOCKED: { status: 403, message: 'Refused by the player responsible-gaming limits.' },
  // Neutral on purpose: never says which list matched (docs/eligibility.md).
  PLAYER_IMPEDED: { status: 403, message: 'This person cannot bet with this operator.' },
  TERMS_NOT_ACCEPTED: { status: 403, message: "The player must accept the operator's terms version in force first (details.version)." },
  NOT_FOUND: { status: 404, message: 'No such route.' },
  OPERATOR_NOT_FOUND: { status: 404, message: 'Operator not found.' },
  WEBHOOK_EVENT_NOT_FOUND: { status: 404, message: 'Webhook event not found.' },
  TEAM_MEMBER_NOT_FOUND: { status: 404, message: 'No such team member or token.' },
  CREDENTIAL_NOT_FOUND: { status: 404, message: 'The operator has no credential with this id.' },
  PLAYER_NOT_FOUND: { status: 404, message: 'Player not found.' },
  DATA_REQUEST_NOT_FOUND: { status: 404, message: 'The player has no data request with this id.' },
  DATA_REQUEST_NO_FILE: {
    status: 409,
    message: 'Only an answered access or portability request has a file: read the request for its status and answer.',
  },
  DEPOSIT_NOT_FOUND: { status: 404, message: 'Deposit not found.' },
  WITHDRAWAL_NOT_FOUND: { status: 404, message: 'Withdrawal not found.' },
  AML_CASE_NOT_FOUND: { status: 404, message: 'AML case not found.' },
  HARM_CASE_NOT_FOUND: { status: 404, message: 'Harm case not found.' },
  AML_RISK_SUBJECT_NOT_FOUND: { status: 404, message: 'No such subject in the AML risk register.' },
  GAME_NOT_FOUND: { status: 404, message: 'Game not found.' },
  GAME_SESSION_NOT_FOUND: { status: 404, message: 'Game session not found.' },
  COMPLIANCE_CHANGE_NOT_FOUND: { status: 404, message: 'The operator has no compliance profile change with this id.' },
  // Issue #61: a regulator file is made only for a brand of ours, never for a name typed by hand.
  BRAND_NOT_FOUND: { status: 404, message: "No brand of ours has this id: regulator files are made only for our operators' brands." },
  IDEMPOTENCY_CONFLICT: { status: 409, message: 'This Idempotency-Key was used with a different request.' },
  IDEMPOTENCY_IN_PROGRESS: { status: 409, message: 'The first request with this Idempotency-Key is still running; retry shortly.' },
  PLAYER_ALREADY_EXISTS: { status: 409, message: 'A player with this externalId already exists in the brand.' },
  PLAYER_CPF_EXISTS: { status: 409, message: 'A player with this CPF already exists in the brand.' },
  MARKETING_BLOCKED: {
    status: 409,
    message: 'The player may not receive marketing while a self-exclusion, a pause, an impediment or the closing of the account lasts (details.blockedBy).',
  },
  TERMS_VERSION_EXISTS: { status: 409, message: 'The brand has already published a terms version with this name.' },
  TOTP_ALREADY_ENABLED: { status: 409, message: 'Two-factor sign-in is already on; our admin team can reset it.' },
  TEAM_MEMBER_NOT_ACTIVATED: {
    status: 409,
    message:
      'This person has not set up their account yet (their own password, and two-factor sign-in where the role requires it), or is disabled: confirm them once they have.',
  },
  TEAM_MEMBER_ALREADY_EXISTS: { status: 409, message: 'A team member with this e-mail, or a token with this name, already exists.' },
  DEPOSIT_ALREADY_EXISTS: { status: 409, message: 'A deposit with this externalReference already exists.' },
  DEPOSIT_NOT_PENDING: { status: 409, message: 'The deposit is not pending.' },
  WITHDRAWAL_NOT_CANCELLABLE: { status: 409, message: 'Only a withdrawal under review can be cancelled.' },
  WITHDRAWAL_INVALID_TRANSITION: { status: 409, message: 'The withdrawal state does not allow this decision.' },
  AML_CASE_INVALID_TRANSITION: { status: 409, message: 'The AML case state does not allow this decision.' },
  HARM_CASE_CLOSED: { status: 409, message: 'The harm case is closed: a new rise of the player to high opens another.' },
  AML_RISK_SUBJECT_CONFLICT: {
    status: 409,
    message: 'The AML risk register already holds this subject (details.subjectId), or the subject has ended.',
  },
  COMPLIANCE_CHANGE_PENDING: {
    status: 409,
    message: "A change of the operator's compliance profile already waits for a second person (details.changeId): confirm or cancel it first.",
  },
  COMPLIANCE_CHANGE_NOT_PENDING: {
    status: 409,
    message: 'The compliance profile change is no longer pending: it was confirmed, cancelled or has expired (details.status).',
  },
  KYC_ALREADY_APPROVED: { status: 409, message: 'The player KYC is already approved.' },
  LIMIT_REQUIRED: { status: 409, message: 'Under the operator compliance profile the player must keep a loss limit and a time limit.' },
  PAUSE_ACTIVE: { status: 409, message: 'The player is paused until a later time; a pause cannot be shortened or lifted.' },
  SELF_EXCLUSION_ACTIVE: { status: 409, message: 'The player is self-excluded; a self-exclusion cannot be shortened or lifted by the operator.' },
  SIGAP_FILE_NOT_REJECTED: { status: 409, message: 'Only a file type whose current version SIGAP rejected is sent again as a new version (details.status).' },
  SIGAP_DAY_ACCEPTED: {
    status: 409,
    message: 'SIGAP has accepted every file of this day: nothing is sent again (a file SIGAP rejects is sent again, corrected, as a new version).',
  },
  STANDING_HAS_OWN_FLOW: {
    status: 409,
    message: "A restriction holds the player's status; it ends only through its own flow (details.flow).",
  },
  WEBHOOK_NOT_CONFIGURED: { status: 409, message: 'No webhook URL is configured for this environment.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is larger than 100 KiB.' },
  EXPECTATION_FAILED: { status: 417, message: 'Only the Expect: 100-continue expectation is supported.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Request bodies must be application/json.' },
  VALIDATION_ERROR: { status: 422, message: 'The request is not valid.' },
  CURRENCY_MISMATCH: { status: 422, message: 'The currency differs from the player currency.' },
  INSUFFICIENT_FUNDS: { status: 422, message: 'The amount is larger than the withdrawable balance.' },
  PAYER_REQUIRED: { status: 422, message: "The confirmation must carry the payer's CPF (payer.cpf)." },
  METHOD_NOT_ALLOWED: { status: 422, message: 'This payment method is not allowed for this operator.' },
  DESTINATION_NOT_OWNED: { status: 422, message: "The destination account is not in the player's own CPF." },
  RATE_LIMITED: { status: 429, message: 'Request rate exceeded.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large.' },
  INTERNAL_ERROR: { status: 500, message: 'Internal error.' },
  PROVIDER_UNAVAILABLE: { status: 502, message: 'An upstream provider is unavailable.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'A backing service did not answer in time.' },
  IMPEDIMENT_CHECK_UNAVAILABLE: { status: 503, message: 'The impediment registry did not answer; retry later.' },
  LAUNCH_TOKEN_INVALID: { status: 403, message: 'This game link is not valid.' },
  LAUNCH_TOKEN_EXPIRED: { status: 410, message: 'This game session has expired; open a new one from the site.' },
  // Neutral on purpose: a session ended before its time (the player's restriction) never says why.
  GAME_SESSION_ENDED: { status: 410, message: 'This game session has ended.' },
  // The provider wallet API (/provider/v1, docs/providers.md).
  SESSION_TOKEN_INVALID: { status: 401, message: 'Unknown provider session token.' },
  SESSION_TOKEN_EXPIRED: { status: 401, message: 'The provider session token has expired; bets need a live session (wins and rollbacks do not).' },
  PROVIDER_DISABLED: { status: 403, message: 'The provider is disabled: it takes no new bets (its wins and rollbacks still settle).' },
  PROVIDER_NOT_ENABLED: { status: 403, message: "The provider is not enabled for the player's operator." },
  GAME_DISABLED: { status: 403, message: 'The game is disabled: it takes no new bets.' },
  // Issue #59 item 5: Brazil's rules (br-spa) take bets only on a game whose certificate is valid (Portaria SPA/MF 1.207/2024).
  GAME_NOT_CERTIFIED: { status: 403, message: "The game has no certificate valid now: under Brazil's rules it takes no bets." },
  // Issue #59 item 1: Brazil's rules (br-spa) forbid an advance, bonus or advantage given before a bet (Lei 14.790/2023 art. 29 I; docs/providers.md).
  BONUS_FORBIDDEN: {
    status: 403,
    message:
      "Brazil's rules forbid an advance, bonus or advantage given before a bet: a free bet or free round is refused, and a promotional credit or jackpot prize needs a bet of the player first.",
  },
  PROVIDER_NOT_FOUND: { status: 404, message: 'Provider not found.' },
  ROUND_NOT_FOUND: { status: 404, message: 'No bet of this provider, player and round: nothing to settle.' },
  // Issue #59 item 2: a provider reads its transactions with us (reconciliation).
  TRANSACTION_NOT_FOUND: { status: 404, message: 'No transaction of yours has this transactionId.' },
  // Issue #59 item 2: a day of a provider not reconciled (no statement of it was ingested).
  RECONCILIATION_NOT_FOUND: { status: 404, message: "No statement of this provider's day was reconciled." },
  TRANSACTION_CONFLICT: {
    status: 409,
    message: 'This transactionId was already used for another transaction (another kind, amount, player, round or bet).',
  },
  BET_ROLLED_BACK: { status: 409, message: 'This bet was rolled back before it arrived: it is refused and moves nothing.' },
  BET_ALREADY_SETTLED: { status: 409, message: 'The bet is settled (its round has a win or is closed): it cannot be rolled back.' },
  ROUND_CLOSED: { status: 409, message: 'The round is closed: it takes no more bets or wins.' },
  ROUND_NOT_SETTLED: { status: 409, message: 'Only a settled bet can be corrected.' },
  // Issue #46 item 4: unclaimed funds of a player closed after an impediment hit (docs/eligibility.md, "After a hit").
  UNCLAIMED_FUNDS_NOT_FOUND: { status: 404, message: 'No unclaimed funds are held under this id.' },
  FUND_PAYOUT_CONFLICT: {
    status: 409,
    message: "This payout does not match the fund transfer's half, or another payout already paid it (details).",
  },
  UNCLAIMED_FUNDS_NOT_HELD: {
    status: 409,
    message: 'These unclaimed funds are no longer held: they were returned to the bettor or transferred to the funds (details.status).',
  },
  // Issue #60 item 3: integrity holds on sports prizes (docs/games.md, "Integrity holds").
  INTEGRITY_HOLD_NOT_FOUND: { status: 404, message: 'No integrity hold has this id.' },
  INTEGRITY_HOLD_CONFLICT: {
    status: 409,
    message:
      'The integrity hold cannot be placed or decided as asked: the slip is already held or settled, the hold was decided, or there is no prize to forfeit yet (details.reason).',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface ValidationIssue {
  path: string;
  message: string;
}
export type ErrorDetails = Record<string, unknown>;

/** The error shape that travels in NATS replies and is rendered by the gateway. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: ErrorDetails;
}

/**
 * Retry-After of every 503 SERVICE_UNAVAILABLE (seconds): the outages answered so are restarts and
 * failovers of seconds, and the retry, with the same Idempotency-Key, is deduplicated.
 */
const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 1;
/** Retry-After of 503 IMPEDIMENT_CHECK_UNAVAILABLE: the SPA registry's outages are not restarts of seconds. */
const IMPEDIMENT_CHECK_RETRY_AFTER_SECONDS = 30;
const RETRY_AFTER: Partial<Record<ErrorCode, Record<string, string>>> = {
  SERVICE_UNAVAILABLE: { 'retry-after': String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS) },
  IMPEDIMENT_CHECK_UNAVAILABLE: { 'retry-after': String(IMPEDIMENT_CHECK_RETRY_AFTER_SECONDS) },
  IDEMPOTENCY_IN_PROGRESS: { 'retry-after': '1' },
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetails;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message?: string, details?: ErrorDetails, headers?: Record<string, string>) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
    // A 503 and a key still in progress always say when to retry, also when rebuilt from a reply (fromBody).
    this.headers = headers ?? RETRY_AFTER[code];
  }

  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }

  toBody(): ErrorBody {
    return this.details === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, details: this.details };
  }

  static fromBody(body: ErrorBody): AppError {
    return new AppError(body.code, body.message, body.details);
  }
}

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, code);
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

export function statusOf(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

/** 422 VALIDATION_ERROR with the contract's details shape. */
export function validationError(where: 'body' | 'query' | 'path' | 'header', issues: ValidationIssue[], message?: string): AppError {
  return new AppError('VALIDATION_ERROR', message ?? ERROR_CATALOGUE.VALIDATION_ERROR.message, { in: where, issues });
}
