// Rows → the contract's shapes. Only the contract's fields leave the service (the Player object
// is closed), timestamps as ISO 8601 UTC with milliseconds, money with exactly 2 decimals.
import type { KycRecord, Player } from '@bo/contracts';
import { formatMoney } from '@bo/service-kit';
import type { KycSubmissionFields, PlayerFields } from './rows.ts';

export function toPlayer(row: PlayerFields): Player {
  return {
    id: row.id,
    externalId: row.externalId,
    name: row.name,
    email: row.email,
    cpf: row.cpf,
    phone: row.phone ?? null,
    birthDate: row.birthDate ?? null,
    status: row.status,
    kycStatus: row.kycStatus,
    currency: row.currency,
    createdAt: row.createdAt.toISOString(),
    // Given at registration only (issue 46): absent otherwise, so older players read as before.
    ...(row.gender ? { gender: row.gender } : {}),
    ...(row.signupIp ? { signupIp: row.signupIp } : {}),
  };
}

export function toKycSubmission(row: KycSubmissionFields): KycRecord['submissions'][number] {
  return { id: row.id, documentType: row.documentType, reference: row.reference, createdAt: row.createdAt.toISOString() };
}

/** Submissions must already be newest first. */
export function toKycRecord(player: PlayerFields, submissions: KycSubmissionFields[]): KycRecord {
  return {
    playerId: player.id,
    status: player.kycStatus,
    submissions: submissions.map(toKycSubmission),
    updatedAt: player.kycUpdatedAt.toISOString(),
  };
}

export interface PlayerLimits {
  playerId: string;
  dailyDepositLimit: string | null;
  selfExcludedUntil: string | null;
}

/** v1.1's view of the limits: the deposit/day limit in force (`depositPerDay`) and our team's self-exclusion date. */
export function toLimits(row: PlayerFields, depositPerDay: string | null): PlayerLimits {
  return {
    playerId: row.id,
    dailyDepositLimit: depositPerDay == null ? null : formatMoney(depositPerDay),
    selfExcludedUntil: row.selfExcludedUntil ? row.selfExcludedUntil.toISOString() : null,
  };
}
