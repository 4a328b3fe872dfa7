// Our compliance team and integrity holds (issue #60 item 3; docs/games.md, "Integrity holds"):
// a person places a hold on a sports slip with the reason (and the evidence); another person
// releases the prize to the player or forfeits it, with a reason (four eyes: FOUR_EYES_REQUIRED for
// the one who placed it). Each change and its audit row commit in one transaction (the kit's
// writeDecisionAudit: one row whatever is lost after the commit); the export lists the held slips
// by event with the evidence and the articles, for the SPA and the sports bodies.
import { AppError, type integrityAdminOperations } from '@bo/contracts';
import { adminScopeOf, deciderOf, decisionAuthorOf, listCursor, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { WalletConfig } from '../../config.ts';
import { ensureClearingAccount } from '../../ledger/index.ts';
import { decideHold, EXPORT_MAX_LINES, findHold, holdPosition, listHolds, placeHold, suspiciousLines, toIntegrityHold, type Decision } from '../store/holds.ts';
import { suspiciousBettingFile } from '../domain/export.ts';

type Ops = typeof integrityAdminOperations;

/** An export covers at most a year of holds. */
const MAX_EXPORT_DAYS = 366;

export function adminIntegrityHandlers(deps: ServiceDeps<WalletConfig>) {
  const cursors = listCursor(deps.config.LEDGER_CURSOR_SECRET, 'wallet.integrity_holds');

  const place: HandlerOf<Ops['adminPlaceIntegrityHold']> = async (req) => {
    const scope = adminScopeOf(req);
    const { providerId, roundId, reason, evidence } = req.body;
    const hold = await deps.sql.transaction(async (tx) => {
      const row = await placeHold(tx, { providerId, roundId, reason, evidence, placedBy: scope.actor, placedById: deciderOf(scope) });
      const view = toIntegrityHold(row);
      await writeDecisionAudit(tx, deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminPlaceIntegrityHold',
        target: `integrity-hold:${row.id}`,
        before: null,
        after: view,
      });
      return view;
    });
    deps.outbox.poke();
    return { status: 201, body: hold };
  };

  const list: HandlerOf<Ops['adminListIntegrityHolds']> = async (req) => {
    adminScopeOf(req);
    const { status, brandId, playerId } = req.query;
    const scope = [status ?? '', brandId ?? '', playerId ?? ''];
    const limit = req.query.limit ?? 50;
    const after = req.query.cursor !== undefined ? cursors.decode(scope, req.query.cursor) : undefined;
    const rows = await listHolds(deps.sql, { status, brandId, playerId }, limit, after);
    return { status: 200, body: cursors.page(scope, rows, limit, toIntegrityHold, holdPosition) };
  };

  type DecisionRequest = Parameters<HandlerOf<Ops['adminReleaseIntegrityHold']>>[0] | Parameters<HandlerOf<Ops['adminForfeitIntegrityHold']>>[0];
  const decide = async (req: DecisionRequest, decision: Decision, action: string) => {
    const scope = adminScopeOf(req);
    const found = await findHold(deps.sql, req.params.id);
    if (!found) throw new AppError('INTEGRITY_HOLD_NOT_FOUND');
    // The brand's accounts of the move, ensured before the transaction (committed statements of their own).
    await ensureClearingAccount(deps.sql, found.brandId, 'integrity_hold', found.currency);
    if (decision === 'forfeited') await ensureClearingAccount(deps.sql, found.brandId, 'integrity_forfeited', found.currency);
    const done = await deps.sql.transaction(async (tx) => {
      const r = await decideHold(tx, found.id, { decision, reason: req.body.reason, decidedBy: scope.actor, decidedById: deciderOf(scope) });
      if (!r.repeated) {
        await writeDecisionAudit(tx, deps.schema, decisionAuthorOf(scope, req.ctx), {
          action,
          target: `integrity-hold:${found.id}`,
          before: toIntegrityHold(r.before),
          after: toIntegrityHold(r.after),
        });
      }
      return r;
    });
    // The audit row and the slip's `sports_bet.settled` event wait in the outbox.
    if (!done.repeated) deps.outbox.poke();
    return { status: 200 as const, body: toIntegrityHold(done.after) };
  };
  const release: HandlerOf<Ops['adminReleaseIntegrityHold']> = (req) => decide(req, 'released', 'adminReleaseIntegrityHold');
  const forfeit: HandlerOf<Ops['adminForfeitIntegrityHold']> = (req) => decide(req, 'forfeited', 'adminForfeitIntegrityHold');

  const exportFile: HandlerOf<Ops['adminSuspiciousBettingExport']> = async (req) => {
    adminScopeOf(req);
    const from = new Date(req.query.from);
    const to = new Date(req.query.to);
    if (!(from.getTime() < to.getTime()) || to.getTime() - from.getTime() > MAX_EXPORT_DAYS * 86_400_000) {
      throw new AppError('VALIDATION_ERROR', `from must be before to, at most ${MAX_EXPORT_DAYS} days apart.`, {
        in: 'query',
        issues: [{ path: '/to', message: `must be after from, at most ${MAX_EXPORT_DAYS} days later` }],
      });
    }
    const lines = await suspiciousLines(deps.sql, { from, to, brandId: req.query.brandId });
    if (lines.length > EXPORT_MAX_LINES) {
      throw new AppError('VALIDATION_ERROR', `More than ${EXPORT_MAX_LINES} lines: narrow the range (or name a brand).`, {
        in: 'query',
        issues: [{ path: '/from', message: `the range holds more than ${EXPORT_MAX_LINES} lines` }],
      });
    }
    return { status: 200, body: suspiciousBettingFile(lines, { from, to, format: req.query.format ?? 'json' }) };
  };

  return {
    place,
    list,
    release,
    forfeit,
    exportFile,
  };
}
