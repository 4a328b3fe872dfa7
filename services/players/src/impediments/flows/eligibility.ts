// The br-spa eligibility rules on the impediment registry (docs/eligibility.md says each rule's
// source). What an `unavailable` answer means is decided here, per rule, in writing:
// - registration: fail closed (503 IMPEDIMENT_CHECK_UNAVAILABLE): nobody new is let in unchecked;
// - an existing player's first activity of the day: fail open only while the player's last
//   successful check is younger than the grace period (15 days, the sweep's own period); closed after;
// - the sweep: nobody is changed; the player is asked again on the next pass.
// Production brands ask our internal impediments registry first (domain/internal-registry.ts): a hit there
// is `impeded` at once, the SPA registry not asked, whether or not it would answer.
// Every question and answer is recorded (impediment_checks), refusals included. A player found
// impeded is restricted in a transaction; once it commits, the wallet ends the player's open game
// sessions (endGameSessions), as a self-exclusion does.
import { AppError, playerChangedSubject, type Environment, type PlayerChanged } from '@bo/contracts';
import { sqlIn, writeEvent, type ServiceDeps, type SqlRunner } from '@bo/service-kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlayersConfig } from '../../config.ts';
import { lockPlayer, type ImpedimentMoment, type PlayerRow } from '../../store/index.ts';
import { endGameSessions, setStatus } from '../../rg/index.ts';
import { beginMarketingBlock } from '../../marketing/index.ts';
import { dayIn, withdrawalsUntil } from '../domain/days.ts';
import { INTERNAL_HIT, consultsInternalList, type CheckAnswer } from '../domain/internal-registry.ts';
import type { ImpedimentRegistry, RegistryCaller } from '../registry/registry.ts';
import type { ImpedimentSimulator } from '../registry/simulator.ts';
import { checkRecord, recordCheck, type CheckSubject } from '../store/checks.ts';
import { listedCpfs } from '../store/internal-list.ts';

const DAY_MS = 86_400_000;

/** The service's one clock for these rules: tests move it. */
export type Clock = () => Date;

export interface Eligibility {
  /** Sandbox brands always ask the simulator; production brands the configured registry. */
  registryFor(environment: Environment): ImpedimentRegistry;
  simulator: ImpedimentSimulator;
  clock: Clock;
  config: PlayersConfig;
}

/**
 * One CPF's question: our internal list first (production brands), then the brand's registry.
 * `sql` reads the internal list: the caller's transaction's connection when one is open.
 */
export async function askRegistries(sql: SqlRunner, elig: Eligibility, cpf: string, caller: RegistryCaller, environment: Environment): Promise<CheckAnswer> {
  if (consultsInternalList(environment) && (await listedCpfs(sql, [cpf])).has(cpf)) return INTERNAL_HIT;
  return elig.registryFor(environment).check(cpf, caller);
}

const impeded = () => new AppError('PLAYER_IMPEDED');
const unavailable = () => new AppError('IMPEDIMENT_CHECK_UNAVAILABLE');

/**
 * The statement that records a registration's clean check naming the new player, for the caller to
 * run in the registration's transaction (create-player.ts: with the stored answer, runOnce's `withAnswer`).
 */
export type RecordCleanCheck = (playerId: string) => { text: string; params: unknown[] };

/**
 * Registration under br-spa: an impeded CPF (on our internal list or the SPA's) is 403, an outage
 * 503, each recorded at once (the audit row is all a refusal stores). A clean answer is recorded by
 * the caller, in the registration's own transaction (one commit less, and the row names the player).
 * Asked before the registration's transaction opens: the internal list is read on the pool.
 */
export async function checkAtRegistration(deps: ServiceDeps, elig: Eligibility, who: CheckSubject, environment: Environment): Promise<RecordCleanCheck> {
  const answer = await askRegistries(deps.sql, elig, who.cpf, who, environment);
  const at = elig.clock();
  if (answer.result === 'not_impeded') return (playerId) => checkRecord({ ...who, playerId }, 'registration', answer, at);
  await recordCheck(deps.sql, who, 'registration', answer, at);
  throw answer.result === 'impeded' ? impeded() : unavailable();
}

/**
 * The day's check of an existing br-spa player before a login, deposit or game session: at once
 * when the player was checked today (operator's time zone), else one registry question. A hit
 * restricts the player before this answers; an outage is let through only inside the grace period.
 * `asNextDay` (the sandbox's check now) asks even when the player was checked today, as the next
 * day's first login would. The registry's answer, or `checked_today` when nobody was asked.
 */
