// Issue #59 items 2 and 3 (docs/money.md): our team's side (revenue shares, the month statement in
// JSON and CSV, statement mappings, statements ingested and reconciled, reconciled days) and the
// provider's reads of its transactions with us (by id, by round, by time range) on /provider/v1.
import {
  AppError,
  COMPLIANCE_DEFAULTS,
  complianceProfileMessages,
  newId,
  PROVIDER_MONTH_CSV_COLUMNS,
  PROVIDER_READ_MAX_DAYS,
  providerMoneyAdminOperations,
  providerOperations,
  validationError,
  type OperatorCompliance,
  type ProviderMonthBrand,
  type ProviderMonthStatement,
  type ProviderTransactionRecord,
} from '@bo/contracts';
import { adminScopeOf, handle, listCursor, providerScopeOf, ruleClock, type Handler } from '@bo/service-kit';
import { readStatement } from '../domain/statements.ts';
import {
  amountsDue,
  insertRevenueShare,
  lockStatementDay,
  mappingOf,
  monthFigures,
  providerBrands,
  putMapping,
  reconcileDay,
  reconciledDay,
  reconciledDays,
  recordsBetween,
  recordStatementPart,
  revenueShares,
  roundRecords,
  shareOfMonth,
  transactionRecord,
  zonedMonthBounds,
  type TransactionRecordRow,
} from '../store/provider-money.ts';
import { findProvider } from '../store/registry.ts';
import { auditedChanges } from './audited.ts';
import type { ProvidersContext } from './context.ts';

const Ops = providerMoneyAdminOperations;
const DAY_MS = 86_400_000;

/** A record as the provider reads it (our row id is ours). */
const record = ({ id: _id, ...r }: TransactionRecordRow): ProviderTransactionRecord => r as ProviderTransactionRecord;

