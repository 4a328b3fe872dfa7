// The operator's terms and conditions (issue 46, docs/players.md "Terms versions"): the operator
// publishes each version of its terms through the API, and reports each bettor's acceptance (which
// version, when, from which IP address). Under br-spa a bettor who has not accepted the version in
// force is refused deposits and game sessions (403 TERMS_NOT_ACCEPTED) until they do.
import { Type, type Static } from '@sinclair/typebox';
import { List, Nullable, Timestamp, idOf } from './common.ts';
import { defineOperations } from './operations.ts';

/** A terms version's name as the operator writes it (`2026-01`, `v3.2`): printable, no spaces at the ends. */
const VersionName = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9._:/+-]*$', examples: ['2026-11'] });
/** The IP address the bettor's device used, as the operator's front end saw it. */
export const IpAddress = Type.String({ format: 'ip-address', maxLength: 45, description: 'IPv4 or IPv6 address', examples: ['203.0.113.7'] });

/** Where a version stands now: published later (`scheduled`), the one in force, or replaced by a newer one. */
export const TERMS_VERSION_STATUSES = ['scheduled', 'in_force', 'superseded'] as const;
export type TermsVersionStatus = (typeof TERMS_VERSION_STATUSES)[number];

export const TermsVersionSchema = Type.Object(
  {
    id: idOf('trm'),
    version: Type.String(),
    /** From when the version is in force (the newest version published at or before a moment is the one in force then). */
    publishedAt: Timestamp,
    /** Where bettors read it. */
    url: Nullable(Type.String()),
    status: Type.Union(TERMS_VERSION_STATUSES.map((s) => Type.Literal(s))),
    createdAt: Timestamp,
  },
  { additionalProperties: false, $id: 'TermsVersion' },
);
export type TermsVersion = Static<typeof TermsVersionSchema>;

export const PublishTermsVersionSchema = Type.Object(
  {
    version: VersionName,
    /** Omitted: now. A later time schedules the version; more than 5 minutes in the past is refused. */
    publishedAt: Type.Optional(Timestamp),
    url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, pattern: '^https://' })),
  },
  { $id: 'PublishTermsVersion' },
);
export type PublishTermsVersion = Static<typeof PublishTermsVersionSchema>;

/** A bettor's acceptance of a terms version, as the operator reports it (at registration or later). */
export const TermsAcceptanceInputSchema = Type.Object(
  {
    version: VersionName,
    /** When the bettor accepted (omitted: when we receive it); never in the future, never before the version's publication. */
    acceptedAt: Type.Optional(Timestamp),
    /** The IP address the bettor accepted from. */
    ip: IpAddress,
  },
  { $id: 'TermsAcceptanceInput' },
);
export type TermsAcceptanceInput = Static<typeof TermsAcceptanceInputSchema>;

export const TermsAcceptanceSchema = Type.Object(
  {
    id: idOf('tac'),
    playerId: idOf('plr'),
    version: Type.String(),
    acceptedAt: Timestamp,
    ip: Type.String(),
    /** When we recorded it. */
    createdAt: Timestamp,
  },
  { additionalProperties: false, $id: 'TermsAcceptance' },
);
export type TermsAcceptance = Static<typeof TermsAcceptanceSchema>;

const TermsPlayerIdParams = Type.Object({ playerId: Type.String({ minLength: 1, maxLength: 64 }) });

export const termsOperations = defineOperations({
  publishTermsVersion: {
    id: 'publishTermsVersion',
    method: 'POST',
    path: '/terms-versions',
    subject: 'players.terms.versions.publish',
    tag: 'Terms',
    summary: "Publish a version of the brand's terms; under br-spa players accept it before their next deposit or game session",
    body: PublishTermsVersionSchema,
    response: TermsVersionSchema,
    status: 201,
    idempotent: true,
    errors: ['TERMS_VERSION_EXISTS'],
  },
  listTermsVersions: {
    id: 'listTermsVersions',
    method: 'GET',
    path: '/terms-versions',
    subject: 'players.terms.versions.list',
    tag: 'Terms',
    summary: "The brand's terms versions, newest publication first",
    response: List(TermsVersionSchema),
    status: 200,
  },
  acceptTerms: {
    id: 'acceptTerms',
    method: 'POST',
    path: '/players/:playerId/terms-acceptances',
    subject: 'players.terms.accept',
    tag: 'Terms',
    summary: "Record the player's acceptance of a terms version",
    params: TermsPlayerIdParams,
    body: TermsAcceptanceInputSchema,
    response: TermsAcceptanceSchema,
    status: 201,
    idempotent: true,
    errors: ['PLAYER_NOT_FOUND'],
  },
  listTermsAcceptances: {
    id: 'listTermsAcceptances',
    method: 'GET',
    path: '/players/:playerId/terms-acceptances',
    subject: 'players.terms.acceptances.list',
    tag: 'Terms',
    summary: "The player's terms acceptances, newest first",
    params: TermsPlayerIdParams,
    response: List(TermsAcceptanceSchema),
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
  },
});

/**
 * What `players.state` tells the enforcing services under br-spa (`rg.terms`): the version the
 * player has still to accept and the moment from which it is required (a scheduled version's
 * publication: the services compare with their own clock, so a scheduled version needs no broadcast).
 */
export const TermsDueSchema = Type.Object({ version: Type.String(), dueAt: Timestamp });
export type TermsDue = Static<typeof TermsDueSchema>;

/** Whether the terms named by `terms` are required at `now` and not accepted. */
export function termsPending(terms: TermsDue | null | undefined, now: Date): boolean {
  return terms != null && Date.parse(terms.dueAt) <= now.getTime();
}
