// PUT /players/{playerId}/marketing-consent (idempotent): the bettor gives or withdraws marketing
// consent through the operator. Given while a block lasts: 409 MARKETING_BLOCKED (Portaria SPA/MF
// 1.231/2024, IN SPA/MF 31/2025: no marketing to excluded bettors). Each change is kept (who, when),
// the suppression list follows it, and `player.marketing_changed` tells the operator.
import { AppError, type marketingOperations } from '@bo/contracts';
import { operatorScopeOf, ormTransactor, requestKeyOf, ruleClock, runOnce, sqlIn, writeEvent, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { lockPlayer } from '../../store/index.ts';
import { marketingBlockOf, marketingPermission } from '../domain/marketing.ts';
import { recordConsentChange } from '../store/consent-changes.ts';
import { beginSuppression, endSuppression } from '../store/suppressions.ts';

/**
 * Gives or withdraws the locked player's consent (flushed here): kept with who and when, the
 * suppression list follows it, and `player.marketing_changed` tells the operator. The PUT and a data
 * request's deletion (privacy/: the consent withdrawn) both change it through here.
 */
export async function changeMarketingConsent(
  tx: Parameters<typeof recordConsentChange>[0],
  deps: ServiceDeps,
  player: Awaited<ReturnType<typeof lockPlayer>>,
  consent: boolean,
  author: { by: 'operator' | 'team'; actor: string; requestId: string },
  now: Date,
) {
  recordConsentChange(tx, { playerId: player.id, oldValue: player.marketingConsent, newValue: consent, ...author, at: now });
  player.marketingConsent = consent;
  player.marketingConsentChangedAt = now;
  player.updatedAt = now;
  if (consent) await endSuppression(sqlIn(tx), player.id, 'consent_withdrawn', now);
  else await beginSuppression(sqlIn(tx), player, 'consent_withdrawn', now, null);
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
      consent: view.consent,
      allowed: view.allowed,
      blockedBy: view.blockedBy,
      reason: consent ? 'consent_given' : 'consent_withdrawn',
      at: now.toISOString(),
    },
  );
  return view;
}

export function setMarketingConsent(deps: ServiceDeps): HandlerOf<typeof marketingOperations.setMarketingConsent> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const consent = req.body.consent;
    return runOnce(ormTransactor(deps.orm.em), deps.schema, requestKeyOf(req.ctx), 'players.marketing.setConsent', async (tx) => {
      const player = await lockPlayer(tx, { id: req.params.playerId, brandId: scope.brandId });
      const now = ruleClock.now();
      const blockedBy = marketingBlockOf(player, now);
      if (consent && blockedBy) throw new AppError('MARKETING_BLOCKED', undefined, { blockedBy });
      if (player.marketingConsent === consent) return { status: 200, body: marketingPermission(player, now) };
      const view = await changeMarketingConsent(
        tx,
        deps,
        player,
        consent,
        { by: 'operator', actor: `operator:${scope.operatorId}`, requestId: req.ctx.requestId },
        now,
      );
      return { status: 200, body: view };
    });
  };
}