export async function checkToday(
  deps: ServiceDeps,
  elig: Eligibility,
  player: PlayerRow,
  moment: ImpedimentMoment,
  timeZone: string,
  asNextDay = false,
): Promise<'not_impeded' | 'unavailable' | 'checked_today'> {
  if (player.restrictedAt) throw impeded();
  if (player.status === 'encerrado') throw new AppError('PLAYER_NOT_ACTIVE');
  const now = elig.clock();
  if (!asNextDay && player.impedimentCheckedAt && dayIn(player.impedimentCheckedAt, timeZone) === dayIn(now, timeZone)) return 'checked_today';
  const who = { operatorId: player.operatorId, brandId: player.brandId, playerId: player.id, cpf: player.cpf };
  const answer = await askRegistries(deps.sql, elig, player.cpf, who, player.environment);
  await recordCheck(deps.sql, who, moment, answer, now);
  await applyAnswer(deps, elig, player, answer, now);
  if (answer.result === 'impeded') throw impeded();
  if (answer.result === 'unavailable') {
    const last = player.impedimentCheckedAt?.getTime();
    if (last === undefined || now.getTime() - last >= elig.config.IMPEDIMENT_GRACE_DAYS * DAY_MS) throw unavailable();
  }
  return answer.result;
}

/**
 * Writes what an answer changes on a player: `not_impeded` dates the last successful check;
 * `impeded` restricts (status `restrito`, `player.restricted` in the same transaction). Either
 * is broadcast before returning, so no cache serves the player as free afterwards; a restriction
 * also ends the player's open game sessions (after the commit, before returning).
 */
export async function applyAnswer(
  deps: ServiceDeps,
  elig: Eligibility,
  player: Pick<PlayerRow, 'id' | 'brandId'>,
  answer: CheckAnswer,
  now: Date,
): Promise<void> {
  if (answer.result === 'unavailable') return;
  const restricted = await deps.orm.em.fork().transactional(async (tx) => {
    if (answer.result === 'not_impeded') {
      (await lockPlayer(tx, { id: player.id })).impedimentCheckedAt = now;
      return false;
    }
    return restrictPlayer(tx, deps.schema, player.id, now, elig.config);
  });
  // Also after a clean check: players.state carries the day's check, and payments and the wallet
  // skip asking again today once their caches hear of it.
  if (!restricted) return announcePlayerChanged(deps, player.id);
  await afterRestriction(deps, [player]);
}

/**
 * What follows the commit of restrictions (restrictPlayer): the outbox is woken for
 * `player.restricted`, every cache drops the players, and the wallet ends their open game sessions
 * (asked outside any transaction; should it not answer, each round re-reads the player's status).
 */
export async function afterRestriction(deps: ServiceDeps, players: ReadonlyArray<Pick<PlayerRow, 'id' | 'brandId'>>): Promise<void> {
  if (players.length === 0) return;
  deps.outbox.poke();
  for (const p of players) announcePlayerChanged(deps, p.id);
  await Promise.all(players.map((p) => endGameSessions(deps, p.brandId, p.id)));
}

/**
 * In the caller's transaction: status `restrito`, the time of the hit, `player.restricted` in the
 * outbox, and the marketing consent forced off. False when the player was already restricted or closed. Once committed, the
 * caller runs afterRestriction (broadcast, game sessions ended).
 */
export async function restrictPlayer(tx: EntityManager, schema: string, playerId: string, now: Date, config: PlayersConfig): Promise<boolean> {
  const player = await lockPlayer(tx, { id: playerId });
  if (player.restrictedAt || player.status === 'encerrado') return false;
  setStatus(player, 'restrito');
  player.restrictedAt = now;
  player.updatedAt = now;
  await writeEvent(sqlIn(tx), schema, { operatorId: player.operatorId, brandId: player.brandId, environment: player.environment }, 'player.restricted', {
    playerId: player.id,
    externalId: player.externalId,
    reason: 'impeded',
    withdrawalsUntil: withdrawalsUntil(now, config).toISOString(),
  });
  // No marketing to an impeded bettor (issue #60 item 2): the consent forced off, the block dated.
  await beginMarketingBlock(tx, { schema }, player, 'impediment', now, null);
  return true;
}

/** The players.changed broadcast (service.ts's announcesChange does it for the handlers it wraps). */
export function announcePlayerChanged(deps: ServiceDeps, playerId: string): void {
  deps.nc.publish(playerChangedSubject(deps.prefix), JSON.stringify({ playerId } satisfies PlayerChanged));
}
