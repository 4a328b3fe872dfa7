// players.create (POST /players, idempotent). externalId is unique per brand: checked first for a
// clear answer, and held by the unique index when two creates race.
import { AppError, newId, normaliseCpf, type playerOperations } from '@bo/contracts';
import type { HandlerOf, ServiceDeps } from '@bo/service-kit';
import { PlayerEntity } from '../persistence/entities.ts';
import { toPlayer } from '../domain/player-views.ts';
import { operatorScopeOf, ormTransactor, requestKeyOf, runOnce } from '@bo/service-kit';

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
        const now = new Date();
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
          dailyDepositLimit: null,
          selfExcludedUntil: null,
          createdAt: now,
          updatedAt: now,
        });
        return { status: 201, body: toPlayer(player) };
      },
      { uniqueViolations: { players_brand_external_id: 'PLAYER_ALREADY_EXISTS' } },
    );
  };
}
