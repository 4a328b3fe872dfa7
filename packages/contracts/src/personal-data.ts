// Personal data under the LGPD (Lei 13.709/2018; issue #69, docs/privacy.md): the categories of
// personal data we hold on a player, each with its purpose, legal basis and retention, written once
// here (docs/privacy.md's retention table is checked against it); a player's data request as the
// operator (the controller) files it for its player; and the messages through which the players
// service gathers or anonymises what every other service holds (each service's catalogue of its own
// tables, packages/service-kit/src/personal-data.ts).
import { Type, type Static, type TLiteral, type TUnion } from '@sinclair/typebox';
import { Nullable, Timestamp, idOf } from './common.ts';
import type { MessageDefinition } from './messages.ts';
import { defineOperations } from './operations.ts';
import { UpdatePlayerSchema } from './players.ts';
import { FileChunkSchema } from './regulator-file.ts';

const literals = <const T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v))) as TUnion<TLiteral<T[number]>[]>;

/** A law's article with its public text. */
export interface LegalReference {
  cite: string;
  url: string;
}

export const LGPD_URL = 'https://www.planalto.gov.br/ccivil_03/_ato2015-2018/2018/lei/l13709.htm';
const AML_LAW_URL = 'https://www.planalto.gov.br/ccivil_03/leis/l9613.htm';
const BETTING_LAW_URL = 'https://www.planalto.gov.br/ccivil_03/_ato2023-2026/2023/lei/l14790.htm';
const MARCO_CIVIL_URL = 'https://www.planalto.gov.br/ccivil_03/_ato2011-2014/2014/lei/l12965.htm';

/** The duty that keeps money, identity and play records: five years after the relationship ends. */
const AML_RECORDS: LegalReference = { cite: 'Lei 9.613/1998, art. 10, I, II and §2', url: AML_LAW_URL };
const NO_TIPPING_OFF: LegalReference = { cite: 'Lei 9.613/1998, art. 11, II', url: AML_LAW_URL };

/**
 * How long a category is kept:
 * - `relationship`: while the player's account is open and `years` after it is closed (status `encerrado`);
 * - `collection`: `months` after each datum was collected;
 * - `consent`: until the player withdraws consent or asks for deletion.
 */
export type Retention =
  | { kind: 'relationship'; years: number; duty: LegalReference }
  | { kind: 'collection'; months: number; duty: LegalReference }
  | { kind: 'consent' };

export interface PersonalDataCategory {
  title: string;
  purpose: string;
  /** The LGPD legal basis (art. 7) and what makes it apply. */
  legalBasis: LegalReference & { basis: string };
  retention: Retention;
  /** Whether a player's access request shows it; when not, the law that forbids it. */
  shownToPlayer: true | LegalReference;
}

