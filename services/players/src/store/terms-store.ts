// A brand's terms versions and a player's acceptances (issue 46; docs/players.md "Terms versions").
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId, validationError, type TermsAcceptance, type TermsAcceptanceInput, type TermsDue, type TermsVersion } from '@bo/contracts';
import { sqlIn } from '@bo/service-kit';
import { termsDue, versionInForce, versionStatus } from '../domain/terms.ts';
import { TermsAcceptanceEntity, TermsVersionEntity, type PlayerRow, type TermsAcceptanceRow, type TermsVersionRow } from './entities.ts';

/** An acceptance reported a little ahead of our clock is the two clocks' skew, not a future time. */
const CLOCK_SKEW_MS = 60_000;

/** The brand's versions, newest publication first. */
export async function brandVersions(em: EntityManager, brandId: string): Promise<TermsVersionRow[]> {
  return em.find(TermsVersionEntity, { brandId }, { orderBy: { publishedAt: 'desc', createdAt: 'desc', id: 'desc' } });
}

export function toTermsVersion(row: TermsVersionRow, inForce: TermsVersionRow | null, now: Date): TermsVersion {
  return {
    id: row.id,
    version: row.version,
    publishedAt: row.publishedAt.toISOString(),
    url: row.url ?? null,
    status: versionStatus(row, inForce, now),
    createdAt: row.createdAt.toISOString(),
  };
}

export function toTermsVersions(rows: TermsVersionRow[], now: Date): TermsVersion[] {
  const inForce = versionInForce(rows, now);
  return rows.map((r) => toTermsVersion(r, inForce, now));
}

export function toAcceptance(row: TermsAcceptanceRow): TermsAcceptance {
  return {
    id: row.id,
    playerId: row.playerId,
    version: row.version,
    acceptedAt: row.acceptedAt.toISOString(),
    ip: row.ip,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Newest acceptance first. */
export async function acceptancesOf(em: EntityManager, playerId: string): Promise<TermsAcceptanceRow[]> {
  return em.find(TermsAcceptanceEntity, { playerId }, { orderBy: { acceptedAt: 'desc', id: 'desc' } });
}

/**
 * When the bettor accepted a version the brand has published: 422 naming the field otherwise. `at`
 * is the body path the input came from (`/termsAccepted` at registration, empty on its own route).
 * Versions are never deleted, so an answer holds for the transaction that records it.
 */
export async function acceptedAtOf(em: EntityManager, brandId: string, input: TermsAcceptanceInput, now: Date, at = ''): Promise<Date> {
  const version = await em.findOne(TermsVersionEntity, { brandId, version: input.version });
  if (!version || version.publishedAt.getTime() > now.getTime()) {
    throw validationError('body', [{ path: `${at}/version`, message: 'no terms version of this name has been published by the brand' }]);
  }
  const acceptedAt = input.acceptedAt ? new Date(input.acceptedAt) : now;
  if (acceptedAt.getTime() > now.getTime() + CLOCK_SKEW_MS) throw validationError('body', [{ path: `${at}/acceptedAt`, message: 'must not be in the future' }]);
  if (acceptedAt.getTime() < version.publishedAt.getTime()) {
    throw validationError('body', [{ path: `${at}/acceptedAt`, message: 'must not be before the version was published' }]);
  }
  return acceptedAt;
}

/** The acceptance row, written at the caller's flush (`acceptedAt` from acceptedAtOf). */
export function recordAcceptance(tx: EntityManager, playerId: string, input: TermsAcceptanceInput, acceptedAt: Date, now: Date): TermsAcceptanceRow {
  return tx.create(TermsAcceptanceEntity, { id: newId('termsAcceptance'), playerId, version: input.version, acceptedAt, ip: input.ip, createdAt: now });
}

/** What players.state says under br-spa: the version the player must accept next, and from when. One statement. */
export async function termsDueOf(em: EntityManager, player: PlayerRow, now: Date): Promise<TermsDue | null> {
  const rows = await sqlIn(em).query<{ id: string; version: string; published_at: Date; created_at: Date; accepted: boolean }>(
    `select v.id, v.version, v.published_at, v.created_at,
            exists (select 1 from players.terms_acceptances a where a.player_id = ? and a.version = v.version) as accepted
       from players.terms_versions v where v.brand_id = ?`,
    [player.id, player.brandId],
  );
  const versions = rows.map((r) => ({ id: r.id, version: r.version, publishedAt: new Date(r.published_at), createdAt: new Date(r.created_at) }));
  return termsDue(versions, new Set(rows.filter((r) => r.accepted).map((r) => r.version)), now);
}
