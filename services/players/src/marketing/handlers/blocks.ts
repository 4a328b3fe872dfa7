// A block's effect on marketing (issue #60 item 2): when a self-exclusion, a pause, an impediment
// restriction or the closing begins, the bettor's consent is forced off (a `player.marketing_changed`
// when it was on) and the block's time is recorded for the suppression list; when the block ends, its
// time ends (the consent stays off until the bettor gives it again). In the caller's transaction, on the
// player's locked row, with the change that begins or ends the block.
import type { MarketingBlock } from '@bo/contracts';
import { sqlIn, writeEvent, type ServiceDeps } from '@bo/service-kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlayerRow } from '../../store/index.ts';
import { marketingPermission } from '../domain/marketing.ts';
import { recordConsentChange } from '../store/consent-changes.ts';
import { beginSuppression, endSuppression } from '../store/suppressions.ts';

/** `until`: the block's known end (a pause, a fixed-term self-exclusion); null while it has none. */
export async function beginMarketingBlock(
  tx: EntityManager,
  deps: Pick<ServiceDeps, 'schema'>,
  player: PlayerRow,
  block: MarketingBlock,
  now: Date,
  until: Date | null,
): Promise<void> {
  await beginSuppression(sqlIn(tx), player, block, now, until);
  if (!player.marketingConsent) return;
  player.marketingConsent = false;
  player.marketingConsentChangedAt = now;
  recordConsentChange(tx, {
    playerId: player.id,
    oldValue: true,
    newValue: false,
    by: 'system',
    actor: null,
    requestId: null,
    at: now,
  });
  // The consent withdrawn by the block stays withdrawn after it: the suppression list says so from now.
  await beginSuppression(sqlIn(tx), player, 'consent_withdrawn', now, null);
  await tx.flush();
  const view = marketingPermission(player, now);
  await writeEvent(
    sqlIn(tx),
    deps.schema,
    { operatorId: player.operatorId, brandId: player.brandId, environment: player.environment },
    'player.marketing_changed',
    {
      playerId: player.id,
      externalId: player.externalId,
      consent: false,
      allowed: false,
      blockedBy: view.blockedBy ?? block,
      reason: block,
      at: now.toISOString(),
    },
  );
}

/** The block ended at `at` (a self-exclusion's end, a closed account reopened by our team). */
export async function endMarketingBlock(tx: EntityManager, playerId: string, block: MarketingBlock, at: Date): Promise<void> {
  await endSuppression(sqlIn(tx), playerId, block, at);
}
