// The admin API of our own team (docs/decisions.md), on its own port with a bearer token or a
// console session. Every operation is forwarded to the owning service (operators, keys, our team
// and the audit log: the operators service). A decision is a person's (roles.ts). Every change,
// decision or not, is audited by the service that makes it, in the change's transaction: the
// gateway writes no audit row.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { AppError, adminOperations, validationError, type AdminIdentity, type Operation, type PersonalDataField, type RequestContext } from '@bo/contracts';
import { safeEqual } from '@bo/service-kit/edge';
import { forwarder, registerOperations, type ForwardDeps } from '../edge/operations.ts';
import { jsonObjectBody } from '@bo/http-kit';
import {
  claimIdempotencyKey,
  idempotencyKeyOf,
  idempotencyRecorder,
  releaseIdempotencyKey,
  type EdgeIdempotency,
} from '../edge/idempotency/http-idempotency.ts';
import type { ClaimedKey } from '../edge/idempotency/keys-in-flight.ts';
import type { OperatorsClient } from '../edge/operators-client.ts';
import { isOwnTokenOperation, isPersonDecision, isReadOnlyRole, needsConfirmedPerson, needsOwnSession, roleMayCall } from '../team/roles.ts';
import { fileDownloader } from '../edge/file-download.ts';
import { fileReads, maskPersonalData, parseReveal, readsToRecord, type PersonalDataRead } from './personal-data.ts';
import { checkCsrf, sessionTokenOf } from '@bo/console';

export interface AdminRouteDeps extends ForwardDeps {
  /** The bootstrap credential with every right (ADMIN_TOKEN). */
  rootToken: string;
  /**
   * Outside production, ADMIN_TOKEN with `X-Admin-Actor` stands for a stand-in person the header
   * labels (a convenience for tests and the sandbox; a label never names a team member); in
   * production it is nobody, refused on decisions.
   */
  rootActsForClaimedPerson: boolean;
  operators: OperatorsClient;
  idempotency: EdgeIdempotency;
  /** A change the operators service made to an operator: this replica drops it now (the broadcast does too). */
  onOperatorChanged(operatorId: string): void;
}

/** Admin keys are claimed beside operators' keys, under an owner no operator can have (the services keep them under the scope `admin`). */
const ADMIN_IDEMPOTENCY_OWNER = { operatorId: 'admin', environment: 'admin' };

/** Who the audit log names: the signed-in person or personal token's (`user:<email>`), a named token's name, or `admin`. */
function actorOf(req: FastifyRequest): string {
  return req.adminIdentity?.actor ?? 'admin';
}

/**
 * X-Admin-Actor outside production: a label for ADMIN_TOKEN's stand-in person (tests, the sandbox),
 * letters, digits, `.`, `_` and `-`: never an e-mail nor a `user:` / `token:` form, so it can never
 * name a team member (issue #56). The audit log names it `stand-in:<label>`. Anything else is
 * refused, never read as something else.
 */
const STAND_IN_LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
function standInActor(req: FastifyRequest): string | undefined {
  const label = req.headers['x-admin-actor'];
  if (label === undefined) return undefined;
  if (typeof label === 'string' && STAND_IN_LABEL.test(label)) return `stand-in:${label}`;
  throw validationError(
    'header',
    [
      {
        path: '/x-admin-actor',
        message: 'must be a label of letters, digits, ".", "_" or "-" (at most 64): never an e-mail or a "user:" form, which would name a team member',
      },
    ],
    'X-Admin-Actor names a stand-in, never a team member: a person decides with their console session or their own personal token.',
  );
}

