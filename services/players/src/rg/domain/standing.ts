// What holds a player's status, and the one flow that ends it (docs/console.md, "Which flow ends
// which restriction"). Our team's generic status change (players.admin.status) may not end a
// running self-exclusion, a sanctions freeze or an impediment restriction: each ends only through
// its own flow, with its rules, a reason and its history. Read on the locked player row, in the
// transaction that would change the status, so a self-exclusion committed a moment before is seen.
import { AppError, INDEFINITE_SELF_EXCLUSION_MIN_DAYS, PLAYER_STATUSES, type PlayerStatus, type Standing, type StandingHold } from '@bo/contracts';
import type { StandingFields } from './rows.ts';

/** The status the player's own flows see: under a freeze, the one it holds. */
export function heldStatus(p: StandingFields): PlayerStatus {
  return p.frozenAt ? (p.statusBeforeFreeze ?? p.status) : p.status;
}

/** Sets the status a flow decided; under a freeze it becomes the status the lift goes back to. */
export function setStatus(p: StandingFields, status: PlayerStatus): void {
  if (p.frozenAt) p.statusBeforeFreeze = status;
  else p.status = status;
}

interface Hold {
  heldBy: StandingHold;
  /** What holds it and the flow that ends it, in one sentence (the refusal's message). */
  flow: string;
  details?: Record<string, string>;
}

function holdOf(p: StandingFields): Hold | null {
  if (p.frozenAt) {
    return {
      heldBy: 'sanctions_freeze',
      flow: "A sanctions freeze holds this player's status: only the decision of the player's sanctions case lifts it (POST /admin/aml/cases/{id}/decision, dismissed, with a reason).",
    };
  }
  if (p.restrictedAt) {
    return {
      heldBy: 'impediment',
      flow: "An impediment restriction holds this player's status: the account closes by itself after the withdrawal window, and the person comes back only through a new registration (the impediment rules, docs/eligibility.md).",
    };
  }
  if (p.status === 'autoexcluido' && p.selfExcludedSince) {
    if (p.selfExcludedUntil) {
      const until = p.selfExcludedUntil.toISOString();
      return { heldBy: 'self_exclusion', flow: `A self-exclusion holds this player's status: its term ends by itself at ${until}.`, details: { until } };
    }
    const liftableAt = new Date(p.selfExcludedSince.getTime() + INDEFINITE_SELF_EXCLUSION_MIN_DAYS * 86_400_000).toISOString();
    return {
      heldBy: 'self_exclusion',
      flow: `An indefinite self-exclusion holds this player's status: only compliance lifts it, with a reason, from ${liftableAt} (POST /admin/players/{id}/self-exclusion/lift).`,
      details: { liftableAt },
    };
  }
  return null;
}

/** `restrito` is set only by an impediment hit (the registry, or our list: POST /admin/impediments). */
const ONLY_BY_ITS_FLOW: readonly PlayerStatus[] = ['restrito'];

export function standingOf(p: StandingFields): Standing {
  const hold = holdOf(p);
  if (hold) return { heldBy: hold.heldBy, flow: hold.flow, statuses: [p.status] };
  return { heldBy: null, flow: null, statuses: PLAYER_STATUSES.filter((s) => s === p.status || !ONLY_BY_ITS_FLOW.includes(s)) };
}

/** Throws 409 STANDING_HAS_OWN_FLOW when the generic status change may not set `status` now. */
export function assertGenericChange(p: StandingFields, status: PlayerStatus): void {
  if (status === p.status) return;
  const hold = holdOf(p);
  if (hold) throw new AppError('STANDING_HAS_OWN_FLOW', hold.flow, { heldBy: hold.heldBy, status: p.status, ...hold.details });
  if (ONLY_BY_ITS_FLOW.includes(status)) {
    throw new AppError(
      'STANDING_HAS_OWN_FLOW',
      'A player becomes restrito only through an impediment hit: the registry, or our internal impediments list (POST /admin/impediments).',
      { heldBy: 'impediment', status: p.status },
    );
  }
}
