// The admin API of our own team (docs/decisions.md), on its own port with a bearer token. Operator
// management is local; the rest is forwarded to the owning service, and whatever a service
// reports as changed is written to the audit log.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { AppError, adminOperations, type Environment, type Operation, type RequestContext } from '@bo/contracts';
import type { MikroORM } from '@mikro-orm/postgresql';
import { forwarder, registerOperations, type ForwardDeps } from '../edge/operations.ts';
import { recordAudit } from '../operators/audit.ts';
import { parseJsonObject, requireJsonMediaType } from '@bo/http-kit';
import {
  claimIdempotencyKey,
  idempotencyKeyOf,
  idempotencyRecorder,
  stopIdempotencyLease,
  type EdgeIdempotency,
} from '../edge/idempotency/http-idempotency.ts';
import type { OperatorAdmin } from '../operators/operators.ts';
import type { OperatorKeys } from '../operators/operator-keys.ts';
import type { TeamAccess } from '../team/team.ts';
import { roleMayCall } from '../team/roles.ts';
import { checkCsrf, sessionTokenOf } from '@bo/console';
import type { ConsoleSessions } from '../team/console-sessions.ts';

export interface AdminRouteDeps extends ForwardDeps {
  orm: MikroORM;
  operators: OperatorAdmin;
  keys: OperatorKeys;
  idempotency: EdgeIdempotency;
  team: TeamAccess;
  sessions: ConsoleSessions;
}

/** Admin keys live beside operators' keys in one store, under an owner no operator can have. */
const ADMIN_IDEMPOTENCY_OWNER = { operatorId: 'admin', environment: 'admin' };

/** Who the audit log names: the token's name, or the person the bootstrap token says is acting. */
function actorOf(req: FastifyRequest): string {
  return req.adminIdentity?.actor ?? 'admin';
}

function claimedActor(req: FastifyRequest): string | undefined {
  const who = req.headers['x-admin-actor'];
  return typeof who === 'string' && /^[\w.@:-]{1,128}$/.test(who) ? who : undefined;
}

