// A provider round's facts that never change once it is opened (its player, brand, currency,
// environment, kind, game and who funds it), kept per wallet replica from the bet that opened or
// added to it, so the round's win skips reading the round (a statement per win: the provider
// floor, docs/benchmarks.md). What can change (the round still open, the player's debt to the
// provider) is checked by the win's own statement, which writes nothing or fails `must:round` when
// it does not hold; the win is then tried again with the round read afresh (handlers/settle.ts).
// A stale copy (a sandbox reset deleted the round and another opened under its id) only costs
// that second try: the win's statement names the round's player, brand and currency.
import type { RoundRow } from '../store/reads.ts';

const MAX_ROUNDS = 20_000;

export type RoundFacts = Pick<RoundRow, 'environment' | 'kind' | 'brandId' | 'playerId' | 'currency' | 'gameId' | 'funding'>;

export interface RoundFactsCache {
  get(providerId: string, roundId: string): RoundFacts | undefined;
  keep(providerId: string, roundId: string, facts: RoundFacts): void;
}

const keyOf = (providerId: string, roundId: string) => `${providerId}\u0000${roundId}`;

export function roundFactsCache(max = MAX_ROUNDS): RoundFactsCache {
  const rounds = new Map<string, RoundFacts>();
  return {
    get: (providerId, roundId) => rounds.get(keyOf(providerId, roundId)),
    keep(providerId, roundId, facts) {
      const key = keyOf(providerId, roundId);
      // The oldest kept first out (a Map iterates in insertion order); a round's win is usually its bet's next call.
      if (!rounds.has(key) && rounds.size >= max) rounds.delete(rounds.keys().next().value!);
      rounds.set(key, facts);
    },
  };
}
