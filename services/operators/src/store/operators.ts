// Operators and brands (their keys: operator-keys.ts). Every change is audited and broadcast so
// every gateway replica's credential cache drops the operator before the answer
// (operator-changes.ts); a change of a webhook endpoint also reaches the webhooks service as an
// internal event (endpoint-events.ts).
import { LockMode, type MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import {
  AppError,
  DEFAULT_CURRENCY,
  newId,
  webhookMessages,
  type CreatedOperator,
  type Environment,
  type OperatorView,
  type UpsertEndpoint,
  type WebhookEndpointChanged,
} from '@bo/contracts';
import { ormRunner, sealSecret, type DecisionAuthor } from '@bo/service-kit';
import { isValidAllowEntry } from '@bo/http-kit';
import { BrandEntity, OperatorEntity } from './entities.ts';
import { issueWebhookSecret } from '../domain/credentials.ts';
import { recordAdminChange } from './audit.ts';
import { recordEndpointChange } from './endpoint-events.ts';
import { issueCredential } from './operator-keys.ts';
import { announceOperatorChange, type ChangeBroadcast } from '../broadcast/operator-changes.ts';

export interface OperatorAdminDeps extends ChangeBroadcast {
  orm: MikroORM;
  masterKey: string;
  defaultRateLimit: number;
  /** Asks another service (the webhooks service's endpoint upsert). */
  call<R>(subject: string, body: unknown): Promise<R>;
  /** The clock of the key rules (epoch ms): keys issued with the operator are dated by it. */
  now(): number;
  /** Wakes the outbox relay after a commit that wrote endpoint events. */
  onEventsWritten(): void;
}

const ENVIRONMENTS: Environment[] = ['sandbox', 'production'];

export class OperatorAdmin {
  readonly #d: OperatorAdminDeps;
  constructor(deps: OperatorAdminDeps) {
    this.#d = deps;
  }

  async view(em: EntityManager, id: string): Promise<OperatorView> {
    const op = await em.findOne(OperatorEntity, { id });
    if (!op) throw new AppError('OPERATOR_NOT_FOUND');
    const brands = await em.find(BrandEntity, { operatorId: id });
    const url = (env: Environment) => brands.find((b) => b.environment === env)?.webhookUrl ?? null;
    return {
      id: op.id,
      name: op.name,
      status: op.status as OperatorView['status'],
      rateLimitPerMinute: op.rateLimitPerMinute,
      allowedIps: op.allowedIps,
      webhookUrls: { sandbox: url('sandbox'), production: url('production') },
      createdAt: op.createdAt.toISOString(),
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

  async create(input: { name: string; currency?: string; rateLimitPerMinute?: number }, by: DecisionAuthor): Promise<CreatedOperator> {
    const em = this.#d.orm.em.fork();
    const operatorId = newId('operator');
    const now = new Date(this.#d.now());
    const out = { operator: { id: operatorId, name: input.name, status: 'active' } } as CreatedOperator;
    await em.transactional(async (tx) => {
      tx.create(OperatorEntity, {
        id: operatorId,
        name: input.name,
        status: 'active',
        rateLimitPerMinute: input.rateLimitPerMinute ?? this.#d.defaultRateLimit,
        allowedIps: [],
        createdAt: now,
        updatedAt: now,
      });
      // No ORM relations are declared, so flush in foreign-key order.
      await tx.flush();
      for (const environment of ENVIRONMENTS) {
        const brandId = newId('brand');
        const webhookSecret = issueWebhookSecret();
        const webhookSecretSealed = sealSecret(webhookSecret, this.#d.masterKey);
        tx.create(BrandEntity, {
          id: brandId,
          operatorId,
          environment,
          currency: input.currency ?? DEFAULT_CURRENCY,
          name: environment === 'sandbox' ? `${input.name} (sandbox)` : input.name,
          webhookUrl: null,
          webhookSecretSealed,
          webhookVersion: 1,
          webhookPreviousSecretSealed: null,
          webhookPreviousSecretExpiresAt: null,
          createdAt: now,
        });
        await tx.flush();
        await recordEndpointChange(ormRunner(tx), { operatorId, environment, brandId, url: null, secretSealed: webhookSecretSealed, version: 1 });
        const { key, secret } = issueCredential(tx, { operatorId, brandId, environment, masterKey: this.#d.masterKey, at: now });
        out[environment] = { brandId, key, secret, webhookSecret };
      }
      await recordAdminChange(ormRunner(tx), by, {
        action: 'adminCreateOperator',
        target: `operator:${operatorId}`,
        before: null,
        after: { ...out.operator, currency: input.currency ?? DEFAULT_CURRENCY },
      });
    });
    // The secrets reach the webhooks service through the endpoint events written above.
    this.#d.onEventsWritten();
    return out;
  }

  async update(
    id: string,
    action: string,
    by: DecisionAuthor,
    change: (op: { status: string; rateLimitPerMinute: number; allowedIps: string[] }) => void,
  ): Promise<OperatorView> {
    const em = this.#d.orm.em.fork();
    const result = await em.transactional(async (tx) => {
      const before = await this.view(tx, id);
      const op = await tx.findOneOrFail(OperatorEntity, { id });
      change(op);
      op.updatedAt = new Date();
      await tx.flush();
      const after = await this.view(tx, id);
      await recordAdminChange(ormRunner(tx), by, { action, target: `operator:${id}`, before, after });
      return after;
    });
    await announceOperatorChange(this.#d, id);
    return result;
  }

  setAllowedIps(id: string, ips: string[], by: DecisionAuthor): Promise<OperatorView> {
    const bad = ips.map((ip, i) => ({ ip, i })).filter(({ ip }) => !isValidAllowEntry(ip));
    if (bad.length) {
      throw new AppError('VALIDATION_ERROR', undefined, {
        in: 'body',
        issues: bad.map(({ i }) => ({ path: `/ips/${i}`, message: 'Must be an IPv4/IPv6 address or CIDR.' })),
      });
    }
    return this.update(id, 'adminSetAllowedIps', by, (op) => {
      op.allowedIps = ips;
    });
  }

  async setWebhookUrl(id: string, environment: Environment, url: string | null, by: DecisionAuthor): Promise<OperatorView> {
    const em = this.#d.orm.em.fork();
    for (let attempt = 1; ; attempt++) {
      const brand = await em.fork().findOne(BrandEntity, { operatorId: id, environment });
      if (!brand) throw new AppError('OPERATOR_NOT_FOUND');
      const change = {
        operatorId: id,
        environment,
        brandId: brand.id,
        url,
        secretSealed: brand.webhookSecretSealed,
        version: brand.webhookVersion + 1,
      };
      // The webhooks service validates the URL (https, SSRF guard) before we record it, and
      // applies it at once; the event written with the record is what makes it durable there.
      await this.#push(change);
      const after = await em.fork().transactional(async (tx) => {
        const before = await this.view(tx, id);
        // Only over the version the request was made for: a concurrent change goes again.
        const n = await tx.nativeUpdate(
          BrandEntity,
          { id: brand.id, webhookVersion: brand.webhookVersion },
          { webhookUrl: url, webhookVersion: change.version },
        );
        if (n === 0) return undefined;
        await recordEndpointChange(ormRunner(tx), change);
        const now = await this.view(tx, id);
        await recordAdminChange(ormRunner(tx), by, { action: 'adminSetWebhookUrl', target: `operator:${id}`, before, after: now });
        return now;
      });
      if (after) {
        this.#d.onEventsWritten();
        return after;
      }
      if (attempt >= 3) throw new AppError('SERVICE_UNAVAILABLE', 'The webhook endpoint is being changed by another request; retry.');
    }
  }

  /**
   * A new webhook secret for one environment, shown once. For `overlapSeconds` the previous
   * secret signs too (both `v1,` signatures in `webhook-signature`; `X-Webhook-Signature` stays
   * on the previous one until then), so the operator can switch without missing a delivery.
   */
  async rotateWebhookSecret(
    id: string,
    environment: Environment,
    overlapSeconds: number,
    by: DecisionAuthor,
  ): Promise<{ operatorId: string; environment: Environment; webhookSecret: string; previousSecretExpiresAt: string | null }> {
    const webhookSecret = issueWebhookSecret();
    const sealed = sealSecret(webhookSecret, this.#d.masterKey);
    const change = await this.#d.orm.em.fork().transactional(async (tx) => {
      const brand = await tx.findOne(BrandEntity, { operatorId: id, environment }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!brand) throw new AppError('OPERATOR_NOT_FOUND');
      const expiresAt = overlapSeconds > 0 ? new Date(Date.now() + overlapSeconds * 1000) : null;
      const before = {
        environment,
        webhookVersion: brand.webhookVersion,
        previousSecretExpiresAt: brand.webhookPreviousSecretExpiresAt?.toISOString() ?? null,
      };
      brand.webhookPreviousSecretSealed = expiresAt ? brand.webhookSecretSealed : null;
      brand.webhookPreviousSecretExpiresAt = expiresAt;
      brand.webhookSecretSealed = sealed;
      brand.webhookVersion += 1;
      await tx.flush();
      const change: WebhookEndpointChanged = {
        operatorId: id,
        environment,
        brandId: brand.id,
        url: brand.webhookUrl ?? null,
        secretSealed: sealed,
        version: brand.webhookVersion,
        previousSecretSealed: brand.webhookPreviousSecretSealed ?? null,
        previousSecretExpiresAt: expiresAt?.toISOString() ?? null,
      };
      await recordEndpointChange(ormRunner(tx), change);
      // The audit row never holds a secret, sealed or not.
      const after = { environment, webhookVersion: brand.webhookVersion, previousSecretExpiresAt: change.previousSecretExpiresAt };
      await recordAdminChange(ormRunner(tx), by, { action: 'adminRotateWebhookSecret', target: `operator:${id}`, before, after });
      return change;
    });
    this.#d.onEventsWritten();
    // In force at once when the webhooks service answers; otherwise when it applies the event.
    const { url: _keep, ...withoutUrl } = change;
    await this.#push(withoutUrl).catch((err: unknown) => this.#d.log.warn({ err, operatorId: id }, 'rotated secret not pushed; the endpoint event carries it'));
    return { operatorId: id, environment, webhookSecret, previousSecretExpiresAt: change.previousSecretExpiresAt ?? null };
  }

  async #push(endpoint: UpsertEndpoint): Promise<void> {
    await this.#d.call(webhookMessages.upsertEndpoint.subject, endpoint satisfies UpsertEndpoint);
  }
}
