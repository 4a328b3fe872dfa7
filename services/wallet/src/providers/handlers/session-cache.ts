// A provider session's facts, kept per wallet replica once a bet on it was let through, so the
// next bets on the same token skip the session's read (a statement per bet). Only what does not
// change is used from here: the session's player, brand, operator, currency and game (a game's id
// under its code never changes, a provider's kind neither), and its end as this replica last moved
// it (a bet moves it on: issue #59 item 4; another replica's later end only makes this copy read
// the session again sooner). What can change (the session's expiry,
// the provider enabled, its offer to the operator, the game enabled) is checked again by the bet's
// own statement (store/postings.ts, `BetPosting.recheck`), which writes nothing when one no longer
// holds: the bet then reads the session afresh and answers the refusal it finds (handlers/bet.ts).
import type { SessionStanding } from '../store/reads.ts';

const MAX_SESSIONS = 10_000;

export interface SessionCache {
  /** The session kept under this key, while it has not expired at `now`. */
  get(key: string, now: Date): SessionStanding | undefined;
  keep(key: string, session: SessionStanding): void;
}

/** The key of a bet's session read: the token is the provider's in one environment, the game is the bet's. */
export const sessionKey = (providerId: string, environment: string, tokenHash: string, gameCode: string) =>
  `${providerId}\u0000${environment}\u0000${tokenHash}\u0000${gameCode}`;

export function sessionCache(max = MAX_SESSIONS): SessionCache {
  const sessions = new Map<string, SessionStanding>();
  return {
    get(key, now) {
      const s = sessions.get(key);
      if (s && s.expiresAt.getTime() <= now.getTime()) {
        sessions.delete(key);
        return undefined;
      }
      return s;
    },
    keep(key, session) {
      // The oldest kept first out (a Map iterates in insertion order).
      if (!sessions.has(key) && sessions.size >= max) sessions.delete(sessions.keys().next().value!);
      sessions.set(key, session);
    },
  };
}
