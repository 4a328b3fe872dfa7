// Connectors (issue #58, docs/connectors.md): aggregators that call us in their own protocol, each
// a room under connectors/<protocol>/ mounted at `/connectors/<protocol>` on the public port, all
// sharing one directory of providers' connectors, one way to the provider wallet and one health
// count (connector.ts). A new protocol is one more entry in CONNECTORS.
import type { FastifyInstance } from 'fastify';
import { CONNECTORS_PREFIX, connectorMessages, callOperation, type ConnectorRecord } from '@bo/contracts';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@bo/service-kit/edge';
import type { Connector } from './connector.ts';
import { ConnectorDirectory } from './directory.ts';
import { ConnectorHealthCounts } from './health.ts';
import { providerWallet } from './provider-wallet.ts';
import { hub88Connector } from './hub88/index.ts';
import { evolutionConnector } from './evolution/index.ts';
import { betsyConnector } from './betsy/index.ts';

const CONNECTORS: readonly Connector[] = [hub88Connector, evolutionConnector, betsyConnector];

/** How often each replica reports its connectors' answers to the wallet (their health). */
const HEALTH_REPORT_MS = 2000;

export interface ConnectorDeps {
  nc: NatsConnection;
  natsPrefix: string;
  rpcTimeoutMs: number;
  cacheTtlMs: number;
  now: () => number;
  log: Logger;
  /** Opens their shared secrets (Evolution's API token), as the provider credentials are opened. */
  masterKey?: string;
}

/** Mounts every connector; what it returns is stopped with the gateway. */
export async function registerConnectors(app: FastifyInstance, deps: ConnectorDeps): Promise<{ stop(): void }> {
  const rpc = { prefix: deps.natsPrefix, timeoutMs: deps.rpcTimeoutMs };
  const directory = new ConnectorDirectory(
    async (providerId, environment) =>
      (
        await callOperation<{ connector: ConnectorRecord | null }>(
          deps.nc,
          connectorMessages.connector.subject,
          { ctx: { requestId: 'gateway', scope: { kind: 'internal', service: 'gateway' } }, params: {}, query: {}, body: { providerId, environment } },
          rpc,
        )
      ).connector,
    deps.cacheTtlMs,
    deps.now,
    deps.masterKey,
  );
  directory.listen(deps.nc, deps.natsPrefix);
  const health = new ConnectorHealthCounts();
  health.start({ nc: deps.nc, prefix: deps.natsPrefix, timeoutMs: deps.rpcTimeoutMs, intervalMs: HEALTH_REPORT_MS, log: deps.log });
  const tools = { directory, wallet: providerWallet({ nc: deps.nc, prefix: deps.natsPrefix, timeoutMs: deps.rpcTimeoutMs }), health, log: deps.log };
  for (const connector of CONNECTORS) {
    await app.register(async (scoped) => connector.register(scoped, tools), { prefix: `${CONNECTORS_PREFIX}/${connector.protocol}` });
  }
  return {
    stop() {
      directory.stop();
      health.stop();
    },
  };
}