export async function adminRoutes(app: FastifyInstance, deps: AdminRouteDeps): Promise<void> {
  app.addHook('preValidation', async (req, reply) => {
    const op = req.routeOptions.config.op;
    if (!op) return;
    const auth = req.headers.authorization ?? '';
    let identity = auth ? await deps.team.identify(auth.startsWith('Bearer ') ? auth.slice(7) : '', claimedActor(req)) : undefined;
    // No bearer token: a person signed in to the console; a change also needs the session's CSRF token.
    if (!auth) {
      const token = sessionTokenOf(req.headers.cookie);
      const session = token ? await deps.sessions.identify(token) : undefined;
      if (session && op.method !== 'GET') checkCsrf(session, req.headers['x-csrf-token']);
      identity = session;
    }
    if (!identity) throw new AppError('UNAUTHORIZED');
    if (!roleMayCall(identity.role, op.id)) throw new AppError('FORBIDDEN_ROLE', `The ${identity.role} role does not allow ${op.id}.`);
    req.adminIdentity = identity;
    // Every admin mutation takes an optional Idempotency-Key, with the public API's semantics
    // (the admin API is not HMAC-signed: no signature to bind to the key).
    const key = op.method !== 'GET' ? idempotencyKeyOf(req, false) : undefined;
    if (key !== undefined) {
      const answered = await claimIdempotencyKey(req, reply, deps.idempotency, { ...ADMIN_IDEMPOTENCY_OWNER, key });
      if (answered) return answered;
    }
    requireJsonMediaType(req);
    if (op.body) req.body = parseJsonObject(req.rawBody);
  });

  app.addHook('onSend', idempotencyRecorder(deps.idempotency.store));
  app.addHook('onResponse', async (req) => stopIdempotencyLease(deps.idempotency.store, req));

  const context = (req: FastifyRequest): RequestContext => ({
    requestId: req.id,
    scope: { kind: 'admin', actor: actorOf(req) },
    // The owning service stores its answer under the key too (a retry after a lost answer).
    ...(req.idempotency ? { idempotencyKey: req.idempotency.key } : {}),
  });
  const ops = deps.operators;
  type P = { id: string; environment: Environment; credentialId: string };
  const local: Record<string, RouteHandlerMethod> = {
    adminCreateOperator: async (req, reply) => reply.code(201).send(await ops.create(req.body as never, actorOf(req), req.id)),
    adminListOperators: async (_req, reply) => reply.send({ data: await ops.list() }),
    adminGetOperator: async (req, reply) => reply.send(await ops.get((req.params as P).id)),
    adminSuspendOperator: async (req, reply) =>
      reply.send(
        await ops.update((req.params as P).id, 'adminSuspendOperator', actorOf(req), req.id, (o) => {
          o.status = 'suspended';
        }),
      ),
    adminResumeOperator: async (req, reply) =>
      reply.send(
        await ops.update((req.params as P).id, 'adminResumeOperator', actorOf(req), req.id, (o) => {
          o.status = 'active';
        }),
      ),
    adminSetAllowedIps: async (req, reply) =>
      reply.send(await ops.setAllowedIps((req.params as P).id, (req.body as { ips: string[] }).ips, actorOf(req), req.id)),
    adminSetRateLimit: async (req, reply) =>
      reply.send(
        await ops.update((req.params as P).id, 'adminSetRateLimit', actorOf(req), req.id, (o) => {
          o.rateLimitPerMinute = (req.body as { perMinute: number }).perMinute;
        }),
      ),
    adminSetWebhookUrl: async (req, reply) => {
      const p = req.params as P;
      return reply.send(await ops.setWebhookUrl(p.id, p.environment, (req.body as { url: string | null }).url, actorOf(req), req.id));
    },
    adminRotateWebhookSecret: async (req, reply) => {
      const p = req.params as P;
      const overlap = (req.body as { overlapSeconds?: number } | undefined)?.overlapSeconds ?? 86_400;
      return reply.send(await ops.rotateWebhookSecret(p.id, p.environment, overlap, actorOf(req), req.id));
    },
    adminListOperatorCredentials: async (req, reply) => reply.send({ data: await deps.keys.list((req.params as P).id) }),
    adminRotateOperatorKey: async (req, reply) => {
      const p = req.params as P;
      const overlap = (req.body as { overlapMinutes?: number }).overlapMinutes;
      return reply.code(201).send(await deps.keys.rotate(p.id, p.environment, overlap, actorOf(req), req.id));
    },
    adminRevokeOperatorKey: async (req, reply) => {
      const p = req.params as P;
      return reply.send(await deps.keys.revoke(p.id, p.credentialId, actorOf(req), req.id));
    },
    adminCreateUser: async (req, reply) => reply.code(201).send(await deps.team.createMember(req.body as never, actorOf(req), req.id)),
    adminListUsers: async (_req, reply) => reply.send({ data: await deps.team.listMembers() }),
    adminDisableUser: async (req, reply) => reply.send(await deps.team.disableMember((req.params as P).id, actorOf(req), req.id)),
    adminResetSecondFactor: async (req, reply) => reply.send(await deps.team.resetSecondFactor((req.params as P).id, actorOf(req), req.id)),
    adminCreateToken: async (req, reply) => reply.code(201).send(await deps.team.createToken(req.body as never, actorOf(req), req.id)),
    adminListTokens: async (_req, reply) => reply.send({ data: await deps.team.listTokens() }),
    adminRevokeToken: async (req, reply) => reply.send(await deps.team.revokeToken((req.params as P).id, actorOf(req), req.id)),
    adminListAudit: async (req, reply) => {
      const q = req.query as { target?: string; actor?: string; action?: string; limit?: number };
      const filters = (['target', 'actor', 'action'] as const).filter((f) => q[f] !== undefined);
      const where = filters.length ? `where ${filters.map((f) => `${f} = ?`).join(' and ')}` : '';
      const rows = await deps.orm.em
        .fork()
        .execute<{ id: string; actor: string; action: string; target: string; before: unknown; after: unknown; request_id: string; at: Date }[]>(
          `select * from gateway.audit_log ${where} order by at desc, id desc limit ?`,
          [...filters.map((f) => q[f]), q.limit ?? 50],
        );
      return reply.send({
        data: rows.map((r) => ({
          id: r.id,
          actor: r.actor,
          action: r.action,
          target: r.target,
          before: r.before,
          after: r.after,
          requestId: r.request_id,
          at: new Date(r.at).toISOString(),
        })),
      });
    },
  };
  // Forwarded admin operations: audit what the owning service says it changed.
  for (const op of Object.values(adminOperations) as Operation[]) {
    if (local[op.id] || !op.subject) continue;
    local[op.id] = async (req: FastifyRequest, reply: FastifyReply) => {
      const { result } = await forwarder(op, deps, context)(req, reply);
      if (result.ok && result.audit) {
        const em = deps.orm.em.fork();
        recordAudit(em, {
          actor: actorOf(req),
          action: op.id,
          target: result.audit.target,
          before: result.audit.before,
          after: result.audit.after,
          requestId: req.id,
        });
        // The change is made: answer it even if the audit row cannot be written now (a 5xx would
        // make the caller retry a decision that already happened). The loss is logged loudly.
        await em
          .flush()
          .catch((err: unknown) => req.log.error({ err, requestId: req.id, audit: { action: op.id, target: result.audit!.target } }, 'audit row lost'));
      }
      return reply.send(result.ok ? result.body : undefined);
    };
  }
  registerOperations(app, adminOperations, deps, local, context);
}
