// Which terms version is in force, and what a player still has to accept (issue 46): the newest
// version published at or before a moment is the one in force then; under br-spa a player who has
// not accepted it may not deposit or open a game session (docs/players.md, "Terms versions").
import type { TermsDue, TermsVersionStatus } from '@bo/contracts';

export interface PublishedVersion {
  version: string;
  publishedAt: Date;
  createdAt: Date;
  id: string;
}

/** Oldest publication first; a tie goes to the version recorded later (it was published last). */
function byPublication(a: PublishedVersion, b: PublishedVersion): number {
  return a.publishedAt.getTime() - b.publishedAt.getTime() || a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The version in force at `now` (null: none published yet). */
export function versionInForce<V extends PublishedVersion>(versions: readonly V[], now: Date): V | null {
  let current: V | null = null;
  for (const v of [...versions].sort(byPublication)) if (v.publishedAt.getTime() <= now.getTime()) current = v;
  return current;
}

export function versionStatus(v: PublishedVersion, inForce: PublishedVersion | null, now: Date): TermsVersionStatus {
  if (v.publishedAt.getTime() > now.getTime()) return 'scheduled';
  return inForce?.id === v.id ? 'in_force' : 'superseded';
}

/**
 * What the player has to accept next and from when: the version in force if not accepted (due
 * since its publication), else the first scheduled one (due at its publication: the enforcing
 * services compare with their clock, so a scheduled version takes effect without a broadcast).
 */
export function termsDue(versions: readonly PublishedVersion[], accepted: ReadonlySet<string>, now: Date): TermsDue | null {
  const current = versionInForce(versions, now);
  if (current && !accepted.has(current.version)) return { version: current.version, dueAt: current.publishedAt.toISOString() };
  const next = [...versions].sort(byPublication).find((v) => v.publishedAt.getTime() > now.getTime() && !accepted.has(v.version));
  return next ? { version: next.version, dueAt: next.publishedAt.toISOString() } : null;
}
