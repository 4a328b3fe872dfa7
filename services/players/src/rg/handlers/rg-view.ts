// The responsible-gaming view the API shows (the operator's GET, each change's answer, our team's
// console): the limits in force with the current period's usage, asked of the services that count
// it, pending changes, pause, self-exclusion.
import {
  PAYMENTS_RG_USAGE_SUBJECT,
  WALLET_RG_USAGE_SUBJECT,
  type OperatorCompliance,
  type ResponsibleGaming,
  type RgUsage,
  type RgUsageRequest,
} from '@bo/contracts';
import type { ServiceDeps, SqlRunner } from '@bo/service-kit';
import type { PlayersConfig } from '../../config.ts';
import type { PlayerRow, RgLimitRow } from '../../store/index.ts';
import { centralSelfExclusionUrl } from '../domain/compliance-profile.ts';
import { realityCheckMinutesOf, settledLimits } from '../domain/limits-view.ts';
import { shownValue, type SettledLimit } from '../domain/rg-limits.ts';
import { periodEnds } from '../store/periods.ts';

/** Usage of the current periods from the services that count it: deposits (payments), stakes, losses and time (wallet). */
async function usageOf(deps: ServiceDeps, player: PlayerRow, timeZone: string, now: Date, limits: SettledLimit[]): Promise<Map<string, string>> {
  const ask: RgUsageRequest = { brandId: player.brandId, playerId: player.id, timeZone, at: now.toISOString() };
  const subjects = [
    ...(limits.some((l) => l.type === 'deposit') ? [PAYMENTS_RG_USAGE_SUBJECT] : []),
    ...(limits.some((l) => l.type !== 'deposit') ? [WALLET_RG_USAGE_SUBJECT] : []),
  ];
  const answers = await Promise.all(subjects.map((s) => deps.call<RgUsage>(s, ask)));
  return new Map(answers.flatMap((a) => a.usage.map((u) => [`${u.type}:${u.period}`, u.used] as const)));
}

/**
 * The API's view: limits in force with the current period's usage, pending changes, pause,
 * self-exclusion. `sql` is the caller's transaction when it holds one: a second connection taken
 * while a transaction holds the first starves the pool under concurrent changes.
 */
export async function rgView(
  deps: ServiceDeps<PlayersConfig>,
  player: PlayerRow,
  compliance: OperatorCompliance,
  rows: RgLimitRow[],
  now: Date,
  sql: SqlRunner = deps.sql,
): Promise<ResponsibleGaming> {
  const limits = settledLimits(rows, now);
  const [ends, usage] =
    limits.length > 0
      ? await Promise.all([periodEnds(sql, compliance.timeZone, now), usageOf(deps, player, compliance.timeZone, now, limits)])
      : [undefined, new Map()];
  // Its record, whatever the status: also one a freeze, an impediment restriction or a closed account holds (domain/standing.ts).
  const selfExcluded = player.selfExcludedSince != null;
  return {
    playerId: player.id,
    limits: limits.map((l) => ({
      type: l.type,
      period: l.period,
      value: shownValue(l.type, l.value!),
      used: shownValue(l.type, usage.get(`${l.type}:${l.period}`) ?? '0'),
      resetsAt: ends![l.period],
      pending: l.pending
        ? { value: l.pending.value === null ? null : shownValue(l.type, l.pending.value), effectiveAt: l.pending.effectiveAt.toISOString() }
        : null,
    })),
    pause: player.pausedUntil && player.pausedUntil.getTime() > now.getTime() ? { until: player.pausedUntil.toISOString() } : null,
    selfExclusion: selfExcluded
      ? { since: player.selfExcludedSince!.toISOString(), until: player.selfExcludedUntil ? player.selfExcludedUntil.toISOString() : null }
      : null,
    realityCheckMinutes: realityCheckMinutesOf(player, compliance),
    centralSelfExclusionUrl: centralSelfExclusionUrl(compliance, deps.config.CENTRAL_SELF_EXCLUSION_URL),
  };
}
