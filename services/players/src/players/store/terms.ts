// A brand's terms versions and a player's acceptances (issue 46; docs/players.md "Terms versions")
// through the entities (the ORM); what a player has to accept next is read in SQL (terms-due.ts).
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId, validationError, type TermsAcceptance, type TermsAcceptanceInput, type PublishTermsVersion, type TermsVersion } from '@bo/contracts';
import { versionInForce, versionStatus } from '../domain/terms.ts';
import { TermsAcceptanceEntity, TermsVersionEntity, type TermsAcceptanceRow, type TermsVersionRow } from '../../store/index.ts';

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

/** A new version of the brand's terms, written at the caller's flush. */
export function recordVersion(
  tx: EntityManager,
  brand: { operatorId: string; brandId: string },
  input: Pick<PublishTermsVersion, 'version' | 'url'>,
  publishedAt: Date,
  now: Date,
): TermsVersionRow {
  return tx.create(TermsVersionEntity, {
    id: newId('termsVersion'),
    operatorId: brand.operatorId,
    brandId: brand.brandId,
    version: input.version,
    publishedAt,
    url: input.url ?? null,
    createdAt: now,
  });
}
