// Which role may call which admin operation: one table, checked before anything else runs.
// `admin` may call everything; the bootstrap ADMIN_TOKEN acts as `admin`.
import type { AdminRole } from '@bo/contracts';

const ROLES_BY_OPERATION: Record<string, readonly AdminRole[]> = {
  // Players, KYC and responsible gaming: compliance.
  adminSetPlayerStatus: ['compliance'],
  adminSetPlayerLimits: ['compliance'],
  adminKycDecision: ['compliance'],
  adminKycQueue: ['compliance', 'support'],
  // Looking a player up is for everyone on the team (support answers operators about them).
  adminSearchPlayers: ['compliance', 'finance', 'support'],
  adminGetPlayer: ['compliance', 'finance', 'support'],
  // A player's limits, usage and history: everyone reads; lifting an indefinite self-exclusion is compliance's.
  adminGetResponsibleGaming: ['compliance', 'finance', 'support'],
  adminLiftSelfExclusion: ['compliance'],
  adminPausePlayer: ['compliance'],
  adminSetStricterLimit: ['compliance'],
  adminSetRealityCheck: ['compliance'],
  // Money out and the ledger: finance decides; compliance and support read the queue and a player's
  // withdrawals (compliance sees the whole money picture of a player or a case: issue #41).
  adminListWithdrawals: ['finance', 'compliance', 'support'],
  // The same queue as cards, with each player's name and balance: one request per page (issue #61).
  adminWithdrawalQueue: ['finance', 'compliance', 'support'],
  adminWithdrawalDecision: ['finance'],
  adminVerifyLedger: ['finance'],
  // A player's money, read by everyone on the team (the player and withdrawal pages).
  adminPlayerLedger: ['finance', 'compliance', 'support'],
  adminListDeposits: ['finance', 'compliance', 'support'],
  // Four eyes: everyone reads the threshold; setting it is admin's.
  adminGetFourEyes: ['finance', 'compliance', 'support'],
  // Automatic approval of small br-spa withdrawals (the prize clock): everyone reads the amount; setting it is admin's.
  adminGetAutoApproval: ['finance', 'compliance', 'support'],
  // An operator's compliance profile (off, br-spa): everyone reads it; setting it is admin's. Turning
  // its rules off takes two people (issue #56): admin requests; admin or compliance confirms or
  // cancels; everyone reads the changes (the console's notice to compliance).
  adminGetCompliance: ['compliance', 'finance', 'support'],
  adminListComplianceChanges: ['compliance', 'finance', 'support'],
  adminConfirmComplianceChange: ['compliance'],
  adminCancelComplianceChange: ['compliance'],
  // A person's own personal API tokens: everyone makes, lists and revokes their own (issue #56).
  adminCreateOwnToken: ['compliance', 'finance', 'support'],
  adminListOwnTokens: ['compliance', 'finance', 'support'],
  adminRevokeOwnToken: ['compliance', 'finance', 'support'],
  // Webhook deliveries: support (and finance, who answer operators about payouts).
  adminListDeliveries: ['support', 'finance'],
  adminRedeliver: ['support'],
  // Reading operators and the audit log is for everyone on the team; changing them is admin's.
  adminListOperators: ['compliance', 'finance', 'support'],
  // Every operator's brands by name: the console's brand picker (issue #61).
  adminListBrands: ['compliance', 'finance', 'support'],
  adminGetOperator: ['compliance', 'finance', 'support'],
  // An operator's keys as prefixes and states (support answers an operator's 401s); rotating and
  // revoking them is admin's.
  adminListOperatorCredentials: ['compliance', 'finance', 'support'],
  adminListAudit: ['compliance', 'finance', 'support'],
  // Who read which player's personal data (issue #69): compliance (and the regulator, who reads everything).
  adminListPersonalDataReads: ['compliance'],
  // Players' data requests under the LGPD and their 15-day clock (issue #69): compliance answers for them.
  adminListDataRequests: ['compliance', 'support'],
  // An answer's file holds every personal datum of the player, whole: compliance's (the read recorded, every field revealed).
  adminGetDataRequestFile: ['compliance'],
  // AML cases, risk levels and rule thresholds: compliance only (confidential, issue #28).
  adminListAmlCases: ['compliance'],
  adminGetAmlCase: ['compliance'],
  adminAssignAmlCase: ['compliance'],
  adminAmlCaseDecision: ['compliance'],
  adminGetAmlRules: ['compliance'],
  adminSetAmlRules: ['compliance'],
  adminGetHarmThresholds: ['compliance'],
  adminSetHarmThresholds: ['compliance'],
  adminListHarmCases: ['compliance'],
  adminGetHarmCase: ['compliance'],
  adminRecordHarmInteraction: ['compliance'],
  adminTakeHarmMeasure: ['compliance'],
  adminCloseHarmCase: ['compliance'],
  adminGetPlayerRisk: ['compliance'],
  adminListScreeningEntries: ['compliance'],
  adminAddScreeningEntry: ['compliance'],
  adminRemoveScreeningEntry: ['compliance'],
  adminRescreen: ['compliance'],
  adminAmlCos: ['compliance'],
  adminAmlNoOccurrence: ['compliance'],
  adminDailyReport: ['compliance', 'finance'],
  // The kept daily regulator files: listed, checked and downloaded by compliance and finance alike.
  adminListDailyFiles: ['compliance', 'finance'],
  adminGetDailyFile: ['compliance', 'finance'],
  adminDownloadDailyFile: ['compliance', 'finance'],
  // A provider's daily report (what it invoices on, issue #44): finance, and compliance beside the daily files.
  adminProviderDailyReport: ['finance', 'compliance'],
  // Provider money for finance (issue #61): the providers and their games, what each brand owes a
  // provider or is owed (its clearing balance), players' debts and rounds left open, read; changing a
  // provider, its keys, operators, games and connectors stays admin's.
  // Compliance too: it holds a sports slip's prize on /integrity, naming the sportsbook by its name (issue #70).
  adminListProviders: ['finance', 'compliance'],
  adminGetProvider: ['finance'],
  adminListProviderGames: ['finance'],
  adminListOpenRounds: ['finance'],
  adminListProviderDebts: ['finance'],
  adminProviderClearing: ['finance'],
  // The game register (issue #59 items 5-6): compliance keeps the games' certificates (under br-spa a
  // game without a valid one takes no bets); compliance and finance read them and RTP as measured.
  adminCertificateWarnings: ['compliance', 'finance'],
  adminListGameRegister: ['compliance', 'finance'],
  adminPutGameCertificate: ['compliance'],
  adminGameRtp: ['compliance', 'finance'],
  // What the brand owes each provider and reconciliation with it (issue #59 items 2-3): finance's;
  // compliance reads. Setting a provider's revenue share and its statement's mapping is finance's.
  adminSetProviderRevenueShare: ['finance'],
  adminListProviderRevenueShares: ['finance', 'compliance'],
  adminProviderMonthStatement: ['finance', 'compliance'],
  adminProviderMonthStatementCsv: ['finance', 'compliance'],
  adminPutProviderStatementMapping: ['finance'],
  adminUploadProviderStatement: ['finance'],
  adminFetchProviderStatement: ['finance'],
  adminListProviderReconciliations: ['finance', 'compliance'],
  adminProviderReconciliationDay: ['finance', 'compliance'],
  // Our internal impediments registry (Lei 14.790/2023 art. 26): kept by compliance.
  adminListImpediments: ['compliance'],
  adminAddImpediment: ['compliance'],
  adminRemoveImpediment: ['compliance'],
  // SIGAP files (issue #46): compliance and finance read them; sending them to SIGAP, and again
  // after a correction, is compliance's (the filing is the regulator's).
  adminListSigapFiles: ['compliance', 'finance'],
  adminGetSigapDay: ['compliance', 'finance'],
  adminDownloadSigapFile: ['compliance', 'finance'],
  adminSubmitSigapDay: ['compliance'],
  adminResendSigapFile: ['compliance'],
  // AML beyond the players (issue #46): the decision to report (the COS deadline), the yearly report to
  // the SPA, the risk register of team members, partners and suppliers: compliance only, as all AML.
  adminAmlReportDecision: ['compliance'],
  adminListAmlAnnualReports: ['compliance'],
  adminGetAmlAnnualReport: ['compliance'],
  adminMakeAmlAnnualReport: ['compliance'],
  adminListAmlRiskSubjects: ['compliance'],
  adminGetAmlRiskSubject: ['compliance'],
  adminAddAmlRiskSubject: ['compliance'],
  adminRateAmlRiskSubject: ['compliance'],
  adminEndAmlRiskSubject: ['compliance'],
  // SIGAP duties (issue #60): the operator's CNPJ on the files and the monthly report; compliance's.
  adminGetSigapOperator: ['compliance', 'finance', 'support'],
  adminSetSigapOperator: ['compliance'],
  adminGetSigapMonthlyReport: ['compliance', 'finance'],
  adminMakeSigapMonthlyReport: ['compliance'],
  // The yearly internal risk assessment (issue #60): compliance reads and writes it.
  adminListAmlRiskAssessments: ['compliance'],
  adminSaveAmlRiskAssessment: ['compliance'],
  // After an impediment hit (issue #46 item 4): a player's communications log, read by everyone on
  // the team; the closures report (it names the lists that matched) by compliance; the unclaimed
  // funds and the transfers to FIES and FUNCAP by finance and compliance; running the job and
  // returning held funds to the bettor (a decision on money) by finance.
  adminListCommunications: ['compliance', 'finance', 'support'],
  adminImpededClosures: ['compliance'],
  // Who must not be sent marketing on a day (issue #60): compliance, and support who answers operators about it.
  adminMarketingSuppressions: ['compliance', 'support'],
  adminListUnclaimedFunds: ['finance', 'compliance'],
  adminListFundTransfers: ['finance', 'compliance'],
  // The transfers' halves paid to FIES and FUNCAP, with their receipts (issue #60): finance and compliance read them.
  adminListFundPayouts: ['finance', 'compliance'],
  adminRunUnclaimedFunds: ['finance'],
  adminReturnUnclaimedFunds: ['finance'],
  // Integrity holds on sports prizes (issue #60 item 3): compliance places them, and another person
  // of compliance releases or forfeits (four eyes, checked by the wallet); compliance and finance read
  // them; the suspicious-betting export (it names the evidence) is compliance's.
  adminPlaceIntegrityHold: ['compliance'],
  adminListIntegrityHolds: ['compliance', 'finance'],
  adminReleaseIntegrityHold: ['compliance'],
  adminForfeitIntegrityHold: ['compliance'],
  adminSuspiciousBettingExport: ['compliance'],
  // Ending a player's open game sessions (issue #66 item 9): compliance, and support when an operator
  // asks for it; audited with the reason. Not a person's decision: it stops play, moves no money.
  adminEndGameSessions: ['compliance', 'support'],
};

