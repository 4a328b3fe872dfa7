// Operators, brands and credentials: owned by the gateway. Every change is audited and
// broadcast so every replica's credential cache drops the operator at once.
import type { MikroORM, EntityManager } from '@mikro-orm/postgresql';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  AppError, callOperation, gatewayInvalidateSubject, newId, WEBHOOK_SUBJECTS, type OperatorChanged,
  type CreatedOperator, type Environment, type OperatorView, type UpsertEndpoint,
} from '@bo/contracts';
import { openSecret, sealSecret, type Logger } from '@bo/service-kit';
import { BrandEntity, CredentialEntity, OperatorEntity } from '../persistence/entities.ts';
import { hashKey } from '../auth/credential-cache.ts';
import { isValidAllowEntry } from '../auth/ip-allow-list.ts';
import { issueOperatorKey, issueOperatorSecret, issueWebhookSecret } from './credentials.ts';
import { recordAudit } from './audit.ts';

export interface OperatorAdminDeps {
  orm: MikroORM; nc: NatsConnection; prefix: string; masterKey: string; rpcTimeoutMs: number;
  defaultRateLimit: number; log: Logger;
  /** Drops the operator from this replica's caches before the change is answered. */
  onOperatorChanged(operatorId: string): void;
}

const ENVIRONMENTS: Environment[] = ['sandbox', 'production'];

