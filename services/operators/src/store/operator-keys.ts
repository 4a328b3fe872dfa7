// An operator's API keys over their life: issued (with the operator, and by a rotation), listed
// without secrets, rotated (a new key; the environment's keys in use stop after an overlap our team
// chooses) and revoked at once. Every change is audited without secrets, in force on every gateway
// gateway replica before it is answered (operator-changes.ts), and told to the operator as a webhook event of
// the key's environment (`credential.rotated`, `credential.revoked`), written to the operators outbox
// in the transaction of the change.
import { LockMode, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import { AppError, KEY_ROTATION_OVERLAP_MINUTES, newId, type Environment, type OperatorCredential, type RotatedKey } from '@bo/contracts';
import { ormRunner, sealSecret, writeEvent, type DecisionAuthor } from '@bo/service-kit';
import { BrandEntity, CredentialEntity, OperatorEntity } from './entities.ts';
import { credentialStatus, hashKey, issueOperatorKey, issueOperatorSecret, keyPrefixOf } from '../domain/credentials.ts';
import { recordAdminChange } from './audit.ts';
import { announceOperatorChange, type ChangeBroadcast } from '../broadcast/operator-changes.ts';

export interface OperatorKeysDeps extends ChangeBroadcast {
  orm: MikroORM;
  masterKey: string;
  /** The clock of the key rules (epoch ms); tests move it to cross an expiry without waiting. */
  now(): number;
  /** Wakes the outbox relay after a commit that wrote events. */
  onEventsWritten(): void;
}

interface StoredCredential {
  id: string;
  environment: string;
  keyPrefix: string;
  createdAt: Date;
  expiresAt?: Date | null;
  revokedAt?: Date | null;
}

function credentialView(c: StoredCredential, now: number): OperatorCredential {
  return {
    id: c.id,
    environment: c.environment as Environment,
    keyPrefix: c.keyPrefix,
    createdAt: c.createdAt.toISOString(),
    expiresAt: c.expiresAt?.toISOString() ?? null,
    revokedAt: c.revokedAt?.toISOString() ?? null,
    status: credentialStatus(c, now),
  };
}

/** A new key and secret for one brand, stored by the key's hash with the secret sealed; the pair is shown once. */
export function issueCredential(
  tx: EntityManager,
  o: { operatorId: string; brandId: string; environment: Environment; masterKey: string; at: Date },
): { credential: StoredCredential; key: string; secret: string } {
  const key = issueOperatorKey(o.environment);
  const secret = issueOperatorSecret(o.environment);
  const credential = tx.create(CredentialEntity, {
    keyHash: hashKey(key),
    id: newId('credential'),
    keyPrefix: keyPrefixOf(key),
    operatorId: o.operatorId,
    brandId: o.brandId,
    environment: o.environment,
    secretSealed: sealSecret(secret, o.masterKey),
    revokedAt: null,
    expiresAt: null,
    createdAt: o.at,
  });
  return { credential, key, secret };
}

export class OperatorKeys {
  readonly #d: OperatorKeysDeps;
  constructor(deps: OperatorKeysDeps) {
    this.#d = deps;
  }

  async list(operatorId: string): Promise<OperatorCredential[]> {
    const em = this.#d.orm.em.fork();
    if (!(await em.count(OperatorEntity, { id: operatorId }))) throw new AppError('OPERATOR_NOT_FOUND');
    const rows = await em.find(CredentialEntity, { operatorId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
    const now = this.#d.now();
    return rows.map((c) => credentialView(c, now));
  }

  /**
   * A new key for one environment, shown once. The environment's keys still in use end at
   * now + `overlapMinutes` (0: at once), or earlier if an earlier rotation already set that.
   */
  async rotate(operatorId: string, environment: Environment, overlapMinutes: number | undefined, by: DecisionAuthor): Promise<RotatedKey> {
    const overlap = overlapMinutes ?? KEY_ROTATION_OVERLAP_MINUTES.default;
    const now = this.#d.now();
    const at = new Date(now);
    const endsAt = new Date(now + overlap * 60_000);
    const rotated = await this.#d.orm.em.fork().transactional(async (tx) => {
      // One rotation of an environment at a time: the brand row is the lock.
      const brand = await tx.findOne(BrandEntity, { operatorId, environment }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!brand) throw new AppError('OPERATOR_NOT_FOUND');
      const inUse = (await tx.find(CredentialEntity, { operatorId, environment, revokedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } })).filter(
        (c) => credentialStatus(c, now) !== 'expired',
      );
      const before = inUse.map((c) => credentialView(c, now));
      for (const c of inUse) if (!c.expiresAt || c.expiresAt > endsAt) c.expiresAt = endsAt;
      const issued = issueCredential(tx, { operatorId, brandId: brand.id, environment, masterKey: this.#d.masterKey, at });
      await tx.flush();
      const credential = credentialView(issued.credential, now);
      const replaced = inUse.map((c) => credentialView(c, now));
      await writeEvent(ormRunner(tx), 'operators', { operatorId, brandId: brand.id, environment }, 'credential.rotated', {
        credentialId: credential.id,
        keyPrefix: credential.keyPrefix,
        createdAt: credential.createdAt,
        expiring: replaced.map((c) => ({ credentialId: c.id, keyPrefix: c.keyPrefix, expiresAt: c.expiresAt! })),
      });
      await recordAdminChange(ormRunner(tx), by, {
        action: 'adminRotateOperatorKey',
        target: `operator:${operatorId}`,
        before: { environment, credentials: before },
        after: { environment, credential, replaced, overlapMinutes: overlap },
      });
      return { operatorId, environment, credential, key: issued.key, secret: issued.secret, replaced };
    });
    // With no overlap the replaced keys are refused from now on: everywhere before we answer.
    await announceOperatorChange(this.#d, operatorId);
    this.#d.onEventsWritten();
    return rotated;
  }

  /** Revokes one key at once; revoking a revoked key changes nothing (and tells the operator nothing). */
  async revoke(operatorId: string, credentialId: string, by: DecisionAuthor): Promise<OperatorCredential> {
    const now = this.#d.now();
    const { view, changed } = await this.#d.orm.em.fork().transactional(async (tx) => {
      const c = await tx.findOne(CredentialEntity, { id: credentialId, operatorId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!c) throw new AppError('CREDENTIAL_NOT_FOUND');
      const before = credentialView(c, now);
      const changed = !c.revokedAt;
      if (changed) c.revokedAt = new Date(now);
      await tx.flush();
      const view = credentialView(c, now);
      if (changed) {
        await writeEvent(ormRunner(tx), 'operators', { operatorId, brandId: c.brandId, environment: view.environment }, 'credential.revoked', {
          credentialId: view.id,
          keyPrefix: view.keyPrefix,
          revokedAt: view.revokedAt!,
        });
      }
      await recordAdminChange(ormRunner(tx), by, { action: 'adminRevokeOperatorKey', target: `operator:${operatorId}`, before, after: view });
      return { view, changed };
    });
    await announceOperatorChange(this.#d, operatorId);
    if (changed) this.#d.onEventsWritten();
    return view;
  }
}
