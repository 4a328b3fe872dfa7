// A registration's new player row through its entity (the ORM), written at the caller's flush.
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId, type CreatePlayer, type OperatorScope } from '@bo/contracts';
import { PlayerEntity, type PlayerRow } from '../../store/index.ts';

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