export const PERSONAL_DATA_CATEGORIES = {
  identity: {
    title: 'Identity',
    purpose: 'Identify the bettor (the registration, its sign-up IP included), check age and impediments, one account per CPF, report to the regulator',
    legalBasis: { basis: 'legal obligation (art. 7, II)', cite: 'Lei 14.790/2023, arts. 23 and 26; Lei 9.613/1998, art. 10, I', url: BETTING_LAW_URL },
    retention: { kind: 'relationship', years: 5, duty: AML_RECORDS },
    shownToPlayer: true,
  },
  contact: {
    title: 'Contact and address',
    purpose: 'Reach the bettor about the account, its limits and its money; the address of the registration',
    legalBasis: { basis: 'performance of a contract and legal obligation (art. 7, II and V)', cite: 'Lei 9.613/1998, art. 10, I', url: AML_LAW_URL },
    retention: { kind: 'relationship', years: 5, duty: AML_RECORDS },
    shownToPlayer: true,
  },
  kyc: {
    title: 'Identity verification',
    purpose: 'Verify the identity the bettor gave (documents, decisions and their history)',
    legalBasis: { basis: 'legal obligation (art. 7, II)', cite: 'Lei 14.790/2023, art. 23; Lei 9.613/1998, art. 10, I', url: BETTING_LAW_URL },
    retention: { kind: 'relationship', years: 5, duty: AML_RECORDS },
    shownToPlayer: true,
  },
  eligibility: {
    title: 'Impediment checks',
    purpose: 'Check that the bettor may bet: the registries asked and their answers',
    legalBasis: { basis: 'legal obligation (art. 7, II)', cite: 'Lei 14.790/2023, art. 26', url: BETTING_LAW_URL },
    retention: { kind: 'relationship', years: 5, duty: AML_RECORDS },
    shownToPlayer: true,
  },
  responsibleGaming: {
    title: 'Responsible gaming',
    purpose: "Keep the bettor's limits, pauses and self-exclusion, the account's status and its history",
    legalBasis: { basis: 'legal obligation (art. 7, II)', cite: 'Lei 14.790/2023, art. 23, §3', url: BETTING_LAW_URL },
    retention: { kind: 'relationship', years: 5, duty: AML_RECORDS },
    shownToPlayer: true,
  },
  money: {
    title: 'Money',
    purpose: "Move the bettor's money: deposits with their payer, withdrawals with their destination, the ledger",
    legalBasis: { basis: 'performance of a contract and legal obligation (art. 7, II and V)', cite: 'Lei 9.613/1998, art. 10, II', url: AML_LAW_URL },
    retention: { kind: 'relationship', years: 5, duty: AML_RECORDS },
    shownToPlayer: true,
  },
  play: {
    title: 'Play',
    purpose: 'Record game sessions, rounds, bets and wins, and report them to the regulator',
    legalBasis: { basis: 'performance of a contract and legal obligation (art. 7, II and V)', cite: 'Lei 9.613/1998, art. 10, II', url: AML_LAW_URL },
    retention: { kind: 'relationship', years: 5, duty: AML_RECORDS },
    shownToPlayer: true,
  },
  communications: {
    title: 'Communications',
    purpose: 'Record what the bettor was told after an impediment and when',
    legalBasis: { basis: 'legal obligation (art. 7, II)', cite: 'Lei 14.790/2023, art. 26', url: BETTING_LAW_URL },
    retention: { kind: 'relationship', years: 5, duty: AML_RECORDS },
    shownToPlayer: true,
  },
  marketing: {
    title: 'Marketing consent',
    purpose: 'Send marketing only with the consent the bettor gave',
    legalBasis: { basis: 'consent (art. 7, I; art. 8)', cite: 'Lei 13.709/2018, arts. 7, I and 8', url: LGPD_URL },
    retention: { kind: 'consent' },
    shownToPlayer: true,
  },
  connection: {
    title: 'Connection records',
    purpose: 'The IP address the bettor accepted terms from, for security and fraud',
    legalBasis: { basis: 'legal obligation and legitimate interest (art. 7, II and IX)', cite: 'Lei 12.965/2014, art. 15', url: MARCO_CIVIL_URL },
    retention: { kind: 'collection', months: 6, duty: { cite: 'Lei 12.965/2014, art. 15', url: MARCO_CIVIL_URL } },
    shownToPlayer: true,
  },
  reads: {
    title: "Our team's reads",
    purpose: "Know which of our team read the bettor's personal data, when and from where",
    legalBasis: { basis: 'legal obligation (art. 7, II)', cite: 'Lei 13.709/2018, arts. 37 and 46', url: LGPD_URL },
    retention: { kind: 'relationship', years: 5, duty: AML_RECORDS },
    shownToPlayer: true,
  },
  aml: {
    title: 'Anti-money-laundering',
    purpose: 'Watch money for laundering, screen against sanctions lists, report to COAF',
    legalBasis: { basis: 'legal obligation (art. 7, II)', cite: 'Lei 9.613/1998, arts. 10 and 11', url: AML_LAW_URL },
    retention: { kind: 'relationship', years: 5, duty: AML_RECORDS },
    shownToPlayer: NO_TIPPING_OFF,
  },
} as const satisfies Record<string, PersonalDataCategory>;

