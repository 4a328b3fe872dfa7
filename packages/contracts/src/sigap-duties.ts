// SIGAP duties beyond the daily files (issue #60 item 4; docs/aml.md, "SIGAP files"): the operator's
// CNPJ, which every SIGAP file of its brands carries (our team registers it: a production brand's
// files are not made without it), and a brand's monthly report, which the SIGAP manual asks for
// besides the daily files ("files are sent daily, except the operators' monthly report", as quoted
// publicly). Its layout is OUR assumption, like the daily files' (the manual's data model, its XSD,
// is not public): services/compliance/src/sigap/layout.ts, the one module to change once it is.
import { Type, type Static } from '@sinclair/typebox';
import { EnvironmentSchema, Nullable, Timestamp } from './common.ts';
import { defineOperations } from './operations.ts';

const OperatorParams = Type.Object({ operatorId: Type.String({ minLength: 1, maxLength: 64 }) });
const MonthParams = Type.Object({
  brandId: Type.String({ minLength: 1, maxLength: 64 }),
  month: Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: "YYYY-MM, a calendar month in the brand's time zone" }),
});

/** The operator's registration the SIGAP files carry (null fields: none registered yet). */
export const SigapOperatorSchema = Type.Object(
  {
    operatorId: Type.String(),
    /** 14 digits, check digits verified; null: not registered (a production brand's SIGAP files are not made). */
    cnpj: Nullable(Type.String()),
    reason: Nullable(Type.String()),
    setBy: Nullable(Type.String()),
    setAt: Nullable(Timestamp),
  },
  { $id: 'SigapOperator' },
);
export type SigapOperator = Static<typeof SigapOperatorSchema>;

/** One currency's figures of a brand's month, summed from the month's daily files (each tying to the ledger). */
export const SigapMonthlyTotalsSchema = Type.Object({
  currency: Type.String(),
  /** Accounts with a movement or a balance in the month (distinct players). */
  accounts: Type.Integer(),
  deposits: Type.String(),
  withdrawals: Type.String(),
  stakes: Type.String(),
  prizes: Type.String(),
  otherMovements: Type.String(),
  /** Stakes less prizes and other movements; the legal destinations' share of it when positive. */
  ggr: Type.String(),
  legalDestinationsRate: Type.String(),
  legalDestinationsShare: Type.String(),
  /** Balances held for the bettors as the month closed. */
  closingBalances: Type.String(),
});

/** A kept monthly report (every version kept), with its content exactly as kept. */
export const SigapMonthlyReportSchema = Type.Object(
  {
    brandId: Type.String(),
    month: Type.String(),
    version: Type.Integer({ minimum: 1 }),
    operatorId: Type.String(),
    environment: Nullable(EnvironmentSchema),
    operatorCnpj: Nullable(Type.String()),
    madeBy: Type.String(),
    madeAt: Timestamp,
    /** SHA-256 of `content`, hex. */
    checksum: Type.String(),
    /** The daily files it was summed from (one per day of the month). */
    days: Type.Integer(),
    totals: Type.Array(SigapMonthlyTotalsSchema),
    /** The file as kept (JSON text, the assumed layout): what `checksum` is the hash of. */
    content: Type.String(),
  },
  { $id: 'SigapMonthlyReport' },
);
export type SigapMonthlyReport = Static<typeof SigapMonthlyReportSchema>;

export const sigapDutiesOperations = defineOperations({
  adminGetSigapOperator: {
    id: 'adminGetSigapOperator',
    method: 'GET',
    path: '/admin/reports/sigap/operators/:operatorId',
    subject: 'compliance.admin.sigap.operator.get',
    tag: 'Admin',
    summary: "The operator's CNPJ every SIGAP file of its brands carries (null when not registered yet)",
    params: OperatorParams,
    response: SigapOperatorSchema,
    status: 200,
  },
  adminSetSigapOperator: {
    id: 'adminSetSigapOperator',
    method: 'PUT',
    path: '/admin/reports/sigap/operators/:operatorId',
    subject: 'compliance.admin.sigap.operator.set',
    tag: 'Admin',
    summary: "Register or correct the operator's CNPJ (check digits verified), with the reason; files made from then on carry it",
    params: OperatorParams,
    body: Type.Object({
      cnpj: Type.String({ minLength: 14, maxLength: 18, pattern: '^[0-9./-]+$', description: 'CNPJ, with or without punctuation' }),
      reason: Type.String({ minLength: 3, maxLength: 500, pattern: '\\S' }),
    }),
    response: SigapOperatorSchema,
    status: 200,
  },
  adminGetSigapMonthlyReport: {
    id: 'adminGetSigapMonthlyReport',
    method: 'GET',
    path: '/admin/reports/sigap/monthly/:brandId/:month',
    subject: 'compliance.admin.sigap.monthly.get',
    tag: 'Admin',
    summary: "A brand's monthly SIGAP reports of a month as kept, newest version first (none: an empty list)",
    params: MonthParams,
    response: Type.Object({ brandId: Type.String(), month: Type.String(), versions: Type.Array(SigapMonthlyReportSchema) }),
    status: 200,
  },
  adminMakeSigapMonthlyReport: {
    id: 'adminMakeSigapMonthlyReport',
    method: 'POST',
    path: '/admin/reports/sigap/monthly/:brandId/:month',
    subject: 'compliance.admin.sigap.monthly.make',
    tag: 'Admin',
    summary:
      "Make a brand's monthly SIGAP report of a month that is over, from its daily files (each made if it was not, and each must tie), and keep it (a new version each time)",
    params: MonthParams,
    response: SigapMonthlyReportSchema,
    status: 201,
    // Every day's daily file is read (and made when it was not).
    timeoutMs: 120_000,
    errors: ['BRAND_NOT_FOUND'],
  },
});
