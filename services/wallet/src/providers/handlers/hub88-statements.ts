// Issue #59 item 2 (docs/connectors-hub88.md, "Reconciliation: the Transactions API"; docs/money.md,
// "Reconciliation with a provider"): our team asks a Hub88 provider's Transactions API for a day's
// transactions, as our key pair signs every Games API call, and reconciles the day with them as an
// uploaded statement is reconciled (the same lines, the same matching, the same reconciled day).
// The day is the statement mapping's (its time zone), UTC without a mapping. Hub88 is asked before
// the transaction; the statement, the reconciliation and the audit row are written in one.
import { AppError, hub88GamesApi, hub88PrivateKey, newId, providerMoneyAdminOperations, validationError, type Hub88Settings } from '@bo/contracts';
import { adminScopeOf, handle, openSecret, ruleClock, type Handler } from '@bo/service-kit';
import { hub88Lines, hub88Time, hub88TimeText } from '../domain/hub88-statements.ts';
import { addOddDifferences, dayBounds, markFetchedStatement, ourTransactionsById } from '../store/hub88-statements.ts';
import { connectorSettings, ourSigningKey } from '../store/connectors.ts';
import { lockStatementDay, mappingOf, reconcileDay, reconciledDay, recordStatementPart } from '../store/provider-money.ts';
import { findProvider } from '../store/registry.ts';
import { auditedChanges } from './audited.ts';
import type { ProvidersContext } from './context.ts';

/** How long Hub88's Transactions API may take to list a day. */
const TRANSACTIONS_API_TIMEOUT_MS = 30_000;

export function hub88StatementHandlers(ctx: ProvidersContext): Record<string, Handler> {
  const { sql, config } = ctx.deps;
  const audited = auditedChanges(ctx);
  return handle(providerMoneyAdminOperations.adminFetchProviderStatement, async (req) => {
    const scope = adminScopeOf(req);
    const p = await findProvider(sql, req.params.id);
    if (!p) throw new AppError('PROVIDER_NOT_FOUND');
    if (p.protocol !== 'hub88')
      throw validationError('path', [
        { path: '/id', message: `A ${p.protocol} provider has no transactions API we call: upload its statement (POST /admin/providers/{id}/statements).` },
      ]);
    const { date } = req.body;
    const environment = req.body.environment ?? 'production';
    const settings = (await connectorSettings(sql, p.id)).find((s) => s.environment === environment)?.settings as Hub88Settings | undefined;
    const ours = await ourSigningKey(sql, p.id, environment);
    if (!settings || !ours)
      throw new AppError('VALIDATION_ERROR', 'The connector needs its settings and a key pair of ours in force for this environment first.', {
        in: 'body',
        issues: [{ path: '/environment', message: 'has no settings or no key of ours in force' }],
      });
    const timeZone = (await mappingOf(sql, p.id))?.timeZone ?? 'UTC';
    const { from, to } = await dayBounds(sql, date, timeZone);
    const api = hub88GamesApi({
      baseUrl: settings.apiBaseUrl,
      operatorId: settings.operatorId,
      privateKey: hub88PrivateKey(openSecret(ours.privateKeySealed, config.SECRETS_MASTER_KEY)),
      timeoutMs: TRANSACTIONS_API_TIMEOUT_MS,
    });
    const listed = await api.transactionsList({ operator_id: settings.operatorId, start_time: hub88TimeText(from), end_time: hub88TimeText(to) });
    if (!listed.ok) throw new AppError('PROVIDER_UNAVAILABLE', `Hub88's transactions could not be read: ${listed.reason}.`, { provider: p.name });
    // The day's items only: one Hub88 dates outside [from, to) (its end_time may be inclusive) is another day's.
    const items = listed.value.filter((i) => {
      const at = hub88Time(i.inserted_at);
      return at === undefined || (at >= from && at < to);
    });
    const known = await ourTransactionsById(
      sql,
      p.id,
      environment,
      items.map((i) => i.transaction_uuid),
    );
    const { lines, odd, declinedUnknown } = hub88Lines(items, known);
    const result = await audited(req, 'adminFetchProviderStatement', async (tx) => {
      await lockStatementDay(tx, p.id, environment, date);
      const before = await reconciledDay(tx, p.id, environment, date);
      const statementId = newId('providerStatement');
      await recordStatementPart(tx, {
        id: statementId,
        providerId: p.id,
        environment,
        date,
        part: 1,
        format: 'json',
        uploadedBy: scope.personId ?? scope.actor,
        lines,
      });
      await markFetchedStatement(tx, statementId, p.id, environment, date);
      const reconciled = await addOddDifferences(tx, await reconcileDay(tx, p.id, environment, date, timeZone, ruleClock.now()), odd);
      return {
        answer: reconciled,
        audit: {
          target: p.id,
          before: before?.day ?? null,
          after: { source: 'hub88', items: items.length, lines: lines.length, odd: odd.length, declinedUnknown, day: reconciled.day },
        },
      };
    });
    return { status: 200, body: result };
  });
}
