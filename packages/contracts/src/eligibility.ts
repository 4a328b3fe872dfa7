// Who may bet under the `br-spa` compliance profile (issue 27, docs/eligibility.md): the SPA's
// impediment registry (SIGAP "módulo de impedidos") checked at registration, on the first activity
// of the day and in sweeps; the login report; the sandbox's control of the simulated registry; and
// the internal message other services send before a player's first deposit or game session of the day;
// and our compliance team's internal impediments registry (Lei 14.790/2023 art. 26), admin only.
import { Type, type Static } from '@sinclair/typebox';
import { Page, Timestamp, pageQuery } from './common.ts';
import { defineMessages } from './messages.ts';
import { defineOperations } from './operations.ts';
import { PlayerIdParams, PlayerStatusSchema } from './players.ts';

/** Why the SPA registry impedes a CPF: centralised self-exclusion, or a Bolsa Família / BPC beneficiary. */
export const IMPEDIMENT_REASONS = ['central_self_exclusion', 'social_program'] as const;
export type ImpedimentReason = (typeof IMPEDIMENT_REASONS)[number];
export const ImpedimentReasonSchema = Type.Union(IMPEDIMENT_REASONS.map((r) => Type.Literal(r)));

/** The one wording of every impediment refusal: it never says which list matched (no CPF oracle). */
export const IMPEDED_MESSAGE = 'This person cannot bet with this operator.';

export const LoginAllowedSchema = Type.Object({ allowed: Type.Literal(true) }, { additionalProperties: false, $id: 'LoginAllowed' });

const CpfDigits = Type.String({ pattern: '^[0-9]{11}$' });
export const SandboxImpedimentSchema = Type.Object(
  {
    cpf: Type.String({ format: 'cpf', description: 'Valid CPF, with or without punctuation' }),
    reason: ImpedimentReasonSchema,
  },
  { $id: 'SandboxImpediment' },
);
export const SandboxImpedimentResultSchema = Type.Object({ cpf: CpfDigits, reason: ImpedimentReasonSchema }, { additionalProperties: false });
export const SandboxImpedimentRemovedSchema = Type.Object({ cpf: CpfDigits, removed: Type.Boolean() }, { additionalProperties: false });

/** What a sandbox impediment check found: the registry's answer (`not_required` under the profile `off`: nobody is asked) and the player's status after it. */
export const SandboxImpedimentCheckSchema = Type.Object(
  {
    playerId: Type.String(),
    outcome: Type.Union([Type.Literal('not_impeded'), Type.Literal('impeded'), Type.Literal('unavailable'), Type.Literal('not_required')]),
    status: PlayerStatusSchema,
  },
  { additionalProperties: false, $id: 'SandboxImpedimentCheck' },
);

/** A sandbox player's day moved forward: the player's records the rules read, a day older, and the player's status after the closing pass. */
export const SandboxNextDaySchema = Type.Object(
  {
    playerId: Type.String(),
    status: PlayerStatusSchema,
    impedimentCheckedAt: Type.Union([Timestamp, Type.Null()]),
    restrictedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false, $id: 'SandboxNextDay' },
);