/** The identity of a bearer credential, or undefined (unknown, revoked, malformed). */
async function bearerIdentity(deps: AdminRouteDeps, req: FastifyRequest, bearer: string): Promise<AdminIdentity | undefined> {
  if (!bearer) return undefined;
  if (safeEqual(bearer, deps.rootToken)) {
    // In production the bootstrap token is nobody: it sets things up and reads, and decides nothing.
    if (!deps.rootActsForClaimedPerson) return { actor: 'admin', role: 'admin', root: true };
    // Elsewhere X-Admin-Actor names a stand-in person (tests, the sandbox): four eyes tells two labels apart.
    const actor = standInActor(req) ?? 'admin';
    return { actor, role: 'admin', root: true, personId: `actor:${actor}` };
  }
  const identity = (await deps.operators.identifyToken(bearer, req.id)) ?? undefined;
  // A personal token whose person is not activated (a one-time password to replace, TOTP the role requires) does nothing.
  if (identity?.setupRequired?.length) throw new AppError('ACCOUNT_SETUP_REQUIRED', undefined, { setupRequired: identity.setupRequired });
  return identity;
}

/** A person's own tokens: their own, asked by them (never a stand-in or a service); made from their console session only. */
function checkTokenOwner(identity: AdminIdentity, fromSession: boolean, operationId: string): void {
  if (!isOwnTokenOperation(operationId)) return;
  if (identity.root || !identity.personId) throw new AppError('TOKEN_OWNER_REQUIRED');
  if (needsOwnSession(operationId) && !fromSession) {
    throw new AppError(
      'TOKEN_OWNER_REQUIRED',
      "A personal API token is made from its owner's own console session (the Account page), never with another token.",
    );
  }
}

const OPERATORS_ADMIN = 'operators.admin.';

function personRequired(identity: AdminIdentity, operationId: string): AppError {
  const who = identity.root ? 'ADMIN_TOKEN' : `The service token ${identity.actor.replace(/^token:/, '')}`;
  return new AppError(
    'PERSON_REQUIRED',
    `${who} does not take decisions (${operationId}): sign in to the console, or use your personal API token (made on the console's Account page, POST /admin/account/tokens).`,
  );
}

function personNotConfirmed(identity: AdminIdentity, operationId: string): AppError {
  return new AppError(
    'PERSON_NOT_CONFIRMED',
    `${identity.actor.replace(/^user:/, '')} is not confirmed yet (${operationId}): a second admin, not the one who added you or last reset your password, confirms you on the console's Team page or with \`npm run admin -- users confirm ${identity.personId}\` (POST /admin/users/${identity.personId}/confirm). Until then you read, and decide nothing.`,
    { userId: identity.personId },
  );
}

/** What a read asked to see whole (`?reveal=`); nothing unless asked. */
const revealed = new WeakMap<FastifyRequest, ReadonlySet<PersonalDataField>>();

/**
 * Records our team's read before it is answered (issue #69): a read that cannot be recorded is not
 * answered (503, as any service that does not answer).
 */
async function recordReads(deps: AdminRouteDeps, req: FastifyRequest, op: Operation, reads: PersonalDataRead[]): Promise<void> {
  const identity = req.adminIdentity;
  if (!identity) return;
  const toRecord = readsToRecord(identity, reads);
  if (toRecord.length === 0) return;
  await deps.operators.recordPersonalDataReads({
    actor: actorOf(req),
    actorId: identity.personId && !identity.personId.startsWith('actor:') ? identity.personId : null,
    role: identity.role,
    operation: op.id,
    route: `${op.method} ${req.routeOptions.url ?? op.path}`,
    requestId: req.id,
    reads: toRecord,
  });
}

