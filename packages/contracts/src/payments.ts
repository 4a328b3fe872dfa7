import { Type, type Static } from '@sinclair/typebox';
import { Currency, EmptyObject, EnvironmentSchema, List, Money, MoneyBoundInput, MoneyInput, Nullable, Page, Timestamp, idOf } from './common.ts';
import { defineOperations } from './operations.ts';
import { PlayerIdParams } from './players.ts';

export const DEPOSIT_STATUSES = ['pending', 'confirmed', 'failed'] as const;
export const WITHDRAWAL_STATUSES = ['under_review', 'approved', 'paid', 'rejected', 'cancelled', 'failed'] as const;
export const WITHDRAWAL_DECISIONS = ['approve', 'reject', 'pay'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
export type WithdrawalDecision = (typeof WITHDRAWAL_DECISIONS)[number];
const literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));

/** What a deposit and a withdrawal show first after their id: whose money, how much, and how it moves. */
const MovementFields = { playerId: idOf('plr'), amount: Money, currency: Currency, method: Type.String() };
/** What a request to move money gives first, in both directions. */
const MovementRequestFields = { amount: MoneyInput, currency: Currency, method: Type.String({ minLength: 1, maxLength: 64 }) };

export const DepositSchema = Type.Object(
  {
    id: idOf('dep'),
    ...MovementFields,
    externalReference: Type.String(),
    status: literals(DEPOSIT_STATUSES),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    confirmedAt: Nullable(Timestamp),
    failedAt: Nullable(Timestamp),
    failureReason: Nullable(Type.String()),
    /** br-spa, a deposit failed for its payer (`payer_mismatch`): who paid, the CPF masked (`***.456.789-**`). */
    payer: Type.Optional(Type.Object({ cpf: Type.String({ pattern: '^\\*{3}\\.[0-9]{3}\\.[0-9]{3}-\\*{2}$' }) }, { additionalProperties: false })),
  },
  { additionalProperties: false, $id: 'Deposit' },
);
export type Deposit = Static<typeof DepositSchema>;

export const CreateDepositSchema = Type.Object(
  {
    ...MovementRequestFields,
    externalReference: Type.String({ minLength: 1, maxLength: 128 }),
  },
  { $id: 'CreateDeposit' },
);
/** The payment methods allowed under the br-spa profile (Ordinance 615/2024: electronic transfer from and to the bettor's own account). */
export const BR_SPA_METHODS = ['pix', 'ted', 'debit_card', 'prepaid_card'] as const;

/** Who paid: the PSP's report of the paying account. Under br-spa `cpf` is required and must be the player's. */
export const DepositPayerSchema = Type.Object(
  {
    cpf: Type.String({ format: 'cpf', description: "The paying account holder's CPF, with or without punctuation" }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    bank: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    account: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { $id: 'DepositPayer' },
);
export type DepositPayer = Static<typeof DepositPayerSchema>;
export const ConfirmDepositSchema = Type.Object(
  { payer: Type.Optional(DepositPayerSchema) },
  { $id: 'ConfirmDeposit', description: 'JSON object (may be empty under the profile off)' },
);

export const SandboxPixKeySchema = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 77, description: 'An e-mail, phone (+55…), random (EVP) key' }),
    ownerCpf: Type.String({ format: 'cpf' }),
  },
  { $id: 'SandboxPixKey' },
);
export const SandboxPixKeyResultSchema = Type.Object(
  { key: Type.String(), ownerCpf: Type.String({ pattern: '^[0-9]{11}$' }) },
  { additionalProperties: false },
);

export const FailDepositSchema = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 500 })) }, { $id: 'FailDeposit' });

/**
 * The prize clock (Portaria SPA/MF 615/2024, art. 7 §4): prizes are paid within 120 minutes of the
 * end of the event bet on. Payments gives a br-spa withdrawal its payout deadline this long after
 * its request (our stricter reading: docs/eligibility.md, "The prize clock"); the wallet gives a
 * provider's win that names its event's end the prize's deadline this long after that end.
 */
export const PRIZE_CLOCK_MINUTES = 120;

export const WithdrawalSchema = Type.Object(
  {
    id: idOf('wd'),
    ...MovementFields,
    destination: Type.String(),
    status: literals(WITHDRAWAL_STATUSES),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    /**
     * Under the compliance profile `br-spa`: when the payout is due, 120 minutes after the request
     * (Portaria SPA/MF 615/2024, art. 7 §4, read strictly: docs/eligibility.md, "The prize clock");
     * null under the profile `off`. It stays once the withdrawal is paid or ends otherwise.
     */
    payoutDueAt: Nullable(Timestamp),
  },
  { additionalProperties: false, $id: 'Withdrawal' },
);
export type Withdrawal = Static<typeof WithdrawalSchema>;

