// Issue #59 items 5 and 6 (docs/games.md, "Certified games and RTP as measured"): the game register,
// a certificate per provider game (the laboratory, its number, the certified RTP, the game version,
// issued and valid-until dates, the regulator's reference); under `br-spa` a production bet on a
// casino game with no certificate valid at the bet's time is refused (GAME_NOT_CERTIFIED). And RTP
// as measured: per game and month, stakes and wins of the settled rounds beside the certified RTP,
// judged only over a large enough sample (GAME_RTP_SAMPLE).
import { Type, type Static } from '@sinclair/typebox';
import { Currency, List, Money, Nullable, Timestamp } from './common.ts';
import { defineOperations } from './operations.ts';

/** The console warns, and a game's state turns `expiring`, this many days before its certificate ends. */
export const CERTIFICATE_WARNING_DAYS = 30;
/** The zone of a certificate's dates and of the RTP's months: the regulator's (Brasília). */
export const GAME_REGISTER_TIME_ZONE = 'America/Sao_Paulo';
/**
 * When a month's measured RTP is judged against its certificate (docs/games.md, "RTP as measured"):
 * the settled rounds weighted by stake count as `(Σ stake)² / Σ stake²` rounds (as many equal
 * stakes would weigh the same), at least `minEffectiveRounds`; then the measured RTP is outside
 * what the certificate allows when it is further from the certified RTP than `z` standard errors,
 * `z × σ / √n`, σ the certificate's volatility (the standard deviation of a unit stake's return)
 * or `defaultVolatility` when the laboratory gave none.
 */
export const GAME_RTP_SAMPLE = { minEffectiveRounds: 10_000, z: 4, defaultVolatility: 10 } as const;

/** `valid` now and beyond the warning; `expiring` within CERTIFICATE_WARNING_DAYS; `expired`: it had one, none is valid now; `missing`: never had one. */
export const CERTIFICATE_STATES = ['valid', 'expiring', 'expired', 'missing'] as const;
export type CertificateState = (typeof CERTIFICATE_STATES)[number];

const CalendarDate = Type.String({ format: 'calendar-date', description: 'YYYY-MM-DD, a calendar day in Brasília' });
/** A percentage with two decimals, 0.01 to 100.00. */
const Percent = Type.String({ pattern: '^(100(\\.00?)?|[0-9]{1,2}(\\.[0-9]{1,2})?)$', examples: ['96.50'] });
const Text = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });

export const GameCertificateSchema = Type.Object(
  {
    id: Type.String({ description: 'Ours (gcr_…)' }),
    providerId: Type.String(),
    gameId: Type.String(),
    gameCode: Type.String(),
    /** The certifying laboratory (an entity the SPA recognises: Portaria SPA/MF 300/2024). */
    laboratory: Type.String(),
    certificateNumber: Type.String(),
    /** The RTP the laboratory certified, without external jackpots, in percent. */
    certifiedRtp: Type.String(),
    /** The standard deviation of a unit stake's return, when the laboratory gave it (the RTP alert's tolerance reads it). */
    volatility: Nullable(Type.String()),
    /** The game version the certificate covers. */
    version: Type.String(),
    issuedOn: Type.String(),
    /** The last day it is valid (through that day's end in Brasília). */
    validUntil: Type.String(),
    /** The regulator's reference of the certificate (its registration with the SPA), when it has one. */
    regulatorReference: Nullable(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'GameCertificate' },
);
export type GameCertificate = Static<typeof GameCertificateSchema>;

export const PutGameCertificateBody = Type.Object(
  {
    laboratory: Text(200),
    certifiedRtp: Percent,
    volatility: Type.Optional(Nullable(Type.String({ pattern: '^[0-9]{1,3}(\\.[0-9]{1,2})?$', description: 'Standard deviation of a unit stake, e.g. 7.5' }))),
    version: Text(64),
    issuedOn: CalendarDate,
    validUntil: CalendarDate,
    regulatorReference: Type.Optional(Nullable(Text(200))),
  },
  { additionalProperties: false },
);
export type PutGameCertificate = Static<typeof PutGameCertificateBody>;

/** A provider game in the register: its certificate state now and its certificates, newest first. */
export const GameRegisterEntrySchema = Type.Object(
  {
    gameId: Type.String(),
    gameCode: Type.String(),
    name: Type.String(),
    enabled: Type.Boolean(),
    state: Type.Union(CERTIFICATE_STATES.map((s) => Type.Literal(s))),
    /** Whole days left of the certificate valid now (0 on its last day); null without one. */
    daysLeft: Nullable(Type.Integer()),
    /** The certificate valid now, else the latest one; null: never certified. */
    current: Nullable(GameCertificateSchema),
    certificates: Type.Array(GameCertificateSchema),
  },
  { $id: 'GameRegisterEntry' },
);
export type GameRegisterEntry = Static<typeof GameRegisterEntrySchema>;

/** A game's month, RTP as measured beside the certified one. */
export const GameRtpMonthSchema = Type.Object(
  {
    gameId: Type.String(),
    gameCode: Type.String(),
    name: Type.String(),
    /** A game played in two currencies has a row each (a ratio of sums is taken in one currency); null: no round settled in the month. */
    currency: Nullable(Currency),
    /** Casino rounds settled in the month (voided ones are not). */
    rounds: Type.Integer(),
    /** What their bets staked, less what was rolled back. */
    stakes: Money,
    /** What their wins paid (the provider's wins of the round; external jackpot wins are never among them). */
    wins: Money,
    /** wins ÷ stakes in percent (two decimals); null with no stakes. */
    measuredRtp: Nullable(Type.String()),
    /** The RTP of the certificate valid at the month's end (or now, in the current month); null without one. */
    certifiedRtp: Nullable(Type.String()),
    /** The stake-weighted sample size `(Σ stake)² / Σ stake²` (GAME_RTP_SAMPLE). */
    effectiveRounds: Type.Integer(),
    /** How far (percentage points) the measured RTP may be from the certified one at this sample; null when not judged. */
    tolerance: Nullable(Type.String()),
    /** The sample is large enough and the game has a certificate: the month is judged. */
    judged: Type.Boolean(),
    /** Judged and further from the certified RTP than the tolerance (null when not judged). */
    outside: Nullable(Type.Boolean()),
  },
  { $id: 'GameRtpMonth' },
);
export type GameRtpMonth = Static<typeof GameRtpMonthSchema>;

export const GameRtpReportSchema = Type.Object(
  {
    providerId: Type.String(),
    month: Type.String(),
    timeZone: Type.String(),
    from: Timestamp,
    to: Timestamp,
    sample: Type.Object({ minEffectiveRounds: Type.Integer(), z: Type.Number(), defaultVolatility: Type.Number() }),
    data: Type.Array(GameRtpMonthSchema),
  },
  { $id: 'GameRtpReport' },
);
export type GameRtpReport = Static<typeof GameRtpReportSchema>;

/** A game whose certificate ends within CERTIFICATE_WARNING_DAYS or has ended: the console's warning across providers. */
export const CertificateWarningSchema = Type.Object(
  {
    providerId: Type.String(),
    providerName: Type.String(),
    gameId: Type.String(),
    gameCode: Type.String(),
    name: Type.String(),
    state: Type.Union([Type.Literal('expiring'), Type.Literal('expired')]),
    /** Whole days left (0 on the last day); null once ended. */
    daysLeft: Nullable(Type.Integer()),
    certificateNumber: Type.String(),
    validUntil: Type.String(),
  },
  { $id: 'CertificateWarning' },
);
export type CertificateWarning = Static<typeof CertificateWarningSchema>;

const ProviderIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const GameCode = Type.String({ minLength: 1, maxLength: 128, pattern: '^[\\x21-\\x7e]+$' });

export const gameRegisterOperations = defineOperations({
  adminCertificateWarnings: {
    id: 'adminCertificateWarnings',
    subject: 'wallet.admin.gameCertificates.warnings',
    method: 'GET',
    path: '/admin/game-certificates/warnings',
    tag: 'Admin',
    summary: `Enabled casino games whose certificate ends within ${CERTIFICATE_WARNING_DAYS} days or has ended unrenewed (the console's warning), the soonest end first`,
    response: List(CertificateWarningSchema),
    status: 200,
  },
  adminListGameRegister: {
    id: 'adminListGameRegister',
    subject: 'wallet.admin.providers.gameRegister',
    method: 'GET',
    path: '/admin/providers/:id/certificates',
    tag: 'Admin',
    summary: `A provider's games with their certificates: the state of each now (valid, expiring within ${CERTIFICATE_WARNING_DAYS} days, expired, missing) and every certificate, newest first`,
    params: ProviderIdParams,
    response: List(GameRegisterEntrySchema),
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminPutGameCertificate: {
    id: 'adminPutGameCertificate',
    subject: 'wallet.admin.providers.putCertificate',
    method: 'PUT',
    path: '/admin/providers/:id/games/:gameCode/certificates/:certificateNumber',
    tag: 'Admin',
    summary:
      "Record (or correct) a game's certificate by its number: laboratory, certified RTP, game version, issued and valid-until dates, the regulator's reference; audited",
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), gameCode: GameCode, certificateNumber: Text(128) }),
    body: PutGameCertificateBody,
    response: GameCertificateSchema,
    status: 200,
    errors: ['PROVIDER_NOT_FOUND', 'GAME_NOT_FOUND'],
  },
  adminGameRtp: {
    id: 'adminGameRtp',
    subject: 'wallet.admin.providers.rtp',
    method: 'GET',
    path: '/admin/providers/:id/rtp',
    tag: 'Admin',
    summary:
      "A provider's casino games in a month (Brasília): stakes, wins, RTP as measured beside the certified RTP, and whether it is outside what the certificate allows over a large enough sample",
    params: ProviderIdParams,
    query: Type.Object({ month: Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' }) }),
    response: GameRtpReportSchema,
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
});