export const eligibilityOperations = defineOperations({
  reportLogin: {
    id: 'reportLogin',
    method: 'POST',
    path: '/players/:playerId/logins',
    subject: 'players.logins.report',
    tag: 'Players',
    summary: "Report the player's login: under br-spa, the first of the day checks the SPA impediment registry",
    params: PlayerIdParams,
    response: LoginAllowedSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND', 'PLAYER_IMPEDED', 'IMPEDIMENT_CHECK_UNAVAILABLE'],
  },
  sandboxAddImpediment: {
    id: 'sandboxAddImpediment',
    method: 'POST',
    path: '/sandbox/impediments',
    subject: 'players.sandbox.impediments.add',
    tag: 'Sandbox',
    summary: "Put a CPF on the simulated SPA impediment registry of the key's operator",
    body: SandboxImpedimentSchema,
    response: SandboxImpedimentResultSchema,
    status: 201,
    sandboxOnly: true,
  },
  sandboxRemoveImpediment: {
    id: 'sandboxRemoveImpediment',
    method: 'DELETE',
    path: '/sandbox/impediments/:cpf',
    subject: 'players.sandbox.impediments.remove',
    tag: 'Sandbox',
    summary: "Take a CPF off the simulated SPA impediment registry of the key's operator",
    params: Type.Object({ cpf: Type.String({ format: 'cpf' }) }),
    response: SandboxImpedimentRemovedSchema,
    status: 200,
    sandboxOnly: true,
  },
  sandboxCheckImpediments: {
    id: 'sandboxCheckImpediments',
    method: 'POST',
    path: '/sandbox/players/:playerId/impediment-check',
    subject: 'players.sandbox.impedimentCheck',
    tag: 'Sandbox',
    summary: "Run a sandbox player's impediment check now, as the next day's first login would (a hit restricts the player)",
    params: PlayerIdParams,
    response: SandboxImpedimentCheckSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND', 'PLAYER_NOT_ACTIVE', 'IMPEDIMENT_CHECK_UNAVAILABLE'],
    sandboxOnly: true,
  },
  sandboxNextDay: {
    id: 'sandboxNextDay',
    method: 'POST',
    path: '/sandbox/players/:playerId/next-day',
    subject: 'players.sandbox.nextDay',
    tag: 'Sandbox',
    summary:
      "Move a sandbox player's day forward: the day's impediment check, the withdrawal window and closing after a hit, cooling-offs and the game limits' usage, a day older",
    params: PlayerIdParams,
    response: SandboxNextDaySchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
    sandboxOnly: true,
  },
});

/** What a player is about to do when `players.activity.check` is asked. */
export const ActivitySchema = Type.Union([Type.Literal('deposit'), Type.Literal('game_session')]);
export const ActivityCheckSchema = Type.Object({
  brandId: Type.String({ minLength: 1, maxLength: 64 }),
  playerId: Type.String({ minLength: 1, maxLength: 64 }),
  activity: ActivitySchema,
});
export type ActivityCheck = Static<typeof ActivityCheckSchema>;

export const ACTIVITY_CHECK_SUBJECT = 'players.activity.check';

/**
 * Whether a deposit or game session must ask `players.activity.check` first: a br-spa player not
 * yet checked today in the operator's zone. The state may be older than the last check (the
 * players service broadcasts the day's first check, and a cache may not have heard yet): then the
 * question is asked and answered at once, never skipped wrongly, as checks only move forward.
 */