export const CreateWithdrawalSchema = Type.Object(
  {
    ...MovementRequestFields,
    destination: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { $id: 'CreateWithdrawal' },
);
export const WithdrawalDecisionSchema = Type.Object({ decision: literals(WITHDRAWAL_DECISIONS) }, { $id: 'WithdrawalDecision' });
/**
 * Our team's decision on a withdrawal: a rejection says why (issue #61; 422 without `reason`), kept in
 * the audit log with the decision; an approval or a payout may say why too.
 */
export const AdminWithdrawalDecisionSchema = Type.Object(
  { decision: literals(WITHDRAWAL_DECISIONS), reason: Type.Optional(Type.String({ minLength: 3, maxLength: 500 })) },
  { $id: 'AdminWithdrawalDecision' },
);

export const DepositIdParams = Type.Object({ depositId: Type.String({ minLength: 1, maxLength: 64 }) });
export const WithdrawalIdParams = Type.Object({ withdrawalId: Type.String({ minLength: 1, maxLength: 64 }) });

export const paymentOperations = defineOperations({
  createDeposit: {
    id: 'createDeposit',
    method: 'POST',
    path: '/players/:playerId/deposits',
    subject: 'payments.deposits.create',
    tag: 'Deposits',
    summary: 'Create a pending deposit',
    params: PlayerIdParams,
    body: CreateDepositSchema,
    response: DepositSchema,
    status: 201,
    idempotent: true,
    errors: [
      'PLAYER_NOT_FOUND',
      'CURRENCY_MISMATCH',
      'METHOD_NOT_ALLOWED',
      'DEPOSIT_ALREADY_EXISTS',
      'RG_BLOCKED',
      'PLAYER_NOT_ACTIVE',
      'PLAYER_IMPEDED',
      'IMPEDIMENT_CHECK_UNAVAILABLE',
    ],
  },
  confirmDeposit: {
    id: 'confirmDeposit',
    method: 'POST',
    path: '/deposits/:depositId/confirm',
    subject: 'payments.deposits.confirm',
    tag: 'Deposits',
    summary: 'Confirm a pending deposit and credit the wallet',
    params: DepositIdParams,
    body: ConfirmDepositSchema,
    response: DepositSchema,
    status: 200,
    idempotent: true,
    errors: ['DEPOSIT_NOT_FOUND', 'DEPOSIT_NOT_PENDING', 'PAYER_REQUIRED'],
  },
  failDeposit: {
    id: 'failDeposit',
    method: 'POST',
    path: '/deposits/:depositId/fail',
    subject: 'payments.deposits.fail',
    tag: 'Deposits',
    summary: 'Mark a pending deposit as failed',
    params: DepositIdParams,
    body: FailDepositSchema,
    response: DepositSchema,
    status: 200,
    idempotent: true,
    errors: ['DEPOSIT_NOT_FOUND', 'DEPOSIT_NOT_PENDING'],
  },
  createWithdrawal: {
    id: 'createWithdrawal',
    method: 'POST',
    path: '/players/:playerId/withdrawals',
    subject: 'payments.withdrawals.create',
    tag: 'Withdrawals',
    summary: 'Request a withdrawal (enters the review queue)',
    params: PlayerIdParams,
    body: CreateWithdrawalSchema,
    response: WithdrawalSchema,
    status: 201,
    idempotent: true,
    errors: [
      'PLAYER_NOT_FOUND',
      'CURRENCY_MISMATCH',
      'METHOD_NOT_ALLOWED',
      'DESTINATION_NOT_OWNED',
      'KYC_NOT_APPROVED',
      'PLAYER_NOT_ACTIVE',
      'RG_BLOCKED',
      'INSUFFICIENT_FUNDS',
      'PROVIDER_UNAVAILABLE',
    ],
  },
  getWithdrawal: {
    id: 'getWithdrawal',
    method: 'GET',
    path: '/withdrawals/:withdrawalId',
    subject: 'payments.withdrawals.get',
    tag: 'Withdrawals',
    summary: 'Read a withdrawal',
    params: WithdrawalIdParams,
    response: WithdrawalSchema,
    status: 200,
    errors: ['WITHDRAWAL_NOT_FOUND'],
  },
  cancelWithdrawal: {
    id: 'cancelWithdrawal',
    method: 'POST',
    path: '/withdrawals/:withdrawalId/cancel',
    subject: 'payments.withdrawals.cancel',
    tag: 'Withdrawals',
    summary: 'Cancel a withdrawal under review',
    params: WithdrawalIdParams,
    body: EmptyObject,
    response: WithdrawalSchema,
    status: 200,
    idempotent: true,
    errors: ['WITHDRAWAL_NOT_FOUND', 'WITHDRAWAL_NOT_CANCELLABLE'],
  },
  sandboxWithdrawalDecision: {
    id: 'sandboxWithdrawalDecision',
    method: 'POST',
    path: '/sandbox/withdrawals/:withdrawalId/decision',
    subject: 'payments.withdrawals.decide',
    tag: 'Sandbox',
    summary: 'Simulate the team decision on a withdrawal',
    params: WithdrawalIdParams,
    body: WithdrawalDecisionSchema,
    response: WithdrawalSchema,
    status: 200,
    sandboxOnly: true,
    errors: ['WITHDRAWAL_NOT_FOUND', 'WITHDRAWAL_INVALID_TRANSITION'],
  },
  sandboxAddPixKey: {
    id: 'sandboxAddPixKey',
    method: 'POST',
    path: '/sandbox/pix-keys',
    subject: 'payments.sandbox.pixKeys.add',
    tag: 'Sandbox',
    summary: "Register a PIX key and its owner's CPF in the simulated payment provider's key directory",
    body: SandboxPixKeySchema,
    response: SandboxPixKeyResultSchema,
    status: 201,
    sandboxOnly: true,
  },
  sandboxRemovePixKey: {
    id: 'sandboxRemovePixKey',
    method: 'DELETE',
    path: '/sandbox/pix-keys/:key',
    subject: 'payments.sandbox.pixKeys.remove',
    tag: 'Sandbox',
    summary: "Remove a PIX key from the simulated payment provider's key directory",
    params: Type.Object({ key: Type.String({ minLength: 1, maxLength: 77 }) }),
    response: Type.Object({ key: Type.String(), removed: Type.Boolean() }, { additionalProperties: false }),
    status: 200,
    sandboxOnly: true,
  },
});

/** The review queue's orders: `created`, oldest first (the default); `payout_due`, the nearest payout deadline first (those without one after, oldest first). */
export const REVIEW_QUEUE_ORDERS = ['created', 'payout_due'] as const;
export type ReviewQueueOrder = (typeof REVIEW_QUEUE_ORDERS)[number];

export const ReviewQueueQuery = Type.Object({
  status: Type.Optional(literals(WITHDRAWAL_STATUSES)),
  order: Type.Optional(literals(REVIEW_QUEUE_ORDERS)),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
  /** One player's withdrawals (every status unless `status` is given), newest first. */
  playerId: Type.Optional(idOf('plr')),
  /** One environment's queue (the console shows production unless asked for the sandbox); both when absent. */
  environment: Type.Optional(EnvironmentSchema),
});
const AdminWithdrawalSchema = Type.Intersect([
  WithdrawalSchema,
  Type.Object({
    operatorId: Type.String(),
    brandId: Type.String(),
    environment: Type.String(),
    /** Who approved it on the admin API (null: not approved yet, or by a sandbox simulation). */
    approvedBy: Nullable(Type.String()),
    /**
     * Whether its payout is refused now because the player's payouts wait for an AML review (an open
     * high-risk case, br-spa); null when compliance could not be asked as the list was read. For the
     * reviewer's eyes: the payout checks again.
     */
    heldForAmlReview: Nullable(Type.Boolean()),
    /** Whether four eyes applies (its amount reaches the operator's threshold): its approver may not pay it. */
    fourEyes: Type.Boolean(),
  }),
]);
/**
 * A card of the withdrawal review queue (issue #61): the withdrawal with who the player is and what
 * their wallet holds, in one request per page (the console asked three per card before).
 */
export const WithdrawalReviewCardSchema = Type.Object(
  {
    withdrawal: AdminWithdrawalSchema,
    /** Null when the players service did not answer for the player as the page was read. */
    player: Nullable(Type.Object({ name: Type.String(), externalId: Nullable(Type.String()), status: Type.String(), kycStatus: Type.String() })),
    /** The player's balance and what they may withdraw; null when the wallet did not answer as the page was read. */
    wallet: Nullable(Type.Object({ available: Money, withdrawable: Money, currency: Currency })),
  },
  { $id: 'WithdrawalReviewCard' },
);
export type WithdrawalReviewCard = Static<typeof WithdrawalReviewCardSchema>;

export const FourEyesSchema = Type.Object(
  {
    operatorId: Type.String(),
    /** Withdrawals of at least this amount are paid by someone other than their approver; 0.00: all of them. */
    minAmount: Money,
    updatedAt: Nullable(Timestamp),
    updatedBy: Nullable(Type.String()),
  },
  { $id: 'FourEyes' },
);
export const AutoApprovalSchema = Type.Object(
  {
    operatorId: Type.String(),
    /**
     * The operator's br-spa withdrawals below this amount are approved and paid by the system as they
     * are requested, unless an AML review holds the player's payouts or an impediment restricted the
     * player (then a person decides, as for any other); null: off, every withdrawal waits for a person.
     */
    belowAmount: Nullable(Money),
    updatedAt: Nullable(Timestamp),
    updatedBy: Nullable(Type.String()),
  },
  { $id: 'AutoApproval' },
);
export type AutoApproval = Static<typeof AutoApprovalSchema>;
const OperatorIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const paymentAdminOperations = defineOperations({
  adminListWithdrawals: {
    id: 'adminListWithdrawals',
    method: 'GET',
    path: '/admin/withdrawals',
    subject: 'payments.admin.withdrawals',
    tag: 'Admin',
    summary: "The withdrawal review queue, oldest first or by payout deadline (or one player's withdrawals)",
    query: ReviewQueueQuery,
    response: Page(AdminWithdrawalSchema),
    status: 200,
  },
  adminWithdrawalQueue: {
    id: 'adminWithdrawalQueue',
    method: 'GET',
    path: '/admin/withdrawal-queue',
    subject: 'payments.admin.withdrawalQueue',
    tag: 'Admin',
    summary: "The withdrawal review queue as cards, a page in one request: each withdrawal with its player's name, status and KYC, and their balance",
    query: Type.Omit(ReviewQueueQuery, ['playerId']),
    response: Page(WithdrawalReviewCardSchema),
    status: 200,
  },
  adminWithdrawalDecision: {
    id: 'adminWithdrawalDecision',
    method: 'POST',
    path: '/admin/withdrawals/:id/decision',
    subject: 'payments.admin.withdrawalDecision',
    tag: 'Admin',
    summary: 'Team decision on a withdrawal (the approver cannot pay it: four eyes); a rejection with its reason',
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
    body: AdminWithdrawalDecisionSchema,
    response: WithdrawalSchema,
    status: 200,
    errors: ['WITHDRAWAL_NOT_FOUND', 'WITHDRAWAL_INVALID_TRANSITION', 'FOUR_EYES_REQUIRED', 'AML_REVIEW_REQUIRED'],
  },
  adminListDeposits: {
    id: 'adminListDeposits',
    method: 'GET',
    path: '/admin/deposits',
    subject: 'payments.admin.deposits',
    tag: 'Admin',
    summary: "One player's deposits, newest first",
    query: Type.Object({ playerId: idOf('plr'), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })) }),
    response: List(
      Type.Intersect([
        DepositSchema,
        Type.Object({
          operatorId: Type.String(),
          brandId: Type.String(),
          environment: Type.String(),
          /** Who paid, as the PSP reported it at confirm (br-spa requires it), unmasked for our team; null: none reported. */
          paidBy: Nullable(Type.Object({ cpf: Type.String(), name: Nullable(Type.String()), bank: Nullable(Type.String()), account: Nullable(Type.String()) })),
        }),
      ]),
    ),
    status: 200,
  },
  adminGetFourEyes: {
    id: 'adminGetFourEyes',
    method: 'GET',
    path: '/admin/operators/:id/four-eyes',
    subject: 'payments.admin.getFourEyes',
    tag: 'Admin',
    summary: "The four-eyes threshold of an operator's withdrawals",
    params: OperatorIdParams,
    response: FourEyesSchema,
    status: 200,
  },
  adminSetFourEyes: {
    id: 'adminSetFourEyes',
    method: 'PUT',
    path: '/admin/operators/:id/four-eyes',
    subject: 'payments.admin.setFourEyes',
    tag: 'Admin',
    summary: 'Set the amount from which a withdrawal is paid by someone other than its approver (0.00: always, the default)',
    params: OperatorIdParams,
    // 0 (the default) keeps four eyes on every withdrawal.
    body: Type.Object({ minAmount: MoneyBoundInput }),
    response: FourEyesSchema,
    status: 200,
  },
  adminGetAutoApproval: {
    id: 'adminGetAutoApproval',
    method: 'GET',
    path: '/admin/operators/:id/auto-approval',
    subject: 'payments.admin.getAutoApproval',
    tag: 'Admin',
    summary: "The amount below which an operator's br-spa withdrawals are approved and paid without a person (null: off)",
    params: OperatorIdParams,
    response: AutoApprovalSchema,
    status: 200,
  },
  adminSetAutoApproval: {
    id: 'adminSetAutoApproval',
    method: 'PUT',
    path: '/admin/operators/:id/auto-approval',
    subject: 'payments.admin.setAutoApproval',
    tag: 'Admin',
    summary: "Set the amount below which an operator's br-spa withdrawals are approved and paid without a person (null: off, the default)",
    params: OperatorIdParams,
    // null (the default) keeps a person on every withdrawal.
    body: Type.Object({ belowAmount: Nullable(MoneyInput) }),
    response: AutoApprovalSchema,
    status: 200,
  },
});