const csvField = (v: string | number | boolean | null) => {
  const s = v === null ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** The statement as CSV: a header, then a line per brand and currency (PROVIDER_MONTH_CSV_COLUMNS). */
export function monthCsv(s: ProviderMonthStatement): string {
  const lines = s.brands.map((b) =>
    [
      s.providerId,
      s.month,
      b.brandId,
      b.currency,
      b.timeZone,
      ...(['bets', 'wins', 'rollbacks', 'corrections', 'freeBets', 'freeBetWins', 'promoCredits', 'jackpotContributions', 'jackpotWins'] as const).flatMap(
        (k) => [b[k].count, b[k].amount],
      ),
      b.ggr,
      b.netGgr,
      b.sharePercent,
      b.revenueShare,
      b.providerFundedCredits,
      b.amountDue,
      b.ledgerNet,
      b.ties,
    ]
      .map(csvField)
      .join(','),
  );
  return `${[PROVIDER_MONTH_CSV_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}

export function providerMoneyHandlers(ctx: ProvidersContext): Record<string, Handler> {
  const { deps } = ctx;
  const sql = deps.sql;
  const audited = auditedChanges(ctx);
  const cursors = listCursor(deps.config.LEDGER_CURSOR_SECRET, 'wallet.provider.transactions');
  const provider = async (id: string) => {
    const p = await findProvider(sql, id);
    if (!p) throw new AppError('PROVIDER_NOT_FOUND');
    return p;
  };

  const statement = async (providerId: string, month: string, brandId?: string): Promise<ProviderMonthStatement> => {
    const p = await provider(providerId);
    const share = await shareOfMonth(sql, p.id, month);
    const zones = new Map<string, Promise<string>>();
    const zoneOf = (operatorId: string | null) => {
      if (operatorId === null) return Promise.resolve(COMPLIANCE_DEFAULTS.timeZone);
      let zone = zones.get(operatorId);
      if (!zone) {
        zone = deps.call<OperatorCompliance>(complianceProfileMessages.get.subject, { operatorId }).then((c) => c.timeZone);
        zones.set(operatorId, zone);
      }
      return zone;
    };
    const brands: ProviderMonthBrand[] = [];
    for (const b of await providerBrands(sql, p.id)) {
      if (brandId && b.brandId !== brandId) continue;
      const timeZone = await zoneOf(b.operatorId);
      const { from, to } = await zonedMonthBounds(sql, month, timeZone);
      const f = await monthFigures(sql, p.id, b.brandId, b.currency, from, to);
      const { ledgerNet, ledgerEntries, ...figures } = f;
      brands.push({ brandId: b.brandId, currency: b.currency, timeZone, from, to, ...figures, ...amountsDue(f, share), ledgerNet, ledgerEntries });
    }
    return { providerId: p.id, providerName: p.name, month, brands, ties: brands.every((b) => b.ties) };
  };

  return {
    ...handle(Ops.adminSetProviderRevenueShare, async (req) => {
      const p = await provider(req.params.id);
      const scope = adminScopeOf(req);
      const share = await audited(req, 'adminSetProviderRevenueShare', async (tx) => {
        const before = (await revenueShares(tx, p.id))[0] ?? null;
        const after = await insertRevenueShare(tx, {
          id: newId('providerRevenueShare'),
          providerId: p.id,
          effectiveFrom: req.body.effectiveFrom,
          sharePercent: req.body.sharePercent,
          reason: req.body.reason,
          setBy: scope.personId ?? scope.actor,
        });
        return { answer: after, audit: { target: p.id, before, after } };
      });
      return { status: 201, body: share };
    }),
    ...handle(Ops.adminListProviderRevenueShares, async (req) => {
      adminScopeOf(req);
      const p = await provider(req.params.id);
      return { status: 200, body: { data: await revenueShares(sql, p.id) } };
    }),
    ...handle(Ops.adminProviderMonthStatement, async (req) => {
      adminScopeOf(req);
      return { status: 200, body: await statement(req.params.id, req.params.month, req.query.brandId) };
    }),
    ...handle(Ops.adminProviderMonthStatementCsv, async (req) => {
      adminScopeOf(req);
      const s = await statement(req.params.id, req.params.month, req.query.brandId);
      return {
        status: 200,
        body: { filename: `provider-${s.providerId}-${s.month}.csv`, contentType: 'text/csv; charset=utf-8', chunk: monthCsv(s), nextCursor: null },
      };
    }),
    ...handle(Ops.adminPutProviderStatementMapping, async (req) => {
      const p = await provider(req.params.id);
      const m = req.body;
      if (m.fields.status !== undefined && !m.statuses) throw validationError('body', [{ path: '/statuses', message: 'is required with fields.status' }]);
      try {
        new Intl.DateTimeFormat('en', { timeZone: m.timeZone });
      } catch {
        throw validationError('body', [{ path: '/timeZone', message: 'is not an IANA time zone' }]);
      }
      const saved = await audited(req, 'adminPutProviderStatementMapping', async (tx) => ({
        answer: m,
        audit: { target: p.id, before: await putMapping(tx, p.id, m), after: m },
      }));
      return { status: 200, body: saved };
    }),
    ...handle(Ops.adminUploadProviderStatement, async (req) => {
      const scope = adminScopeOf(req);
      const p = await provider(req.params.id);
      const mapping = await mappingOf(sql, p.id);
      if (!mapping) throw validationError('body', [{ path: '/content', message: 'the provider has no statement mapping yet (PUT …/statement-mapping)' }]);
      const lines = readStatement(mapping, req.body.content);
      const environment = req.body.environment ?? 'production';
      // Audited like every admin change (issue #56): the day's reconciliation it produced, not the lines.
      const result = await audited(req, 'adminUploadProviderStatement', async (tx) => {
        // One reconciliation of a provider's day at a time (a part uploaded meanwhile waits for it).
        await lockStatementDay(tx, p.id, environment, req.body.date);
        const before = await reconciledDay(tx, p.id, environment, req.body.date);
        await recordStatementPart(tx, {
          id: newId('providerStatement'),
          providerId: p.id,
          environment,
          date: req.body.date,
          part: req.body.part ?? 1,
          format: mapping.format,
          uploadedBy: scope.personId ?? scope.actor,
          lines,
        });
        const reconciled = await reconcileDay(tx, p.id, environment, req.body.date, mapping.timeZone, ruleClock.now());
        return {
          answer: reconciled,
          audit: {
            target: p.id,
            before: before?.day ?? null,
            after: { part: req.body.part ?? 1, lines: lines.length, day: reconciled.day },
          },
        };
      });
      return { status: 200, body: result };
    }),
    ...handle(Ops.adminListProviderReconciliations, async (req) => {
      adminScopeOf(req);
      const p = await provider(req.params.id);
      const { from, to } = req.query;
      const span = (Date.parse(to) - Date.parse(from)) / DAY_MS;
      if (!(span >= 0 && span <= 92)) throw validationError('query', [{ path: '/to', message: 'must be from 0 to 92 days after from' }]);
      return { status: 200, body: { data: await reconciledDays(sql, p.id, req.query.environment ?? 'production', from, to) } };
    }),
    ...handle(Ops.adminProviderReconciliationDay, async (req) => {
      adminScopeOf(req);
      const p = await provider(req.params.id);
      const day = await reconciledDay(sql, p.id, req.query.environment ?? 'production', req.params.date);
      if (!day) throw new AppError('RECONCILIATION_NOT_FOUND', undefined, { date: req.params.date });
      return { status: 200, body: day };
    }),
    // The provider's reads (/provider/v1): its own transactions in its key's environment.
    ...handle(providerOperations.providerGetTransaction, async (req) => {
      const scope = providerScopeOf(req);
      const r = await transactionRecord(sql, scope.providerId, scope.environment, req.params.transactionId);
      if (!r) throw new AppError('TRANSACTION_NOT_FOUND', undefined, { transactionId: req.params.transactionId });
      return { status: 200, body: record(r) };
    }),
    ...handle(providerOperations.providerRoundTransactions, async (req) => {
      const scope = providerScopeOf(req);
      const rows = await roundRecords(sql, scope.providerId, scope.environment, req.params.roundId);
      if (rows.length === 0) throw new AppError('ROUND_NOT_FOUND', undefined, { roundId: req.params.roundId });
      return { status: 200, body: { data: rows.map(record) } };
    }),
    ...handle(providerOperations.providerListTransactions, async (req) => {
      const scope = providerScopeOf(req);
      const { from, to } = req.query;
      const span = (Date.parse(to) - Date.parse(from)) / DAY_MS;
      if (!(span > 0 && span <= PROVIDER_READ_MAX_DAYS))
        throw validationError('query', [{ path: '/to', message: `must be after from, at most ${PROVIDER_READ_MAX_DAYS} days` }]);
      const limit = req.query.limit ?? 200;
      const owner = [scope.providerId, scope.environment, from, to];
      const after = req.query.cursor !== undefined ? cursors.decode(owner, req.query.cursor) : undefined;
      const rows = await recordsBetween(sql, scope.providerId, scope.environment, new Date(from).toISOString(), new Date(to).toISOString(), limit + 1, after);
      return {
        status: 200,
        body: cursors.page(owner, rows, limit, record, (r) => ({ at: r.createdAt, id: r.id })),
      };
    }),
  };
}