export async function adminRoutes(app: FastifyInstance, deps: AdminRouteDeps): Promise<void> {
  app.addHook('preValidation', async (req) => {
    const op = req.routeOptions.config.op;
    if (!op) return;
    const auth = req.headers.authorization ?? '';
    let identity = auth ? await bearerIdentity(deps, req, auth.startsWith('Bearer ') ? auth.slice(7) : '') : undefined;
    // No bearer token: a person signed in to the console; a change also needs the session's CSRF token.
    if (!auth) {
      const token = sessionTokenOf(req.headers.cookie);
      const session = token ? await deps.operators.accounts.identify(token) : undefined;
      if (session && op.method !== 'GET') checkCsrf(session, req.headers['x-csrf-token']);
      // A one-time password to replace, or TOTP the role requires: nothing else until that is done.
      if (session && session.setupRequired.length > 0) throw new AppError('ACCOUNT_SETUP_REQUIRED', undefined, { setupRequired: session.setupRequired });
      identity = session;
    }
    if (!identity) throw new AppError('UNAUTHORIZED');
    // The regulator reads and changes nothing (issue #69): every change refused before anything else is asked.
    if (isReadOnlyRole(identity.role) && op.method !== 'GET') {
      throw new AppError('READ_ONLY_ROLE', `The ${identity.role} role reads, and changes nothing (${op.id}).`);
    }
    if (!roleMayCall(identity.role, op.id, op.method)) throw new AppError('FORBIDDEN_ROLE', `The ${identity.role} role does not allow ${op.id}.`);
    if (isPersonDecision(op.id) && !identity.personId) throw personRequired(identity, op.id);
    // A team member's power starts once a second admin confirmed it (issue #69): until then, no decision.
    if (identity.confirmed === false && needsConfirmedPerson(op.id)) throw personNotConfirmed(identity, op.id);
    checkTokenOwner(identity, !auth, op.id);
    req.adminIdentity = identity;
    // `?reveal=` (issue #69) is the gateway's, on every read: taken off before the operation's own query is validated.
    const query = req.query as Record<string, unknown> | undefined;
    if (op.method === 'GET' && query && 'reveal' in query) {
      revealed.set(req, parseReveal(query.reveal));
      delete query.reveal;
    }
    // Every admin mutation takes an optional Idempotency-Key, with the public API's semantics
    // (the admin API is not HMAC-signed: no signature to bind to the key).
    const key = op.method !== 'GET' ? idempotencyKeyOf(req, false) : undefined;
    if (key !== undefined) await claimIdempotencyKey(req, deps.idempotency, { ...ADMIN_IDEMPOTENCY_OWNER, key });
    // Checked also where the operation takes no body: malformed JSON is refused on every operation.
    const body = jsonObjectBody(req);
    if (op.body) req.body = body;
  });

  const context = (req: FastifyRequest, key: ClaimedKey | undefined = req.idempotency): RequestContext => ({
    requestId: req.id,
    scope: {
      kind: 'admin',
      actor: actorOf(req),
      ...(req.adminIdentity?.personId ? { personId: req.adminIdentity.personId } : {}),
      ...(req.adminIdentity && isReadOnlyRole(req.adminIdentity.role) ? { readOnly: true as const } : {}),
    },
    // The owning service keeps the key's answer (sealed at rest where it can carry a secret).
    ...(key ? { idempotencyKey: key.key, idempotencyFingerprint: key.fingerprint } : {}),
  });
  app.addHook('onSend', idempotencyRecorder(deps.idempotency.inFlight, { ...deps, contextOf: context }));
  app.addHook('onResponse', async (req) => releaseIdempotencyKey(deps.idempotency.inFlight, req));

  const handlers: Record<string, RouteHandlerMethod> = {};
  for (const op of Object.values(adminOperations) as Operation[]) {
    if (!op.subject) continue;
    // A file (read only): streamed chunk by chunk.
    if (op.download) {
      // Recorded once the service answered and before the file streams: a player's personal-data file
      // as a read of every field revealed, any other file as a regulator's read like any other.
      handlers[op.id] = fileDownloader(op, deps, context, (req) => recordReads(deps, req, op, fileReads(op.id, req.params)));
      continue;
    }
    const changesOperator = op.method !== 'GET' && op.subject.startsWith(OPERATORS_ADMIN);
    handlers[op.id] = async (req: FastifyRequest, reply: FastifyReply) => {
      const { result } = await forwarder(op, deps, context)(req, reply);
      const operatorId = (req.params as { id?: string } | undefined)?.id;
      if (result.ok && changesOperator && operatorId) deps.onOperatorChanged(operatorId);
      // A read: players' personal data masked but what was revealed, and the read recorded before it is answered.
      if (result.ok && op.method === 'GET') await recordReads(deps, req, op, maskPersonalData(op.id, result.body, revealed.get(req) ?? new Set()));
      // Nothing to audit here: the service that made the change wrote its row in the change's transaction.
      return reply.send(result.ok ? result.body : undefined);
    };
  }
  registerOperations(app, adminOperations, deps, handlers, context);
}
