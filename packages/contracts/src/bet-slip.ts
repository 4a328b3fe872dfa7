// A sports bet slip and the outcomes of a sports bet (issue #44): used by the provider wallet API
// (providers.ts), what operators read (provider-reads.ts) and the sports bet webhooks (events.ts).
// A module of its own so events.ts imports it without providers.ts' imports.
import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './common.ts';

const Odds = Type.String({ pattern: '^[0-9]{1,6}(\\.[0-9]{1,4})?$', description: 'Decimal odds, e.g. 2.35' });

/** One selection of a slip: the event, market and selection bet on, at its odds. */
export const BetLegSchema = Type.Object(
  {
    sport: Type.String({ minLength: 1, maxLength: 64 }),
    event: Type.String({ minLength: 1, maxLength: 256 }),
    market: Type.String({ minLength: 1, maxLength: 128 }),
    selection: Type.String({ minLength: 1, maxLength: 128 }),
    odds: Odds,
    eventStartsAt: Timestamp,
  },
  { additionalProperties: false, $id: 'BetLeg' },
);
export type BetLeg = Static<typeof BetLegSchema>;

export const BET_TYPES = ['single', 'multiple', 'system'] as const;
export type BetType = (typeof BET_TYPES)[number];

/**
 * A sports bet slip, kept with the bet (br-spa: listed in the regulator file). Its own members
 * describe the slip as one line (a single's selection; a multiple's or system's summary: its
 * events, markets and selections joined, the slip's odds, its first event's start); `betType` and
 * `legs` (issue #58, added: a slip without them is a single) list each selection.
 */
export const BetSlipSchema = Type.Object(
  {
    sport: Type.String({ minLength: 1, maxLength: 64 }),
    event: Type.String({ minLength: 1, maxLength: 256 }),
    market: Type.String({ minLength: 1, maxLength: 128 }),
    selection: Type.String({ minLength: 1, maxLength: 128 }),
    odds: Odds,
    eventStartsAt: Timestamp,
    betType: Type.Optional(
      Type.Union(
        BET_TYPES.map((b) => Type.Literal(b)),
        { description: 'single (absent: single), multiple (an accumulator) or system.' },
      ),
    ),
    legs: Type.Optional(
      Type.Array(BetLegSchema, {
        minItems: 1,
        maxItems: 50,
        description: "The slip's selections, one per event (a single's one leg repeats the slip's members).",
      }),
    ),
  },
  { additionalProperties: false, $id: 'BetSlip' },
);
export type BetSlip = Static<typeof BetSlipSchema>;

export const SPORTS_OUTCOMES = ['won', 'lost', 'void', 'cashout', 'half_won', 'half_lost'] as const;
export type SportsOutcome = (typeof SPORTS_OUTCOMES)[number];
