// A player's data request under the LGPD (issue #69 item 1; docs/privacy.md), filed by the operator:
// POST /players/{playerId}/data-requests (idempotent). A correction changes the registration the way
// the PATCH does and a deletion withdraws the marketing consent and anonymises the connection data
// past their months, each in the transaction that files it; access and portability gather every
// service's data after the commit (the privacy loop tries again when a service does not answer).
import { AppError, validationError, type DataRequest, type dataRequestAdminOperations, type dataRequestOperations } from '@bo/contracts';
import {
  adminScopeOf,
  anonymiseIn,
  operatorScopeOf,
  ormTransactor,
  requestKeyOf,
  ruleClock,
  runOnce,
  sqlIn,
  type HandlerOf,
  type ServiceDeps,
} from '@bo/service-kit';
import { changeMarketingConsent } from '../../marketing/index.ts';
import { applyRegistrationChanges, announceRegistration, registrationMissingOf } from '../../players/index.ts';
import { lockPlayer, requirePlayer } from '../../store/index.ts';
import { playersPersonalData } from '../store/catalogue.ts';
import { collectedBefore, deletionPlan } from '../domain/retention.ts';
import { answerWithFile } from '../flows/answer.ts';
import {
  adminDataRequests,
  answerDataRequest,
  dataRequestFileChunk,
  dataRequestOf,
  dataRequestsOfPlayer,
  insertDataRequest,
  toDataRequest,
  type DataRequestRow,
} from '../store/data-requests.ts';
import { retentionFacts } from '../store/player-facts.ts';

export function fileDataRequest(deps: ServiceDeps): HandlerOf<typeof dataRequestOperations.fileDataRequest> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const { type, corrections, reference } = req.body;
    if (type === 'correction' && corrections === undefined)
      throw validationError('body', [{ path: '/corrections', message: 'required for a correction' }], 'A correction names the fields to correct.');
    if (type !== 'correction' && corrections !== undefined)
      throw validationError('body', [{ path: '/corrections', message: `not taken by ${type}` }], 'Only a correction names fields to correct.');
    const filed = await runOnce(ormTransactor(deps.orm.em), deps.schema, requestKeyOf(req.ctx), 'players.dataRequests.file', async (tx) => {
      const player = await lockPlayer(tx, { id: req.params.playerId, brandId: scope.brandId });
      const now = ruleClock.now();
      const sql = sqlIn(tx);
      const author = { by: 'operator' as const, actor: `operator:${scope.operatorId}`, requestId: req.ctx.requestId };
      const row = await insertDataRequest(sql, {
        operatorId: scope.operatorId,
        brandId: scope.brandId,
        environment: scope.environment,
        playerId: player.id,
        type,
        reference: reference ?? null,
        corrections: corrections ?? null,
        requestId: req.ctx.requestId,
        now,
      });
      if (type === 'correction') {
        const corrected = applyRegistrationChanges(tx, player, corrections!, author, now);
        await tx.flush();
        const missing = await registrationMissingOf(tx, player, now);
        if (missing) await announceRegistration(tx, deps, player, missing);
        await answerDataRequest(sql, row.id, { status: 'answered', answer: { corrected }, file: null, at: now });
      } else if (type === 'deletion') {
        // What only consent keeps goes now (through the marketing path: kept, suppressed, told), and
        // the connection data past its months; the rest is refused with its duty and its end.
        if (player.marketingConsent) await changeMarketingConsent(tx, deps, player, false, author, now);
        const before = collectedBefore('connection', now);
        await anonymiseIn(sql, playersPersonalData, player.id, ['connection'], before);
        const facts = await retentionFacts(sql, player.id, before);
        const plan = deletionPlan(facts.closedAt, facts.youngestKeptConnection);
        await answerDataRequest(sql, row.id, { status: 'partly_refused', answer: { anonymised: plan.anonymised, kept: plan.kept }, file: null, at: now });
      }
      return { status: 201, body: toDataRequest((await dataRequestOf(sql, row.id))!) };
    });
    const request = filed.body as DataRequest;
    if (filed.replayed || filed.status !== 201 || (request.type !== 'access' && request.type !== 'portability') || request.status !== 'received') return filed;
    // After the commit: the file, unless a service does not answer (the loop tries again).
    try {
      const row = await dataRequestOf(deps.sql, request.id);
      if (row?.status === 'received') await answerWithFile(deps, row);
    } catch (e) {
      deps.log.warn({ err: e, dataRequest: request.id }, 'data request not answered yet: the privacy loop tries again');
    }
    return { status: 201, body: toDataRequest((await dataRequestOf(deps.sql, request.id))!) };
  };
}

