// A registration's new player row through its entity (the ORM), written at the caller's flush.
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId, type CreatePlayer, type OperatorScope } from '@bo/contracts';
import { PlayerEntity, RegistrationChangeEntity, type PlayerRow } from '../../store/index.ts';
import { keptAddress } from '../domain/registration.ts';

/** A marketing consent given at the sign-up, kept as its first change (who: the operator; issue #60). */
export function recordConsentAtRegistration(tx: EntityManager, player: PlayerRow, operatorId: string, requestId: string, now: Date): void {
  if (!player.marketingConsent) return;
  tx.create(RegistrationChangeEntity, {
    playerId: player.id,
    field: 'marketingConsent',
    oldValue: false,
    newValue: true,
    by: 'operator',
    actor: `operator:${operatorId}`,
    requestId,
    at: now,
  });
}

export function newPlayer(
  tx: EntityManager,
  scope: OperatorScope,
  input: CreatePlayer,
  cpf: string,
  brSpa: boolean,
  impedimentCheckedAt: Date | null,
  now: Date,
): PlayerRow {
  return tx.create(PlayerEntity, {
    id: newId('player'),
    operatorId: scope.operatorId,
    brandId: scope.brandId,
    environment: scope.environment,
    externalId: input.externalId,
    name: input.name,
    email: input.email,
    cpf,
    cpfUnique: brSpa,
    gender: input.gender ?? null,
    signupIp: input.signupIp ?? null,
    address: input.address ? keptAddress(input.address) : null,
    registrationAnnounced: null,
    marketingConsent: input.marketingConsent === true,
    marketingConsentChangedAt: input.marketingConsent === true ? now : null,
    phone: input.phone ?? null,
    birthDate: input.birthDate,
    currency: scope.currency,
    status: 'ativo',
    kycStatus: 'nao_iniciado',
    kycUpdatedAt: now,
    selfExcludedUntil: null,
    selfExcludedSince: null,
    pausedUntil: null,
    impedimentCheckedAt,
    restrictedAt: null,
    createdAt: now,
    updatedAt: now,
  });
}
