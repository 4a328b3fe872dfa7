// A player's marketing permission (issue #60 item 2; docs/players.md, "Marketing permission"): the
// bettor's consent, and what keeps it off whatever the consent. Plain rules over the player's row.
import type { MarketingBlock, MarketingPermission, PlayerStatus } from '@bo/contracts';

export interface MarketingFields {
  status: PlayerStatus;
  statusBeforeFreeze?: PlayerStatus | null;
  selfExcludedSince?: Date | null;
  selfExcludedUntil?: Date | null;
  pausedUntil?: Date | null;
  restrictedAt?: Date | null;
  marketingConsent: boolean;
  marketingConsentChangedAt?: Date | null;
}

/** What keeps the player from marketing now: an impediment, the closing, a self-exclusion, a pause (in that order), or nothing. */
export function marketingBlockOf(p: MarketingFields, now: Date): MarketingBlock | null {
  if (p.restrictedAt) return 'impediment';
  if (p.status === 'encerrado') return 'closed';
  const selfExcluded =
    p.selfExcludedSince != null ||
    p.status === 'autoexcluido' ||
    p.statusBeforeFreeze === 'autoexcluido' ||
    (p.selfExcludedUntil != null && p.selfExcludedUntil.getTime() > now.getTime());
  if (selfExcluded) return 'self_exclusion';
  if (p.pausedUntil != null && p.pausedUntil.getTime() > now.getTime()) return 'pause';
  return null;
}

export function marketingPermission(p: MarketingFields, now: Date): MarketingPermission {
  const blockedBy = marketingBlockOf(p, now);
  return {
    consent: p.marketingConsent,
    allowed: p.marketingConsent && blockedBy === null,
    blockedBy,
    consentChangedAt: p.marketingConsentChangedAt ? p.marketingConsentChangedAt.toISOString() : null,
  };
}