/**
 * Decisions that move money or change a player's standing, and the rules of both (limits our team
 * sets, four eyes, AML thresholds and lists): taken by a person only, a console session or a
 * personal token (PERSON_REQUIRED otherwise; ADMIN_TOKEN in production, a named service token).
 */
const DECISIONS: ReadonlySet<string> = new Set([
  'adminKycDecision',
  'adminSetPlayerStatus',
  'adminSetPlayerLimits',
  'adminLiftSelfExclusion',
  'adminWithdrawalDecision',
  'adminSetFourEyes',
  'adminSetAutoApproval',
  'adminAmlCaseDecision',
  'adminSetAmlRules',
  'adminSetHarmThresholds',
  'adminRecordHarmInteraction',
  'adminTakeHarmMeasure',
  'adminPausePlayer',
  'adminSetStricterLimit',
  'adminSetRealityCheck',
  'adminCloseHarmCase',
  'adminAddScreeningEntry',
  'adminRemoveScreeningEntry',
  'adminAddImpediment',
  'adminRemoveImpediment',
  // A decision to report a case to COAF, and a risk rating of a team member, partner or supplier (issue #46).
  'adminAmlReportDecision',
  'adminAddAmlRiskSubject',
  'adminRateAmlRiskSubject',
  'adminEndAmlRiskSubject',
  'adminSaveAmlRiskAssessment',
  'adminReturnUnclaimedFunds',
  // Integrity holds on sports prizes: holding, releasing and forfeiting a prize (issue #60 item 3).
  'adminPlaceIntegrityHold',
  'adminReleaseIntegrityHold',
  'adminForfeitIntegrityHold',
  // An operator's compliance profile: off turns every Brazilian rule off (issue #56).
  'adminSetCompliance',
  'adminRequestComplianceChange',
  'adminConfirmComplianceChange',
  'adminCancelComplianceChange',
  // Confirming a person's power (issue #69): one person vouches for another.
  'adminConfirmUser',
]);