export type PersonalDataCategoryName = keyof typeof PERSONAL_DATA_CATEGORIES;
export const PERSONAL_DATA_CATEGORY_NAMES = Object.keys(PERSONAL_DATA_CATEGORIES) as PersonalDataCategoryName[];

/** How the access file and docs/privacy.md's retention table say a category's retention. */
export function retentionSentence(name: PersonalDataCategoryName): string {
  const r = (PERSONAL_DATA_CATEGORIES[name] as PersonalDataCategory).retention;
  if (r.kind === 'relationship') return `while the account is open and ${r.years} years after it is closed (${r.duty.cite})`;
  if (r.kind === 'collection') return `${r.months} months after it was collected (${r.duty.cite})`;
  return 'until the bettor withdraws consent or asks for deletion';
}

/** docs/privacy.md's retention table, one row per category (a test holds the page to it). */
export function retentionTableRows(): string[] {
  return PERSONAL_DATA_CATEGORY_NAMES.map((name) => {
    const c = PERSONAL_DATA_CATEGORIES[name] as PersonalDataCategory;
    const shown = c.shownToPlayer === true ? 'yes' : `no (${c.shownToPlayer.cite})`;
    return `| \`${name}\` | ${c.title} | ${c.purpose} | ${c.legalBasis.basis}: [${c.legalBasis.cite}](${c.legalBasis.url}) | ${retentionSentence(name)} | ${shown} |`;
  });
}

// ---- A player's data request (LGPD art. 18) ----

export const DATA_REQUEST_TYPES = ['access', 'portability', 'correction', 'deletion'] as const;
export type DataRequestType = (typeof DATA_REQUEST_TYPES)[number];
/**
 * `received`: filed, its answer not yet made (a service that holds the player's data did not answer: it
 * is tried again); `answered`: done whole; `partly_refused`: a deletion that anonymised what no duty keeps
 * and refused the rest (`answer.kept`), anonymised on the date each duty ends.
 */
export const DATA_REQUEST_STATUSES = ['received', 'answered', 'partly_refused'] as const;
export type DataRequestStatus = (typeof DATA_REQUEST_STATUSES)[number];
/** LGPD art. 19, II: a complete answer within 15 days of the request. */
export const DATA_REQUEST_DAYS = 15;

export const DataRequestCorrectionsSchema = Type.Omit(UpdatePlayerSchema, ['signupIp'], {
  additionalProperties: false,
  minProperties: 1,
  $id: 'DataRequestCorrections',
});

export const FileDataRequestSchema = Type.Object(
  {
    type: literals(DATA_REQUEST_TYPES),
    /** `correction` only, and required there: the registration fields as the bettor says they are (the CPF and the birth date never change). */
    corrections: Type.Optional(DataRequestCorrectionsSchema),
    /** Your own reference for the request (your ticket), up to 200 characters. */
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false, $id: 'FileDataRequest' },
);
export type FileDataRequest = Static<typeof FileDataRequestSchema>;

export const KeptCategorySchema = Type.Object(
  {
    category: Type.String(),
    /** The law that keeps it. */
    duty: Type.String(),
    dutyUrl: Type.String(),
    /** When the duty ends (null: five years after the account is closed, and it is still open). */
    keptUntil: Nullable(Type.String({ format: 'date' })),
  },
  { additionalProperties: false },
);

export const DataRequestAnswerSchema = Type.Object(
  {
    /** access, portability: the file's size in records and its SHA-256; read it at `.../file`. */
    file: Type.Optional(Type.Object({ records: Type.Integer(), sha256: Type.String() }, { additionalProperties: false })),
    /** correction: each field changed, with its value before and after. */
    corrected: Type.Optional(Type.Array(Type.Object({ field: Type.String(), before: Type.Unknown(), after: Type.Unknown() }, { additionalProperties: false }))),
    /** deletion: the categories anonymised now. */
    anonymised: Type.Optional(Type.Array(Type.String())),
    /** deletion: the categories a duty keeps, anonymised when it ends. */
    kept: Type.Optional(Type.Array(KeptCategorySchema)),
  },
  { additionalProperties: false },
);
export type DataRequestAnswer = Static<typeof DataRequestAnswerSchema>;

