// What holds a player's status, and the one flow that ends it (docs/console.md, "Which flow ends
// which restriction"). Our team's generic status change (players.admin.status) may not end a
// running self-exclusion, a sanctions freeze or an impediment restriction, nor set `restrito` or
// `autoexcluido` (each reached only through its flow): each ends only through its own flow, with
// its rules, a reason and its history. Read on the locked player row, in the transaction that would
// change the status, so a self-exclusion committed a moment before is seen.
import {
  AppError,
  INDEFINITE_SELF_EXCLUSION_MIN_DAYS,
  PLAYER_STATUSES,
  SELF_EXCLUSION_REPEAT_HOURS,
  validationError,
  type PlayerStatus,
  type Standing,
  type StandingHold,
} from '@bo/contracts';
import type { StandingFields } from './rows.ts';

/** The status the player's own flows see: under a freeze, the one it holds. */
export function heldStatus(p: StandingFields): PlayerStatus {
  return p.frozenAt ? (p.statusBeforeFreeze ?? p.status) : p.status;
}

/**
 * Sets the status a flow decided; under a freeze it becomes the status the lift goes back to. Under
 * an impediment restriction it changes nothing: `restrito` (then `encerrado`) ends only by the
 * closing, so a self-exclusion begun or ended meanwhile is recorded without touching the status.
 */
export function setStatus(p: StandingFields, status: PlayerStatus): void {
  if (p.restrictedAt && status !== 'restrito') return;
  if (p.frozenAt) p.statusBeforeFreeze = status;
  else p.status = status;
}

/**
 * A self-exclusion begins (its start and end are the caller's): `autoexcluido` in place of the status
 * in force (`ativo`, or our team's `suspenso` or `bloqueado`), which it keeps for its end, as a freeze
 * keeps `statusBeforeFreeze`; under a freeze that status is the one the freeze holds. One already
 * running keeps what it kept. A closed account stays `encerrado` and a restricted one `restrito` (a
 * closed CPF may be registered again, so its status may not come back from `encerrado`): the
 * self-exclusion is recorded, and holds the status until it ends (holdOf).
 */
export function beginSelfExclusion(p: StandingFields): void {
  const held = heldStatus(p);
  if (held === 'autoexcluido' || held === 'encerrado' || p.restrictedAt) return;
  p.statusBeforeSelfExclusion = held;
  setStatus(p, 'autoexcluido');
}

/** The status a self-exclusion's end leaves: the one it replaced (`ativo` when none was kept), or the status as it is where it replaced none. */
export function statusAfterSelfExclusion(p: StandingFields): PlayerStatus {
  const held = heldStatus(p);
  return held === 'autoexcluido' ? (p.statusBeforeSelfExclusion ?? 'ativo') : held;
}

/**
 * A self-exclusion ends (its term ran out, or compliance lifted it): the status it replaced comes
 * back, never `ativo` in place of a suspension or a block of our team's; under a freeze it becomes the
 * status the lift goes back to; `restrito` and `encerrado` stay as they are.
 */
export function endSelfExclusion(p: StandingFields): void {
  const after = statusAfterSelfExclusion(p);
  p.selfExcludedSince = null;
  p.selfExcludedUntil = null;
  p.statusBeforeSelfExclusion = null;
  if (after !== heldStatus(p)) setStatus(p, after);
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
  // Also a closed account's self-exclusion (beginSelfExclusion): it is not reopened while one runs.
  if (p.status === 'autoexcluido' || p.selfExcludedSince != null) return selfExclusionHold(p);
  return null;
}

/** The running self-exclusion's hold: the flow that ends it, from its end or its start. */
function selfExclusionHold(p: StandingFields): Hold {
  const hold = runningSelfExclusionHold(p);
  return { ...hold, flow: `${hold.flow}${afterItsEnd(p)}` };
}

/** What the self-exclusion's end leaves, when not ativo: our team reads that its own status comes back. */
function afterItsEnd(p: StandingFields): string {
  const after = statusAfterSelfExclusion(p);
  if (after === 'ativo') return '';
  return heldStatus(p) === 'autoexcluido'
    ? ` When it ends, the player goes back to ${after}, the status before it.`
    : ` When it ends, the player stays ${after}.`;
}

function runningSelfExclusionHold(p: StandingFields): Hold {
  if (p.selfExcludedUntil) {
    const until = p.selfExcludedUntil.toISOString();
    return { heldBy: 'self_exclusion', flow: `A self-exclusion holds this player's status: its term ends by itself at ${until}.`, details: { until } };
  }
  if (!p.selfExcludedSince) {
    // No record behind it (a status set by hand before issue #56; migration 0017 records them): the lift still.
    return {
      heldBy: 'self_exclusion',
      flow: "A self-exclusion holds this player's status: only compliance lifts it, with a reason (POST /admin/players/{id}/self-exclusion/lift).",
    };
  }
  const liftableAt = new Date(p.selfExcludedSince.getTime() + INDEFINITE_SELF_EXCLUSION_MIN_DAYS * 86_400_000).toISOString();
  return {
    heldBy: 'self_exclusion',
    flow: `An indefinite self-exclusion holds this player's status: only compliance lifts it, with a reason, from ${liftableAt} (POST /admin/players/{id}/self-exclusion/lift).`,
    details: { liftableAt },
  };
}

