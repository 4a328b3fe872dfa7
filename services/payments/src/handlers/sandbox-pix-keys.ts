// The sandbox's control of the simulated PSP key directory (br-spa withdrawals to PIX keys).
import { normaliseCpf, type paymentOperations } from '@bo/contracts';
import { operatorScopeOf, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { addSimulatedPixKey, removeSimulatedPixKey } from '../store/simulated-pix-keys.ts';

export function sandboxAddPixKey(deps: ServiceDeps): HandlerOf<typeof paymentOperations.sandboxAddPixKey> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const ownerCpf = normaliseCpf(req.body.ownerCpf);
    const key = req.body.key.trim();
    await addSimulatedPixKey(deps.sql, scope.operatorId, key, ownerCpf);
    return { status: 201, body: { key, ownerCpf } };
  };
}

export function sandboxRemovePixKey(deps: ServiceDeps): HandlerOf<typeof paymentOperations.sandboxRemovePixKey> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const key = req.params.key.trim();
    return { status: 200, body: { key, removed: await removeSimulatedPixKey(deps.sql, scope.operatorId, key) } };
  };
}
