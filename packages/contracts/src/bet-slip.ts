// A sports bet slip and the outcomes of a sports bet (issue #44): used by the provider wallet API
// (providers.ts), what operators read (provider-reads.ts) and the sports bet webhooks (events.ts).
// A module of its own so events.ts imports it without providers.ts' imports.
import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './common.ts';

/** A sports bet slip, kept with the bet (br-spa: listed in the regulator file). */
export const BetSlipSchema = Type.Object(
  {
    sport: Type.String({ minLength: 1, maxLength: 64 }),
    event: Type.String({ minLength: 1, maxLength: 256 }),
    market: Type.String({ minLength: 1, maxLength: 128 }),
    selection: Type.String({ minLength: 1, maxLength: 128 }),
    odds: Type.String({ pattern: '^[0-9]{1,6}(\\.[0-9]{1,4})?$', description: 'Decimal odds, e.g. 2.35' }),
    eventStartsAt: Timestamp,
  },
  { additionalProperties: false, $id: 'BetSlip' },
);
export type BetSlip = Static<typeof BetSlipSchema>;

export const SPORTS_OUTCOMES = ['won', 'lost', 'void', 'cashout', 'half_won', 'half_lost'] as const;
export type SportsOutcome = (typeof SPORTS_OUTCOMES)[number];