export class OperatorAdmin {
  readonly #d: OperatorAdminDeps;
  constructor(deps: OperatorAdminDeps) { this.#d = deps; }

  async view(em: EntityManager, id: string): Promise<OperatorView> {
    const op = await em.findOne(OperatorEntity, { id });
    if (!op) throw new AppError('OPERATOR_NOT_FOUND');
    const brands = await em.find(BrandEntity, { operatorId: id });
    const url = (env: Environment) => brands.find((b) => b.environment === env)?.webhookUrl ?? null;
    return {
      id: op.id, name: op.name, status: op.status as OperatorView['status'], rateLimitPerMinute: op.rateLimitPerMinute,
      allowedIps: op.allowedIps, webhookUrls: { sandbox: url('sandbox'), production: url('production') }, createdAt: op.createdAt.toISOString(),
    };
  }

  async list(): Promise<OperatorView[]> {
    const em = this.#d.orm.em.fork();
    const ops = await em.find(OperatorEntity, {}, { orderBy: { createdAt: 'asc' } });
    return Promise.all(ops.map((o) => this.view(em, o.id)));
  }

  async get(id: string): Promise<OperatorView> {
    return this.view(this.#d.orm.em.fork(), id);
  }

  async create(input: { name: string; currency?: string; rateLimitPerMinute?: number }, actor: string, requestId: string): Promise<CreatedOperator> {
    const em = this.#d.orm.em.fork();
    const operatorId = newId('operator');
    const now = new Date();
    const out = { operator: { id: operatorId, name: input.name, status: 'active' } } as CreatedOperator;
    await em.transactional(async (tx) => {
      tx.create(OperatorEntity, {
        id: operatorId, name: input.name, status: 'active', rateLimitPerMinute: input.rateLimitPerMinute ?? this.#d.defaultRateLimit,
        allowedIps: [], createdAt: now, updatedAt: now,
      });
      // No ORM relations are declared, so flush in foreign-key order.
      await tx.flush();
      for (const environment of ENVIRONMENTS) {
        const brandId = newId('brand');
        const key = issueOperatorKey(environment);
        const secret = issueOperatorSecret(environment);
        const webhookSecret = issueWebhookSecret();
        tx.create(BrandEntity, {
          id: brandId, operatorId, environment, currency: input.currency ?? 'BRL',
          name: environment === 'sandbox' ? `${input.name} (sandbox)` : input.name,
          webhookUrl: null, webhookSecretSealed: sealSecret(webhookSecret, this.#d.masterKey), webhookSyncedAt: null, createdAt: now,
        });
        await tx.flush();
        tx.create(CredentialEntity, {
          keyHash: hashKey(key), keyPrefix: key.slice(0, 12), operatorId, brandId, environment,
          secretSealed: sealSecret(secret, this.#d.masterKey), revokedAt: null, createdAt: now,
        });
        out[environment] = { brandId, key, secret, webhookSecret };
      }
      recordAudit(tx, { actor, action: 'adminCreateOperator', target: `operator:${operatorId}`, before: null, after: { ...out.operator, currency: input.currency ?? 'BRL' }, requestId });
    });
    // The webhooks service gets the secrets now if it answers; otherwise the sync loop retries.
    await this.syncWebhookEndpoints(operatorId).catch(() => undefined);
    return out;
  }

  async update(id: string, action: string, actor: string, requestId: string, change: (op: { status: string; rateLimitPerMinute: number; allowedIps: string[] }) => void): Promise<OperatorView> {
    const em = this.#d.orm.em.fork();
    const result = await em.transactional(async (tx) => {
      const before = await this.view(tx, id);
      const op = await tx.findOneOrFail(OperatorEntity, { id });
      change(op);
      op.updatedAt = new Date();
      await tx.flush();
      const after = await this.view(tx, id);
      recordAudit(tx, { actor, action, target: `operator:${id}`, before, after, requestId });
      return after;
    });
    // In force on this replica before the answer; on the others when the broadcast lands.
    this.#d.onOperatorChanged(id);
    this.#d.nc.publish(gatewayInvalidateSubject(this.#d.prefix), JSON.stringify({ operatorId: id } satisfies OperatorChanged));
    return result;
  }

  setAllowedIps(id: string, ips: string[], actor: string, requestId: string): Promise<OperatorView> {
    const bad = ips.map((ip, i) => ({ ip, i })).filter(({ ip }) => !isValidAllowEntry(ip));
    if (bad.length) {
      throw new AppError('VALIDATION_ERROR', undefined, { in: 'body', issues: bad.map(({ i }) => ({ path: `/ips/${i}`, message: 'Must be an IPv4/IPv6 address or CIDR.' })) });
    }
    return this.update(id, 'adminSetAllowedIps', actor, requestId, (op) => { op.allowedIps = ips; });
  }

  async setWebhookUrl(id: string, environment: Environment, url: string | null, actor: string, requestId: string): Promise<OperatorView> {
    const em = this.#d.orm.em.fork();
    const brand = await em.findOne(BrandEntity, { operatorId: id, environment });
    if (!brand) throw new AppError('OPERATOR_NOT_FOUND');
    // The webhooks service validates the URL (https, SSRF guard) before we record it.
    await this.#push({
      operatorId: id, environment, brandId: brand.id, url,
      secret: openSecret(brand.webhookSecretSealed, this.#d.masterKey),
    });
    return em.transactional(async (tx) => {
      const before = await this.view(tx, id);
      const b = await tx.findOneOrFail(BrandEntity, { id: brand.id });
      b.webhookUrl = url;
      b.webhookSyncedAt = new Date();
      await tx.flush();
      const after = await this.view(tx, id);
      recordAudit(tx, { actor, action: 'adminSetWebhookUrl', target: `operator:${id}`, before, after, requestId });
      return after;
    });
  }

  /** Pushes every endpoint of the operator (or of all operators) not yet known to the webhooks service. */
  async syncWebhookEndpoints(operatorId?: string): Promise<number> {
    const em = this.#d.orm.em.fork();
    const pending = await em.find(BrandEntity, { webhookSyncedAt: null, ...(operatorId ? { operatorId } : {}) });
    let n = 0;
    for (const b of pending) {
      await this.#push({
        operatorId: b.operatorId, environment: b.environment as Environment, brandId: b.id, url: b.webhookUrl,
        secret: openSecret(b.webhookSecretSealed, this.#d.masterKey),
      });
      await em.nativeUpdate(BrandEntity, { id: b.id }, { webhookSyncedAt: new Date() });
      n++;
    }
    return n;
  }

  async #push(endpoint: UpsertEndpoint): Promise<void> {
    await callOperation(this.#d.nc, WEBHOOK_SUBJECTS.upsertEndpoint, {
      ctx: { requestId: 'gateway', scope: { kind: 'internal', service: 'gateway' } }, params: {}, query: {}, body: endpoint,
    }, { prefix: this.#d.prefix, timeoutMs: this.#d.rpcTimeoutMs });
  }
}
