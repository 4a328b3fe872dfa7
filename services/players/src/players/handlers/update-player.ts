// players.update (PATCH /players/{playerId}, idempotent): the operator completes or corrects a player's
// registration data (issue #60 item 1). The CPF and the birth date never change (the contract refuses
// them, 422 at /cpf, /birthDate). Each field that changes is kept with its value before and after, who
// (the operator, with the request id) and when (players.registration_changes, append-only). Under
// br-spa, completing what was missing lifts the restriction (`player.registration_completed`) and a
// correction that leaves something missing says what (`player.registration_incomplete`); the change
// is broadcast to the enforcing services' caches before the answer (the root's announcesChange).
import type { UpdatePlayer, playerOperations } from '@bo/contracts';
import { operatorScopeOf, ormTransactor, requestKeyOf, ruleClock, runOnce, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { lockPlayer } from '../../store/index.ts';
import { toPlayer } from '../domain/player-views.ts';
import { keptAddress, sameValue } from '../domain/registration.ts';
import { recordRegistrationChange } from '../store/registration-changes.ts';
import { announceRegistration, registrationMissingOf } from './registration.ts';

type Field = keyof Omit<UpdatePlayer, 'cpf' | 'birthDate'>;
const FIELDS: readonly Field[] = ['name', 'email', 'phone', 'gender', 'signupIp', 'address'];

/** The value as kept (an address normalised), or undefined when the body does not name the field. */
function keptValue(body: UpdatePlayer, field: Field): unknown {
  const value = body[field];
  if (value === undefined) return undefined;
  return field === 'address' ? keptAddress(body.address!) : value;
}

/** Who changes a registration: `operator` (through the API, with its key) or `team`, and the request. */
export interface RegistrationChangeAuthor {
  by: 'operator' | 'team';
  actor: string;
  requestId: string;
}

/**
 * Changes the fields the body names on the locked player (flushed by the caller), each kept with its
 * value before and after; answers the fields that changed. The PATCH and a data request's correction
 * (privacy/) both change a registration through here.
 */
export function applyRegistrationChanges(
  tx: Parameters<typeof recordRegistrationChange>[0],
  player: Awaited<ReturnType<typeof lockPlayer>>,
  body: UpdatePlayer,
  author: RegistrationChangeAuthor,
  now: Date,
): { field: string; before: unknown; after: unknown }[] {
  const changed: { field: string; before: unknown; after: unknown }[] = [];
  for (const field of FIELDS) {
    const next = keptValue(body, field);
    if (next === undefined || sameValue(player[field], next)) continue;
    const before = player[field] ?? null;
    recordRegistrationChange(tx, { playerId: player.id, field, oldValue: before, newValue: next, ...author, at: now });
    Object.assign(player, { [field]: next });
    player.updatedAt = now;
    changed.push({ field, before, after: next });
  }
  return changed;
}

export function updatePlayer(deps: ServiceDeps): HandlerOf<typeof playerOperations.updatePlayer> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    return runOnce(ormTransactor(deps.orm.em), deps.schema, requestKeyOf(req.ctx), 'players.update', async (tx) => {
      const player = await lockPlayer(tx, { id: req.params.playerId, brandId: scope.brandId });
      const now = ruleClock.now();
      applyRegistrationChanges(tx, player, req.body, { by: 'operator', actor: `operator:${scope.operatorId}`, requestId: req.ctx.requestId }, now);
      await tx.flush();
      const missing = await registrationMissingOf(tx, player, now);
      if (missing) await announceRegistration(tx, deps, player, missing);
      return { status: 200, body: toPlayer(player, now, missing) };
    });
  };
}
