// The seam every connector plugs into (docs/connectors.md, "Adding a protocol"). A connector is a
// room of its own (connectors/<protocol>/) that speaks one aggregator's protocol on the public
// port, under `/connectors/<protocol>/<providerId>/<environment>`, and answers each call by
// calling the provider wallet's own operations over NATS: the same handlers, the same
// transaction ids, the same ledger as /provider/v1. What it gets from the framework:
// - `directory`: the provider's connector for the URL's environment (its protocol, standing,
//   allowed addresses, settings, and their public keys prepared once), cached per replica and
//   dropped when our team changes the provider;
// - `wallet`: the provider wallet's operations and the connector reads, under the provider's scope;
// - `health`: a count per answer's status, which our team reads on the provider's page.
// What it owns: its routes, its signature check, its request and answer schemas (in contracts),
// the mapping of our refusals to its statuses, its unit conversion.
import type { FastifyInstance } from 'fastify';
import type { ConnectorProtocol } from '@bo/contracts';
import type { Logger } from '@bo/service-kit/edge';
import type { ConnectorDirectory } from './directory.ts';
import type { ConnectorHealthCounts } from './health.ts';
import type { ProviderWallet } from './provider-wallet.ts';

export interface ConnectorTools {
  directory: ConnectorDirectory;
  wallet: ProviderWallet;
  health: ConnectorHealthCounts;
  log: Logger;
}

export interface Connector {
  protocol: ConnectorProtocol;
  /** Registers the protocol's routes on `app`, already under `/connectors/<protocol>`. */
  register(app: FastifyInstance, tools: ConnectorTools): Promise<void>;
}
