// players.create (POST /players, idempotent). externalId is unique per brand: checked first for a
// clear answer, and held by the unique index when two creates race.
import { AppError, newId, normaliseCpf, validationError, type playerOperations } from '@bo/contracts';
import type { HandlerOf, ServiceDeps } from '@bo/service-kit';
import { PlayerEntity } from '../persistence/entities.ts';
import { toPlayer } from '../domain/player-views.ts';
import { operatorScopeOf, ormTransactor, requestKeyOf, ruleClock, runOnce } from '@bo/service-kit';
import { storedValue } from '../domain/rg-limits.ts';
import { complianceOf } from '../persistence/rg-store.ts';
import { changeLimit } from './responsible-gaming.ts';

export function createPlayer(deps: ServiceDeps): HandlerOf<typeof playerOperations.createPlayer> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const input = req.body;
    return runOnce(
      ormTransactor(deps.orm.em),
      deps.schema,
      requestKeyOf(req.ctx),
      'players.create',
      async (tx) => {
        const taken = await tx.count(PlayerEntity, { brandId: scope.brandId, externalId: input.externalId });
        if (taken > 0) throw new AppError('PLAYER_ALREADY_EXISTS');
        const now = ruleClock.now();
        const player = tx.create(PlayerEntity, {
          id: newId('player'),
          operatorId: scope.operatorId,
          brandId: scope.brandId,
          environment: scope.environment,
          externalId: input.externalId,
          name: input.name,
          email: input.email,
          cpf: normaliseCpf(input.cpf),
          phone: input.phone ?? null,
          birthDate: input.birthDate,
          currency: scope.currency,
          status: 'ativo',
          kycStatus: 'nao_iniciado',
          kycUpdatedAt: now,
          selfExcludedUntil: null,
          selfExcludedSince: null,
          pausedUntil: null,
          createdAt: now,
          updatedAt: now,
        });
        if (input.limits?.length) {
          // Limits collected at registration: first limits, so each applies at once.
          await tx.flush();
          const compliance = await complianceOf(tx, scope.operatorId);
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
        return { status: 201, body: toPlayer(player) };
      },
      { uniqueViolations: { players_brand_external_id: 'PLAYER_ALREADY_EXISTS' } },
    );
  };
}
