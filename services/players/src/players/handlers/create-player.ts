// players.create (POST /players, idempotent). externalId is unique per brand: checked first for a
// clear answer, and held by the unique index when two creates race. Under br-spa the CPF is asked
// of the impediment registry first and is unique per brand among players not closed (held by the
// partial unique index players_one_per_cpf when two creates race; docs/eligibility.md). Limits sent with
// the registration are the player's first limits, in force at once (docs/responsible-gaming.md); under
// br-spa the phone, gender, sign-up IP, address, a loss and a time limit are required (Portaria
// 1.231/2024 art. 31 as amended by 2.579/2025). The bettor's acceptance of the terms and marketing
// consent are kept (docs/players.md).
import { AppError, isAppError, normaliseCpf, validationError, type CreatePlayer, type playerOperations } from '@bo/contracts';
import type { HandlerOf, ServiceDeps, SqlRunner } from '@bo/service-kit';
import { toPlayer } from '../domain/player-views.ts';
import { missingItems } from '../domain/registration.ts';
import { findStored, operatorScopeOf, ormTransactor, requestKeyOf, ruleClock, runOnce, sqlIn } from '@bo/service-kit';
import { changeLimit, complianceOf, storedValue } from '../../rg/index.ts';
import { checkAtRegistration, type Eligibility, type RecordCleanCheck } from '../../impediments/index.ts';
import { holdersOf } from '../store/registration-checks.ts';
import { newPlayer, recordConsentAtRegistration } from '../store/registration.ts';
import { acceptedAtOf, recordAcceptance } from '../store/terms.ts';

/**
 * Under br-spa: 422 naming everything the registration lacks of what the profile requires (its phone,
 * gender, sign-up IP and address, a loss and a time limit: Portaria 1.231/2024 art. 31 as amended by
 * 2.579/2025; docs/players.md), one issue per field and per limit type. Validation comes before any
 * other check: nothing is asked of the registry, nothing stored.
 */
function requireRegistrationData(input: CreatePlayer): void {
  const missing = missingItems(input, new Set((input.limits ?? []).map((l) => l.type)));
  if (missing.length === 0) return;
  throw new AppError(
    'VALIDATION_ERROR',
    'Under the br-spa profile a registration must carry the phone, gender, sign-up IP, address, a loss limit and a time limit.',
    {
      in: 'body',
      issues: missing.map((m) =>
        m === 'loss' || m === 'time'
          ? { path: '/limits', message: `a ${m} limit is required` }
          : { path: `/${m}`, message: 'is required under the br-spa profile' },
      ),
      missing,
    },
  );
}

/**
 * The refusals a registration meets before anything else: the externalId already held, and under
 * br-spa the CPF held by a player not closed (store/registration-checks.ts). `sql` is the ORM's
 * connection (`sqlIn`): the transaction's own inside it.
 */
async function refuseTaken(sql: SqlRunner, brandId: string, externalId: string, cpf: string | null): Promise<void> {
  const held = await holdersOf(sql, brandId, externalId, cpf);
  if (held?.external) throw new AppError('PLAYER_ALREADY_EXISTS');
  if (held?.cpf) throw new AppError('PLAYER_CPF_EXISTS', undefined, { playerId: held.cpf });
}

export function createPlayer(deps: ServiceDeps, elig: Eligibility): HandlerOf<typeof playerOperations.createPlayer> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const input = req.body;
    const key = requestKeyOf(req.ctx);
    const cpf = normaliseCpf(input.cpf);
    const stored = await findStored(deps.sql, deps.schema, key, 'players.create');
    if (stored) return stored;
    // The profile as the request found it: a switch committed while it runs applies from the next request.
    const em = deps.orm.em.fork();
    const compliance = await complianceOf(em, scope.operatorId);
    const brSpa = compliance.profile === 'br-spa';
    if (brSpa) requireRegistrationData(input);
    const terms = input.termsAccepted;
    const acceptedAt = terms ? await acceptedAtOf(em, scope.brandId, terms, ruleClock.now(), '/termsAccepted') : null;
    // Under br-spa the registry is asked before the transaction opens: its answer can take seconds
    // (a real registry over HTTP), and no connection, lock or pool slot may wait on it. The
    // duplicates are refused first, so they never reach the registry.
    let recordCheck: RecordCleanCheck | undefined;
    let checkRow: ReturnType<RecordCleanCheck> | undefined;
    if (brSpa) {
      await refuseTaken(sqlIn(em), scope.brandId, input.externalId, cpf);
      recordCheck = await checkAtRegistration(deps, elig, { operatorId: scope.operatorId, brandId: scope.brandId, playerId: null, cpf }, scope.environment);
    }
    const created = runOnce(
      ormTransactor(deps.orm.em),
      deps.schema,
      key,
      'players.create',
      async (tx) => {
        // Under br-spa the look ran just before the registry; two creates racing past it are held by
        // the unique indexes (players_brand_external_id, and players_one_per_cpf for br-spa players not
        // closed): the second one's insert waits for the first and then fails.
        if (!brSpa) await refuseTaken(sqlIn(tx), scope.brandId, input.externalId, null);
        const now = ruleClock.now();
        const player = newPlayer(tx, scope, input, cpf, brSpa, brSpa ? elig.clock() : null, now);
        recordConsentAtRegistration(tx, player, scope.operatorId, req.ctx.requestId, now);
        // The clean check's audit row commits with the player (no foreign key: refusals name no
        // player), written with the stored answer (withAnswer below).
        checkRow = recordCheck?.(player.id);
        if (terms && acceptedAt) recordAcceptance(tx, player.id, terms, acceptedAt, now);
        if (input.limits?.length) {
          // Limits collected at registration: first limits, so each applies at once.
          await tx.flush();
          const seen = new Set<string>();
          for (const [i, l] of input.limits.entries()) {
            if (seen.has(`${l.type}:${l.period}`)) throw validationError('body', [{ path: `/limits/${i}`, message: 'one limit per type and period' }]);
            seen.add(`${l.type}:${l.period}`);
            const next = storedValue(l.type, l.value, `/limits/${i}/value`);
            await changeLimit(
              tx,
              deps,
              player,
              { type: l.type, period: l.period, next, by: 'operator', coolingOffHours: compliance.coolingOffHours, profile: compliance.profile },
              now,
            );
          }
        }
        // Under br-spa a registration is complete by validation: `registration` says so.
        return { status: 201, body: toPlayer(player, now, brSpa ? [] : undefined) };
      },
      {
        lookedUp: true,
        uniqueViolations: { players_brand_external_id: 'PLAYER_ALREADY_EXISTS', players_one_per_cpf: 'PLAYER_CPF_EXISTS' },
        withAnswer: () => checkRow,
      },
    );
    // The race lost on the CPF index: the answer names the player who holds the CPF, as the look does.
    return created.catch(async (e: unknown) => {
      if (isAppError(e) && e.code === 'PLAYER_CPF_EXISTS' && !e.details) await refuseTaken(sqlIn(deps.orm.em.fork()), scope.brandId, input.externalId, cpf);
      throw e;
    });
  };
}