export function listDataRequests(deps: ServiceDeps): HandlerOf<typeof dataRequestOperations.listDataRequests> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const player = await requirePlayer(deps.orm.em.fork(), { id: req.params.playerId, brandId: scope.brandId });
    return { status: 200, body: { data: (await dataRequestsOfPlayer(deps.sql, player.id)).map(toDataRequest) } };
  };
}

async function requestOfPlayer(deps: ServiceDeps, brandId: string, playerId: string, requestId: string) {
  const player = await requirePlayer(deps.orm.em.fork(), { id: playerId, brandId });
  const row = await dataRequestOf(deps.sql, requestId, player.id);
  if (!row) throw new AppError('DATA_REQUEST_NOT_FOUND');
  return row;
}

export function getDataRequest(deps: ServiceDeps): HandlerOf<typeof dataRequestOperations.getDataRequest> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    return { status: 200, body: toDataRequest(await requestOfPlayer(deps, scope.brandId, req.params.playerId, req.params.requestId)) };
  };
}

/**
 * Characters of the file per chunk (code points, as Postgres counts them): with JSON's escaping and
 * two bytes of UTF-8 for an accented letter, well inside one NATS message.
 */
const FILE_CHUNK_CHARS = 100_000;

/** One chunk of an answered request's file from the caller's cursor (the operator's read and our team's alike). */
async function fileChunkOf(deps: ServiceDeps, row: DataRequestRow, cursor: string | undefined) {
  const start = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isSafeInteger(start) || start < 0 || start > 2 ** 31 - 1)
    throw validationError('query', [{ path: '/cursor', message: 'must be a cursor of this download' }]);
  const piece = row.status === 'answered' ? await dataRequestFileChunk(deps.sql, row.id, start, FILE_CHUNK_CHARS) : null;
  if (piece === null) throw new AppError('DATA_REQUEST_NO_FILE', undefined, { type: row.type, status: row.status });
  if (start > piece.length) throw validationError('query', [{ path: '/cursor', message: 'must be a cursor of this download' }]);
  // In code points, as substr counted them (a JS string's length counts a character outside the BMP twice).
  const end = Math.min(start + FILE_CHUNK_CHARS, piece.length);
  return {
    status: 200 as const,
    body: {
      filename: `personal-data-${row.id}.json`,
      contentType: 'application/json; charset=utf-8',
      chunk: piece.chunk,
      nextCursor: end < piece.length ? String(end) : null,
    },
  };
}

export function getDataRequestFile(deps: ServiceDeps): HandlerOf<typeof dataRequestOperations.getDataRequestFile> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const row = await requestOfPlayer(deps, scope.brandId, req.params.playerId, req.params.requestId);
    return fileChunkOf(deps, row, req.query.cursor);
  };
}

/** The same file for our team (compliance answers for the operator; the gateway records the read). */
export function adminGetDataRequestFile(deps: ServiceDeps): HandlerOf<typeof dataRequestAdminOperations.adminGetDataRequestFile> {
  return async (req) => {
    adminScopeOf(req);
    const row = await dataRequestOf(deps.sql, req.params.requestId, req.params.playerId);
    if (!row) throw new AppError('DATA_REQUEST_NOT_FOUND');
    return fileChunkOf(deps, row, req.query.cursor);
  };
}

export function adminListDataRequests(deps: ServiceDeps): HandlerOf<typeof dataRequestAdminOperations.adminListDataRequests> {
  return async (req) => {
    adminScopeOf(req);
    const now = ruleClock.now();
    const rows = await adminDataRequests(deps.sql, req.query, now);
    return {
      status: 200,
      body: {
        data: rows.map((r) => {
          const { answer: _answer, corrections: _corrections, ...view } = toDataRequest(r);
          return { ...view, operatorId: r.operator_id, brandId: r.brand_id, overdue: r.status === 'received' && new Date(r.due_at) < now };
        }),
      },
    };
  };
}