export const DataRequestSchema = Type.Object(
  {
    id: idOf('dsr'),
    object: Type.Literal('data_request'),
    playerId: Type.String(),
    type: literals(DATA_REQUEST_TYPES),
    status: literals(DATA_REQUEST_STATUSES),
    reference: Nullable(Type.String()),
    /** A correction's fields as filed (null for the other types). */
    corrections: Nullable(Type.Record(Type.String(), Type.Unknown())),
    receivedAt: Timestamp,
    /** The law's deadline: 15 days after it was received. */
    dueAt: Timestamp,
    answeredAt: Nullable(Timestamp),
    answer: Nullable(DataRequestAnswerSchema),
  },
  { additionalProperties: false, $id: 'DataRequest' },
);
export type DataRequest = Static<typeof DataRequestSchema>;

const PlayerParams = Type.Object({ playerId: Type.String({ minLength: 1, maxLength: 64 }) });
const RequestParams = Type.Object({ playerId: Type.String({ minLength: 1, maxLength: 64 }), requestId: Type.String({ minLength: 1, maxLength: 64 }) });

/**
 * An answer's file, for the operator and for our team alike: streamed, the players service answering it
 * chunk by chunk (each within a NATS message) at the gateway's cursor.
 */
const ANSWER_FILE = {
  params: RequestParams,
  query: Type.Object({
    /** The gateway's, while it pages through the file: a caller never sends it. */
    cursor: Type.Optional(Type.String({ maxLength: 32 })),
  }),
  response: FileChunkSchema,
  download: true,
  status: 200,
  timeoutMs: 60_000,
} as const;

export const dataRequestOperations = defineOperations({
  fileDataRequest: {
    id: 'fileDataRequest',
    method: 'POST',
    path: '/players/:playerId/data-requests',
    subject: 'players.dataRequests.file',
    tag: 'Players',
    summary:
      "File your player's data request under the LGPD (access, portability, correction, deletion): answered at once when every service answers, else within the law's 15 days",
    params: PlayerParams,
    body: FileDataRequestSchema,
    response: DataRequestSchema,
    status: 201,
    idempotent: true,
    timeoutMs: 60_000,
    errors: ['PLAYER_NOT_FOUND'],
  },
  listDataRequests: {
    id: 'listDataRequests',
    method: 'GET',
    path: '/players/:playerId/data-requests',
    subject: 'players.dataRequests.list',
    tag: 'Players',
    summary: "Your player's data requests, newest first",
    params: PlayerParams,
    response: Type.Object({ data: Type.Array(DataRequestSchema) }),
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
  },
  getDataRequest: {
    id: 'getDataRequest',
    method: 'GET',
    path: '/players/:playerId/data-requests/:requestId',
    subject: 'players.dataRequests.get',
    tag: 'Players',
    summary: 'One data request with its answer',
    params: RequestParams,
    response: DataRequestSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND', 'DATA_REQUEST_NOT_FOUND'],
  },
  getDataRequestFile: {
    id: 'getDataRequestFile',
    method: 'GET',
    path: '/players/:playerId/data-requests/:requestId/file',
    subject: 'players.dataRequests.download',
    tag: 'Players',
    summary:
      'An access or portability answer: every personal datum we hold on the player, by category, with its legal basis and the end of its retention (JSON)',
    ...ANSWER_FILE,
    errors: ['PLAYER_NOT_FOUND', 'DATA_REQUEST_NOT_FOUND', 'DATA_REQUEST_NO_FILE'],
  },
});

export const DataRequestAdminSchema = Type.Composite(
  [Type.Omit(DataRequestSchema, ['answer', 'corrections']), Type.Object({ operatorId: Type.String(), brandId: Type.String(), overdue: Type.Boolean() })],
  { additionalProperties: false, $id: 'DataRequestAdmin' },
);

