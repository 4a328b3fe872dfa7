// The unclaimed module's settings, part of the wallet's configuration (../config.ts): the periods of
// IN SPA/MF 31/2025 after an account is closed for an impediment (docs/eligibility.md, "After a hit").
import { Type, type Static } from '@sinclair/typebox';

export const UnclaimedConfigSchema = Type.Object({
  /** After the closing, the operator has this long to return the balance to the bettor's own account; what is left then is held. */
  UNCLAIMED_RETURN_DAYS: Type.Integer({ default: 2, minimum: 0, maximum: 365 }),
  /** A held balance the bettor did not claim goes to FIES and FUNCAP this long after it was held. */
  UNCLAIMED_HOLD_DAYS: Type.Integer({ default: 180, minimum: 1, maximum: 3650 }),
  /** How often each replica runs the unclaimed-funds job (our team also runs it: POST /admin/jobs/unclaimed-funds); 0: never by itself. */
  UNCLAIMED_FUNDS_INTERVAL_MS: Type.Integer({ default: 3_600_000, minimum: 0 }),
});
export type UnclaimedConfig = Static<typeof UnclaimedConfigSchema>;