export function isPersonDecision(operationId: string): boolean {
  return DECISIONS.has(operationId);
}

/**
 * The team's people and tokens: an admin not yet confirmed manages nobody, else admin X adds admin A,
 * A adds two people, and X, who did not add them, confirms them both (issue #69).
 */
const TEAM_POWER: ReadonlySet<string> = new Set([
  'adminCreateUser',
  'adminDisableUser',
  'adminResetPassword',
  'adminResetSecondFactor',
  'adminCreateToken',
  'adminRevokeToken',
]);

/**
 * What a person whose power no second admin confirmed yet may not do (issue #69; 403
 * PERSON_NOT_CONFIRMED): decisions and the team's people and tokens. Confirming others is left to
 * the operators service, which lets the first two admins of a deployment confirm each other.
 */
export function needsConfirmedPerson(operationId: string): boolean {
  return operationId !== 'adminConfirmUser' && (DECISIONS.has(operationId) || TEAM_POWER.has(operationId));
}

/**
 * A person's own tokens (issue #56): asked by the real person they belong to (a console session or
 * their personal token; never ADMIN_TOKEN, a stand-in or a service token) and, to make one, from
 * their own console session only: a token never makes another.
 */
const OWN_TOKEN_OPERATIONS: ReadonlySet<string> = new Set(['adminCreateOwnToken', 'adminListOwnTokens', 'adminRevokeOwnToken']);
const FROM_OWN_SESSION: ReadonlySet<string> = new Set(['adminCreateOwnToken']);

