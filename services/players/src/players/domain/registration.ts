// The registration data a br-spa player must have (Portaria SPA/MF 1.231/2024 art. 31 as amended by
// 2.579/2025; docs/players.md, "Registration data"): what a registration lacks, and the values the
// operator sends as they are kept. Plain rules over the player's fields.
import {
  REGISTRATION_FIELDS,
  REGISTRATION_ITEMS,
  type PlayerPostalAddress,
  type RegistrationField,
  type RegistrationItem,
  type RegistrationStatus,
} from '@bo/contracts';

/** The fields of a player that the rule reads. */
export interface RegistrationFields {
  phone?: string | null;
  gender?: string | null;
  signupIp?: string | null;
  address?: PlayerPostalAddress | null;
}

/** The registration fields the player lacks, in REGISTRATION_FIELDS' order. */
export function missingFields(p: RegistrationFields): RegistrationField[] {
  return REGISTRATION_FIELDS.filter((f) => p[f] == null || p[f] === '');
}

/**
 * What the player lacks, fields and required limits together (`loss`, `time`: the types with no limit
 * in force), in REGISTRATION_ITEMS' order: what the Player's `registration` and
 * `player.registration_incomplete` say.
 */
export function missingItems(p: RegistrationFields, limitTypesInForce: ReadonlySet<string>): RegistrationItem[] {
  const fields = new Set<string>(missingFields(p));
  return REGISTRATION_ITEMS.filter((i) => (i === 'loss' || i === 'time' ? !limitTypesInForce.has(i) : fields.has(i)));
}

export function registrationStatus(missing: readonly RegistrationItem[]): RegistrationStatus {
  return { complete: missing.length === 0, missing: [...missing] };
}

/** An address as kept: the CEP as its 8 digits, optional parts only when given. */
export function keptAddress(a: PlayerPostalAddress): PlayerPostalAddress {
  return {
    street: a.street,
    number: a.number,
    ...(a.complement ? { complement: a.complement } : {}),
    district: a.district,
    city: a.city,
    state: a.state,
    postalCode: a.postalCode.replace('-', ''),
  };
}

/** Whether two kept values are the same (addresses compared field by field). */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
