// Rows → the contract's shapes. Only the contract's fields leave the service (the Player object
// is closed), timestamps as ISO 8601 UTC with milliseconds.
import type { Gender, KycStatus, Player, PlayerPostalAddress, PlayerStatus, RegistrationItem } from '@bo/contracts';
import { marketingPermission, type MarketingFields } from '../../marketing/index.ts';
import { registrationStatus } from './registration.ts';

/** A player as the contract's view reads it: the stored row's fields (the entities are passed as they are; `domain/` imports no store). */
export interface PlayerFields extends MarketingFields {
  id: string;
  externalId: string;
  name: string;
  email: string;
  cpf: string;
  phone?: string | null;
  birthDate?: string | null;
  status: PlayerStatus;
  kycStatus: KycStatus;
  currency: string;
  createdAt: Date;
  gender?: Gender | null;
  signupIp?: string | null;
  address?: PlayerPostalAddress | null;
}

/**
 * `missing`: under br-spa, what the registration still lacks (players/handlers/registration-view.ts);
 * absent under `off`, and the Player then has no `registration`.
 */
export function toPlayer(row: PlayerFields, now: Date = new Date(), missing?: readonly RegistrationItem[]): Player {
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
    ...(row.address ? { address: row.address } : {}),
    ...(missing ? { registration: registrationStatus(missing) } : {}),
    marketing: marketingPermission(row, now),
  };
}