export function activityCheckDue(state: { compliance?: string; impedimentCheckedAt?: string | null; rg?: { timeZone: string } }, now: Date): boolean {
  if (state.compliance !== 'br-spa') return false;
  if (!state.impedimentCheckedAt || !state.rg) return true;
  const day = dayFormat(state.rg.timeZone);
  return day.format(new Date(state.impedimentCheckedAt)) !== day.format(now);
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** `YYYY-MM-DD` in a time zone (a formatter is costly to build: one per zone, kept). */
function dayFormat(timeZone: string): Intl.DateTimeFormat {
  const known = dayFormats.get(timeZone);
  if (known) return known;
  const made = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  dayFormats.set(timeZone, made);
  return made;
}

/**
 * `players.activity.check` (internal): before a br-spa player's deposit or game session, runs the
 * day's impediment check if no login was reported today. `{ allowed: true }`, or the errors of
 * reportLogin. Answers at once (no registry call) for a player already checked today.
 */
export const eligibilityMessages = defineMessages({
  activity: { subject: ACTIVITY_CHECK_SUBJECT, body: ActivityCheckSchema, reply: LoginAllowedSchema },
});

/**
 * `payments.withdrawals.closeout` (internal, players → payments): a player closed after an
 * impediment hit; its whole balance becomes a withdrawal to the player's own CPF (a pix key) in
 * our team's review queue. Idempotent: one closing withdrawal per player; none when nothing is left.
 */
export const CLOSEOUT_SUBJECT = 'payments.withdrawals.closeout';
export const CloseoutSchema = Type.Object({
  operatorId: Type.String({ minLength: 1, maxLength: 64 }),
  brandId: Type.String({ minLength: 1, maxLength: 64 }),
  environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
  currency: Type.String({ pattern: '^[A-Z]{3}$' }),
  playerId: Type.String({ minLength: 1, maxLength: 64 }),
});
export type Closeout = Static<typeof CloseoutSchema>;
export const CloseoutResultSchema = Type.Object({ withdrawalId: Type.Union([Type.String(), Type.Null()]), amount: Type.String() });
export const closeoutMessages = defineMessages({
  closeout: { subject: CLOSEOUT_SUBJECT, body: CloseoutSchema, reply: CloseoutResultSchema },
});

// ---- our internal impediments registry (admin only; docs/eligibility.md) ----

/**
 * Who Lei 14.790/2023 art. 26 bars from betting, as our compliance team files them (docs/eligibility.md
 * gives the sources as read): the operator's owners and staff; public agents who regulate betting;
 * people with access to the betting systems; athletes, referees, coaches and technical staff,
 * officials of sports bodies and agents of athletes; people diagnosed with gambling disorder; people
 * barred by a court or administrative order (Portaria SPA/MF 1.231/2024 art. 8); spouses and relatives
 * to the second degree of some of them (art. 26 §2).
 */
export const INTERNAL_IMPEDIMENT_CATEGORIES = [
  'operator_staff',
  'regulator',
  'system_access',
  'athlete',
  'referee',
  'coach',
  'sports_official',
  'sports_agent',
  'gambling_disorder',
  'court_or_administrative_order',
  'relative',
] as const;
export type InternalImpedimentCategory = (typeof INTERNAL_IMPEDIMENT_CATEGORIES)[number];
const InternalImpedimentCategorySchema = Type.Union(INTERNAL_IMPEDIMENT_CATEGORIES.map((c) => Type.Literal(c)));

/** The reason `impediment_checks.reasons` records for a hit on our internal list (never sent to an operator). */
export const INTERNAL_REGISTRY_REASON = 'internal_registry';

/** One entry of the internal list: who (by CPF), why, and who put it there when. */
export const InternalImpedimentSchema = Type.Object(
  {
    cpf: CpfDigits,
    category: InternalImpedimentCategorySchema,
    note: Type.String(),
    /** The team member who filed it (the audit log's actor). */
    addedBy: Type.String(),
    addedAt: Timestamp,
  },
  { additionalProperties: false, $id: 'InternalImpediment' },
);
export type InternalImpediment = Static<typeof InternalImpedimentSchema>;

export const AddInternalImpedimentSchema = Type.Object({
  cpf: Type.String({ format: 'cpf', description: 'Valid CPF, with or without punctuation' }),
  category: InternalImpedimentCategorySchema,
  /** Why: the source, the relation, the order's reference (kept for our team and the audit log). */
  note: Type.String({ minLength: 1, maxLength: 500 }),
});

export const internalImpedimentAdminOperations = defineOperations({
  adminListImpediments: {
    id: 'adminListImpediments',
    method: 'GET',
    path: '/admin/impediments',
    subject: 'players.admin.impediments.list',
    tag: 'Admin',
    summary: 'Our internal impediments registry (Lei 14.790/2023 art. 26), newest first; one CPF with `cpf`',
    query: Type.Object({
      cpf: Type.Optional(Type.String({ format: 'cpf' })),
      ...pageQuery(200),
    }),
    response: Page(InternalImpedimentSchema),
    status: 200,
  },
  adminAddImpediment: {
    id: 'adminAddImpediment',
    method: 'POST',
    path: '/admin/impediments',
    subject: 'players.admin.impediments.add',
    tag: 'Admin',
    summary:
      'Put a CPF on the internal impediments registry (again: its category and note replaced). Production br-spa players with that CPF are restricted before this answers, as by an SPA hit',
    body: AddInternalImpedimentSchema,
    response: Type.Object({
      entry: InternalImpedimentSchema,
      /** The players restricted by this entry now (production brands of br-spa operators, not already restricted or closed). */
      restricted: Type.Array(Type.String()),
    }),
    status: 201,
  },
  adminRemoveImpediment: {
    id: 'adminRemoveImpediment',
    method: 'DELETE',
    path: '/admin/impediments/:cpf',
    subject: 'players.admin.impediments.remove',
    tag: 'Admin',
    summary: 'Take a CPF off the internal impediments registry (a player already restricted stays restricted and is closed as planned)',
    params: Type.Object({ cpf: Type.String({ format: 'cpf' }) }),
    response: Type.Object({ cpf: CpfDigits, removed: Type.Boolean() }, { additionalProperties: false }),
    status: 200,
  },
});