export const dataRequestAdminOperations = defineOperations({
  adminListDataRequests: {
    id: 'adminListDataRequests',
    method: 'GET',
    path: '/admin/data-requests',
    subject: 'players.admin.dataRequests',
    tag: 'Admin',
    summary: "Players' data requests across operators, oldest due first: open ones (`status=received`), overdue ones (`overdue=true`)",
    query: Type.Object({
      status: Type.Optional(literals(DATA_REQUEST_STATUSES)),
      overdue: Type.Optional(Type.Boolean()),
      operatorId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
    }),
    response: Type.Object({ data: Type.Array(DataRequestAdminSchema) }),
    status: 200,
  },
  adminGetDataRequestFile: {
    id: 'adminGetDataRequestFile',
    method: 'GET',
    path: '/admin/players/:playerId/data-requests/:requestId/file',
    subject: 'players.admin.dataRequests.download',
    tag: 'Admin',
    summary:
      "An access or portability answer's file, as the operator reads it: every personal datum we hold on the player, whole (the read is recorded with every field revealed)",
    ...ANSWER_FILE,
    errors: ['DATA_REQUEST_NOT_FOUND', 'DATA_REQUEST_NO_FILE'],
  },
});

// ---- Between services: what each holds on a player ----

/** Where a page of a service's export stopped: the table, and how many of its rows came before. */
export const PersonalDataCursorSchema = Type.Object(
  { table: Type.String({ minLength: 1 }), offset: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
export type PersonalDataCursor = Static<typeof PersonalDataCursorSchema>;
export const PersonalDataOfSchema = Type.Object(
  {
    playerId: Type.String({ minLength: 1 }),
    /** The previous page's `next`: a service answers what it holds in pages, each within a NATS message. */
    after: Type.Optional(PersonalDataCursorSchema),
  },
  { additionalProperties: false },
);
/** One table's rows about the player, whole but for the columns the catalogue calls internal. */
export const PersonalDataTableSchema = Type.Object({
  table: Type.String(),
  category: Type.String(),
  /** Columns of another category than the table's. */
  columns: Type.Record(Type.String(), Type.String()),
  rows: Type.Array(Type.Record(Type.String(), Type.Unknown())),
});
export type PersonalDataTable = Static<typeof PersonalDataTableSchema>;
export const PersonalDataExportSchema = Type.Object({
  service: Type.String(),
  tables: Type.Array(PersonalDataTableSchema),
  /** Where the next page starts; absent or null on the last page. */
  next: Type.Optional(Nullable(PersonalDataCursorSchema)),
});
export type PersonalDataExport = Static<typeof PersonalDataExportSchema>;

export const AnonymiseSchema = Type.Object(
  {
    playerId: Type.String({ minLength: 1 }),
    categories: Type.Array(Type.String(), { minItems: 1 }),
    /** Only what was collected before this time, in the tables that say when (a retention counted from collection). */
    collectedBefore: Type.Optional(Timestamp),
  },
  { additionalProperties: false },
);
export type Anonymise = Static<typeof AnonymiseSchema>;
/** Rows changed per table (0 when anonymised before: the message is idempotent). */
export const AnonymisedSchema = Type.Object({ service: Type.String(), rows: Type.Record(Type.String(), Type.Integer()) });
export type Anonymised = Static<typeof AnonymisedSchema>;

/** The services that hold personal data about a player, each answering these two messages. */
export const PERSONAL_DATA_SERVICES = ['players', 'wallet', 'payments', 'compliance', 'operators', 'webhooks'] as const;

export function personalDataMessages(service: string) {
  return {
    export: { subject: `${service}.personalData.export`, body: PersonalDataOfSchema, reply: PersonalDataExportSchema },
    anonymise: { subject: `${service}.personalData.anonymise`, body: AnonymiseSchema, reply: AnonymisedSchema },
  } satisfies Record<string, MessageDefinition>;
}
