// The provider wallet API (`/provider/v1`, docs/providers.md): the operations of contracts'
// providers.ts, each forwarded to the wallet with the provider's scope after the provider guard,
// and beside them (outside the guard) its public documents from the portal.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callOperation, PROVIDER_API_PREFIX, providerMessages, providerOperations, type ProviderCredentialRecord, type RequestContext } from '@bo/contracts';
import type { NatsConnection } from '@nats-io/transport-node';
import { providerDocsRoutes } from '@bo/portal';
import { ProviderCredentials } from './auth/provider-credentials.ts';
import { providerGuard } from './auth/provider-guard.ts';
import { registerOperations } from './operations.ts';

export interface ProviderApiDeps {
  nc: NatsConnection;
  natsPrefix: string;
  rpcTimeoutMs: number;
  masterKey: string;
  cacheTtlMs: number;
  now: () => number;
  /** The documents' server URL is built from it, as the operators'. */
  publicBaseUrl: string;
}

function providerContext(req: FastifyRequest): RequestContext {
  const c = req.providerCredential!;
  return { requestId: req.id, scope: { kind: 'provider', providerId: c.providerId, environment: c.environment } };
}

/** Registers /provider/v1 on the public app; the returned cache is stopped with the gateway. */
export async function registerProviderApi(app: FastifyInstance, deps: ProviderApiDeps): Promise<ProviderCredentials> {
  const load = async (keyHash: string) =>
    (
      await callOperation<{ credential: ProviderCredentialRecord | null }>(
        deps.nc,
        providerMessages.credential.subject,
        { ctx: { requestId: 'gateway', scope: { kind: 'internal', service: 'gateway' } }, params: {}, query: {}, body: { keyHash } },
        { prefix: deps.natsPrefix, timeoutMs: deps.rpcTimeoutMs },
      )
    ).credential;
  const credentials = new ProviderCredentials(load, deps.masterKey, deps.cacheTtlMs, deps.now);
  credentials.listen(deps.nc, deps.natsPrefix);
  await app.register(
    async (api) => {
      api.addHook('preValidation', providerGuard(credentials));
      registerOperations(api, providerOperations, deps, {}, providerContext);
    },
    { prefix: PROVIDER_API_PREFIX },
  );
  await app.register(providerDocsRoutes, { prefix: PROVIDER_API_PREFIX, publicBaseUrl: deps.publicBaseUrl });
  return credentials;
}
