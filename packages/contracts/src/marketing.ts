// A player's marketing permission (issue #60 item 2; docs/players.md, "Marketing permission"). The
// bettor's consent, given at registration or later and withdrawn by the bettor, both through the
// operator; forced off, and not to be given again while it lasts, by a self-exclusion, a pause, an
// impediment restriction or the account's closing: IN SPA/MF 31/2025 forbids communications urging
// an excluded bettor to come back (as reported), and Portaria SPA/MF 1.231/2024 forbids advertising
// to self-excluded bettors (docs/legal-sources.md). The daily suppression list names, per brand and
// day, the players who must not be contacted with marketing that day, and why.
import { Type, type Static, type TLiteral, type TUnion } from '@sinclair/typebox';
import { Nullable, Timestamp } from './common.ts';
import { defineOperations } from './operations.ts';

/** What keeps a player's marketing permission off, whatever the consent: each forces the consent off when it begins. */
export const MARKETING_BLOCKS = ['self_exclusion', 'pause', 'impediment', 'closed'] as const;
export type MarketingBlock = (typeof MARKETING_BLOCKS)[number];
/** Why a player is on a day's suppression list: a block, or the consent the bettor withdrew. */
export const SUPPRESSION_REASONS = [...MARKETING_BLOCKS, 'consent_withdrawn'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];
/** What changed a marketing permission (`player.marketing_changed`'s `reason`). */
export const MARKETING_CHANGE_REASONS = ['consent_given', 'consent_withdrawn', ...MARKETING_BLOCKS] as const;
export type MarketingChangeReason = (typeof MARKETING_CHANGE_REASONS)[number];

const literals = <const T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v))) as TUnion<TLiteral<T[number]>[]>;

export const MarketingPermissionSchema = Type.Object(
  {
    /** The bettor's consent as it stands (forced off when a block began). */
    consent: Type.Boolean(),
    /** Whether the operator may send the bettor marketing now: consent and no block. */
    allowed: Type.Boolean(),
    /** What keeps it off now, whatever the consent (null: nothing). */
    blockedBy: Nullable(literals(MARKETING_BLOCKS)),
    /** When the consent last changed (null: never given nor withdrawn). */
    consentChangedAt: Nullable(Timestamp),
  },
  { additionalProperties: false, $id: 'MarketingPermission' },
);
export type MarketingPermission = Static<typeof MarketingPermissionSchema>;

export const SetMarketingConsentSchema = Type.Object(
  {
    /** true: the bettor gives consent (409 MARKETING_BLOCKED while a block lasts); false: the bettor withdraws it. */
    consent: Type.Boolean(),
  },
  { additionalProperties: false, $id: 'SetMarketingConsent' },
);

const CalendarDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD' });

export const MarketingSuppressionSchema = Type.Object(
  {
    playerId: Type.String(),
    externalId: Nullable(Type.String()),
    /** Every reason that applied during the day (a block or a withdrawn consent). */
    reasons: Type.Array(literals(SUPPRESSION_REASONS)),
    /** Since when the earliest of them applies. */
    since: Timestamp,
  },
  { additionalProperties: false },
);
export type MarketingSuppression = Static<typeof MarketingSuppressionSchema>;

export const MarketingSuppressionListSchema = Type.Object(
  {
    brandId: Type.String(),
    date: Type.String(),
    /** The day's zone: the operator's compliance setting. */
    timeZone: Type.String(),
    from: Timestamp,
    to: Timestamp,
    data: Type.Array(MarketingSuppressionSchema),
    /** The next page's `after` (the last player id of this page); null: the last page. */
    nextAfter: Nullable(Type.String()),
  },
  { additionalProperties: false, $id: 'MarketingSuppressionList' },
);
export type MarketingSuppressionList = Static<typeof MarketingSuppressionListSchema>;

const pageOfSuppressions = {
  date: CalendarDate,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  /** The previous page's `nextAfter`. */
  after: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
};

export const marketingOperations = defineOperations({
  setMarketingConsent: {
    id: 'setMarketingConsent',
    method: 'PUT',
    path: '/players/:playerId/marketing-consent',
    subject: 'players.marketing.setConsent',
    tag: 'Players',
    summary: "Record the bettor's marketing consent given or withdrawn (it cannot be given while a self-exclusion, pause, impediment or closing lasts)",
    params: Type.Object({ playerId: Type.String({ minLength: 1, maxLength: 64 }) }),
    body: SetMarketingConsentSchema,
    response: MarketingPermissionSchema,
    status: 200,
    idempotent: true,
    errors: ['PLAYER_NOT_FOUND', 'MARKETING_BLOCKED'],
  },
  listMarketingSuppressions: {
    id: 'listMarketingSuppressions',
    method: 'GET',
    path: '/marketing/suppressions',
    subject: 'players.marketing.suppressions',
    tag: 'Players',
    summary: 'The players of your brand who must not be contacted with marketing on a day (self-excluded, paused, impeded, closed, or who withdrew consent)',
    query: Type.Object(pageOfSuppressions),
    response: MarketingSuppressionListSchema,
    status: 200,
  },
});

export const marketingAdminOperations = defineOperations({
  adminMarketingSuppressions: {
    id: 'adminMarketingSuppressions',
    method: 'GET',
    path: '/admin/marketing/suppressions',
    subject: 'players.admin.marketingSuppressions',
    tag: 'Admin',
    summary: "A brand's players who must not be contacted with marketing on a day, with why",
    query: Type.Object({ brandId: Type.String({ minLength: 1, maxLength: 64 }), ...pageOfSuppressions }),
    response: MarketingSuppressionListSchema,
    status: 200,
  },
});
