// The admin API of our own team (docs/decisions.md), on its own port with a bearer token or a
// console session. Every operation is forwarded to the owning service (operators, keys, our team
// and the audit log: the operators service). A decision is a person's (roles.ts): its service
// audits it in its own transaction; whatever else another service reports as changed is sent to
// the audit log from here.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { AppError, adminOperations, type AdminIdentity, type Operation, type RequestContext } from '@bo/contracts';
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
import { isPersonDecision, roleMayCall } from '../team/roles.ts';
import { fileDownloader } from './file-download.ts';
import { checkCsrf, sessionTokenOf } from '@bo/console';

export interface AdminRouteDeps extends ForwardDeps {
  /** The bootstrap credential with every right (ADMIN_TOKEN). */
  rootToken: string;
  /**
   * Outside production, ADMIN_TOKEN with `X-Admin-Actor` stands for the person the header names (a
   * convenience for tests and the sandbox); in production it is nobody, refused on decisions.
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

function claimedActor(req: FastifyRequest): string | undefined {
  const who = req.headers['x-admin-actor'];
  return typeof who === 'string' && /^[\w.@:-]{1,128}$/.test(who) ? who : undefined;
}

/** The identity of a bearer credential, or undefined (unknown, revoked, malformed). */
async function bearerIdentity(deps: AdminRouteDeps, req: FastifyRequest, bearer: string): Promise<AdminIdentity | undefined> {
  if (!bearer) return undefined;
  if (safeEqual(bearer, deps.rootToken)) {
    // In production the bootstrap token is nobody: it sets things up and reads, and decides nothing.
    if (!deps.rootActsForClaimedPerson) return { actor: 'admin', role: 'admin', root: true };
    // Elsewhere X-Admin-Actor names a stand-in person (tests, the sandbox): four eyes tells two names apart.
    const claimed = claimedActor(req) ?? 'admin';
    return { actor: claimed, role: 'admin', root: true, personId: `actor:${claimed}` };
  }
  return (await deps.operators.identifyToken(bearer, req.id)) ?? undefined;
}

const OPERATORS_ADMIN = 'operators.admin.';

function personRequired(identity: AdminIdentity, operationId: string): AppError {
  const who = identity.root ? 'ADMIN_TOKEN' : `The service token ${identity.actor.replace(/^token:/, '')}`;
  return new AppError(
    'PERSON_REQUIRED',
    `${who} does not take decisions (${operationId}): sign in to the console, or use your personal API token (POST /admin/tokens with your userId).`,
  );
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
    if (!roleMayCall(identity.role, op.id)) throw new AppError('FORBIDDEN_ROLE', `The ${identity.role} role does not allow ${op.id}.`);
    if (isPersonDecision(op.id) && !identity.personId) throw personRequired(identity, op.id);
    req.adminIdentity = identity;
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
    scope: { kind: 'admin', actor: actorOf(req), ...(req.adminIdentity?.personId ? { personId: req.adminIdentity.personId } : {}) },
    // The owning service keeps the key's answer (sealed at rest where it can carry a secret).
    ...(key ? { idempotencyKey: key.key, idempotencyFingerprint: key.fingerprint } : {}),
  });
  app.addHook('onSend', idempotencyRecorder(deps.idempotency.inFlight, { ...deps, contextOf: context }));
  app.addHook('onResponse', async (req) => releaseIdempotencyKey(deps.idempotency.inFlight, req));

  const handlers: Record<string, RouteHandlerMethod> = {};
  for (const op of Object.values(adminOperations) as Operation[]) {
    if (!op.subject) continue;
    // A file (read only): streamed chunk by chunk, nothing to audit.
    if (op.download) {
      handlers[op.id] = fileDownloader(op, deps, context);
      continue;
    }
    const changesOperator = op.method !== 'GET' && op.subject.startsWith(OPERATORS_ADMIN);
    handlers[op.id] = async (req: FastifyRequest, reply: FastifyReply) => {
      const { result } = await forwarder(op, deps, context)(req, reply);
      const operatorId = (req.params as { id?: string } | undefined)?.id;
      if (result.ok && changesOperator && operatorId) deps.onOperatorChanged(operatorId);
      // The operators service audits its own changes in their transaction, and the deciding
      // services their decisions (through their outbox); another service's other changes are
      // sent there from here. The change is made: answer it even if the audit row cannot be written now (a
      // 5xx would make the caller retry a decision that already happened). The loss is logged loudly.
      if (result.ok && result.audit) {
        const { target, before, after } = result.audit;
        await deps.operators
          .recordAudit({ actor: actorOf(req), actorId: req.adminIdentity?.personId ?? null, action: op.id, target, before, after, requestId: req.id })
          .catch((err: unknown) => req.log.error({ err, requestId: req.id, audit: { action: op.id, target } }, 'audit row lost'));
      }
      return reply.send(result.ok ? result.body : undefined);
    };
  }
  registerOperations(app, adminOperations, deps, handlers, context);
}
