// The players schema as MikroORM entities. Statuses are plain strings checked by the database
// (CHECK constraints in migrations.ts) and typed by the contract's unions.
import { defineEntity, p } from '@mikro-orm/core';
import type { DocumentType, Environment, KycStatus, PlayerStatus } from '@bo/contracts';

export const PlayerEntity = defineEntity({
  name: 'Player',
  tableName: 'players',
  schema: 'players',
  properties: {
    id: p.string().primary(),
    operatorId: p.string(),
    brandId: p.string(),
    environment: p.string().$type<Environment>(),
    externalId: p.string(),
    name: p.string(),
    email: p.string(),
    /** Digits only. */
    cpf: p.string(),
    phone: p.string().nullable(),
    /** `YYYY-MM-DD`. */
    birthDate: p.date().nullable(),
    currency: p.string(),
    status: p.string().$type<PlayerStatus>(),
    kycStatus: p.string().$type<KycStatus>(),
    /** Last change of the KYC record: a status change or a new submission. */
    kycUpdatedAt: p.datetime(),
    /** NUMERIC(20,2) as a string; null = no limit. */
    dailyDepositLimit: p.decimal('string').nullable(),
    selfExcludedUntil: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type PlayerRow = InstanceType<typeof PlayerEntity.class>;

export const KycSubmissionEntity = defineEntity({
  name: 'KycSubmission',
  tableName: 'kyc_submissions',
  schema: 'players',
  properties: {
    id: p.string().primary(),
    playerId: p.string(),
    documentType: p.string().$type<DocumentType>(),
    reference: p.string(),
    createdAt: p.datetime(),
  },
});
export type KycSubmissionRow = InstanceType<typeof KycSubmissionEntity.class>;

/** Every KYC status change with who made it and why (the compliance console's history). */
export const KycHistoryEntity = defineEntity({
  name: 'KycHistory',
  tableName: 'kyc_history',
  schema: 'players',
  properties: {
    id: p.bigint('string').primary().autoincrement(),
    playerId: p.string(),
    previousStatus: p.string().$type<KycStatus>(),
    status: p.string().$type<KycStatus>(),
    /** Who: a person of our team; null for a submission or a sandbox simulation. */
    actor: p.string().nullable(),
    reason: p.string().nullable(),
    at: p.datetime(),
  },
});
export type KycHistoryRow = InstanceType<typeof KycHistoryEntity.class>;

export const playerEntities = [PlayerEntity, KycSubmissionEntity, KycHistoryEntity];