export function isOwnTokenOperation(operationId: string): boolean {
  return OWN_TOKEN_OPERATIONS.has(operationId);
}

export function needsOwnSession(operationId: string): boolean {
  return FROM_OWN_SESSION.has(operationId);
}

/**
 * The regulator's inspectors (issue #69; Portaria SPA/MF 722/2024: secure and unrestricted access to
 * the operation's systems and data) read every read of the admin API across operators (players,
 * money, bets, regulator files, the audit log, AML and responsible-gaming cases, the read log) except
 * our own security's: the team's people and tokens and operators' API keys. They change nothing:
 * every other method is refused (READ_ONLY_ROLE, admin-routes.ts), and every service refuses a change
 * to their read-only scope again (service-kit serve.ts). Every read of theirs is recorded.
 */
const NOT_FOR_THE_REGULATOR: ReadonlySet<string> = new Set(['adminListUsers', 'adminListTokens', 'adminListOwnTokens', 'adminListOperatorCredentials']);

/** A role that reads and changes nothing (the regulator): every admin change is refused to it. */
export function isReadOnlyRole(role: AdminRole): boolean {
  return role === 'regulator';
}

export function roleMayCall(role: AdminRole, operationId: string, method = 'GET'): boolean {
  if (role === 'regulator') return method === 'GET' && !NOT_FOR_THE_REGULATOR.has(operationId);
  return role === 'admin' || (ROLES_BY_OPERATION[operationId]?.includes(role) ?? false);
}
