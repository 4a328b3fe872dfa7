// POST /players/{id}/logins, players.activity.check (payments and the wallet, before a first deposit
// or game session of the day) and the sandbox's control of the simulated SPA registry. Under the
// profile `off` the login and activity checks answer `{ allowed: true }` and ask nobody.
import { AppError, normaliseCpf, type eligibilityMessages, type eligibilityOperations } from '@bo/contracts';
import { operatorScopeOf, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { findPlayer } from '../../store/index.ts';
import { checkToday, type Eligibility } from '../flows/eligibility.ts';
import { complianceOf } from '../store/compliance.ts';

export function reportLogin(deps: ServiceDeps, elig: Eligibility): HandlerOf<typeof eligibilityOperations.reportLogin> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const em = deps.orm.em.fork();
    const player = await findPlayer(em, { id: req.params.playerId, brandId: scope.brandId });
    if (!player) throw new AppError('PLAYER_NOT_FOUND');
    const compliance = await complianceOf(em, scope.operatorId);
    if (compliance.profile === 'br-spa') await checkToday(deps, elig, player, 'login', compliance.timeZone);
    return { status: 200, body: { allowed: true as const } };
  };
}

export function activityCheck(deps: ServiceDeps, elig: Eligibility): HandlerOf<typeof eligibilityMessages.activity> {
  return async (req) => {
    const input = req.body;
    const em = deps.orm.em.fork();
    const player = await findPlayer(em, { id: input.playerId, brandId: input.brandId });
    if (!player) throw new AppError('PLAYER_NOT_FOUND');
    const compliance = await complianceOf(em, player.operatorId);
    if (compliance.profile === 'br-spa') await checkToday(deps, elig, player, input.activity, compliance.timeZone);
    return { status: 200, body: { allowed: true as const } };
  };
}

// The simulator writes its table and its own mirror before these reply, and tells the other replicas.
export function sandboxAddImpediment(elig: Eligibility): HandlerOf<typeof eligibilityOperations.sandboxAddImpediment> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const cpf = normaliseCpf(req.body.cpf);
    await elig.simulator.add(scope.operatorId, cpf, req.body.reason, elig.clock());
    return { status: 201, body: { cpf, reason: req.body.reason } };
  };
}

export function sandboxRemoveImpediment(elig: Eligibility): HandlerOf<typeof eligibilityOperations.sandboxRemoveImpediment> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const cpf = normaliseCpf(req.params.cpf);
    return { status: 200, body: { cpf, removed: await elig.simulator.remove(scope.operatorId, cpf) } };
  };
}