/** The statuses only a flow sets, and the refusal that names it. */
const ONLY_BY_ITS_FLOW: Partial<Record<PlayerStatus, { heldBy: StandingHold; flow: string }>> = {
  restrito: {
    heldBy: 'impediment',
    flow: 'A player becomes restrito only through an impediment hit: the registry, or our internal impediments list (POST /admin/impediments).',
  },
  autoexcluido: {
    heldBy: 'self_exclusion',
    flow: "A player becomes autoexcluido only through a self-exclusion: the player's, through the operator (POST /players/{id}/self-exclusion), or a date on our team's limits form (PUT /admin/players/{id}/limits, selfExcludedUntil).",
  },
};

export function standingOf(p: StandingFields): Standing {
  const hold = holdOf(p);
  if (hold) return { heldBy: hold.heldBy, flow: hold.flow, statuses: [p.status] };
  return { heldBy: null, flow: null, statuses: PLAYER_STATUSES.filter((s) => s === p.status || !ONLY_BY_ITS_FLOW[s]) };
}

/** Throws 409 STANDING_HAS_OWN_FLOW when the generic status change may not set `status` now. */
export function assertGenericChange(p: StandingFields, status: PlayerStatus): void {
  if (status === p.status) return;
  const hold = holdOf(p);
  if (hold) throw new AppError('STANDING_HAS_OWN_FLOW', hold.flow, { heldBy: hold.heldBy, status: p.status, ...hold.details });
  const only = ONLY_BY_ITS_FLOW[status];
  if (only) throw new AppError('STANDING_HAS_OWN_FLOW', only.flow, { heldBy: only.heldBy, status: p.status });
}

/**
 * The self-exclusion in force, whatever began it: its record (also under a freeze, or an impediment
 * restriction whose status it leaves as is), an `autoexcluido` set by hand before issue #56 (no
 * record: without end), or a v1.1 date of our team's alone, still ahead (`dateAlone`). Null: none.
 * A request of the player's or our team's compares with its end; neither shortens it.
 */
export function runningSelfExclusion(p: StandingFields, now: Date): { until: Date | null; dateAlone: boolean } | null {
  if (p.selfExcludedSince != null || heldStatus(p) === 'autoexcluido') return { until: p.selfExcludedUntil ?? null, dateAlone: false };
  if (p.selfExcludedUntil && p.selfExcludedUntil.getTime() > now.getTime()) return { until: p.selfExcludedUntil, dateAlone: true };
  return null;
}

/**
 * Our team's older limits form (PUT /admin/players/{id}/limits, `selfExcludedUntil`) against the
 * running self-exclusion: it may start one or move its end later, never end or shorten it.
 * - none runs: null changes nothing; a date past is refused (422); a date ahead starts one;
 * - one runs: an end at least SELF_EXCLUSION_REPEAT_HOURS later extends it (a v1.1 date alone:
 *   a self-exclusion starts, until then); one within that much of the running end is the same term
 *   again (the console's date field sends the day at 00:00 UTC); anything else (null, an earlier
 *   date, a date in place of no end) is 409 STANDING_HAS_OWN_FLOW naming the flow that ends it.
 */
export function teamSelfExclusionChange(p: StandingFields, requested: Date | null, now: Date): 'none' | 'unchanged' | 'started' | 'extended' {
  const running = runningSelfExclusion(p, now);
  if (!running) {
    if (requested === null) return 'none';
    if (requested.getTime() <= now.getTime()) {
      throw validationError('body', [{ path: '/selfExcludedUntil', message: 'must be ahead: a date starts a self-exclusion until then' }]);
    }
    return 'started';
  }
  const current = running.until;
  if (current === null && requested === null) return 'unchanged';
  if (current !== null && requested !== null) {
    const later = requested.getTime() - current.getTime();
    if (later >= SELF_EXCLUSION_REPEAT_HOURS * 3_600_000) return running.dateAlone ? 'started' : 'extended';
    if (later > -SELF_EXCLUSION_REPEAT_HOURS * 3_600_000) return 'unchanged';
  }
  const hold = running.dateAlone
    ? { heldBy: 'self_exclusion' as const, flow: `Our team's self-exclusion date holds this player until ${current!.toISOString()}: it ends by itself then.` }
    : selfExclusionHold(p);
  throw new AppError(
    'STANDING_HAS_OWN_FLOW',
    `Our team's limits form may start a self-exclusion or move its end later, never end or shorten one. ${hold.flow}`,
    { heldBy: hold.heldBy, status: p.status, until: current?.toISOString() ?? null, ...hold.details },
  );
}
