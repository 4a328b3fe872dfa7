// The gateway's questions about connectors (docs/connectors.md), beside the money calls it makes
// on the provider wallet's own operations: a provider's connector (on a miss of its cache), a
// player the provider had a session of (Hub88's /user/info, and the balance a rollback of nothing
// answers), one of the provider's transactions by id (what a win or rollback references), and the
// answers its connectors gave (their health). Reads only, but the health's counts.
import { connectorMessages as m, type ConnectorSettings } from '@bo/contracts';
import { handle, internalScopeOf, isoTime, providerScopeOf, type Handler } from '@bo/service-kit';
import { stakeableNow } from '../../ledger/index.ts';
import { connectorSettings, recordConnectorHealth, theirKeysInForce } from '../store/connectors.ts';
import { findTransaction, launchedPlayer } from '../store/reads.ts';
import { findProvider } from '../store/registry.ts';
import type { ProvidersContext } from './context.ts';

export function connectorCallHandlers(ctx: ProvidersContext): Record<string, Handler> {
  const { sql } = ctx.deps;
  return {
    ...handle(m.connector, async (req) => {
      internalScopeOf(req);
      const { providerId, environment } = req.body;
      const provider = await findProvider(sql, providerId);
      if (!provider) return { status: 200, body: { connector: null } };
      const [settings, keys] = await Promise.all([connectorSettings(sql, providerId), theirKeysInForce(sql, providerId, environment)]);
      const own: ConnectorSettings | null = settings.find((s) => s.environment === environment)?.settings ?? null;
      return {
        status: 200,
        body: {
          connector: {
            providerId,
            protocol: provider.protocol,
            providerStatus: provider.status,
            environment,
            allowedIps: provider.allowedIps,
            settings: own,
            theirKeys: keys.map((k) => ({ publicKey: k.publicKey, expiresAt: k.expiresAt ? isoTime(k.expiresAt) : null })),
          },
        },
      };
    }),
    ...handle(m.player, async (req) => {
      const scope = providerScopeOf(req);
      const account = await launchedPlayer(sql, scope.providerId, scope.environment, req.body.playerId);
      if (!account) return { status: 200, body: { player: null } };
      const balance = await stakeableNow(sql, account.brandId, req.body.playerId, account.currency);
      return { status: 200, body: { player: { playerId: req.body.playerId, ...account, balance } } };
    }),
    ...handle(m.transaction, async (req) => {
      const scope = providerScopeOf(req);
      const t = await findTransaction(sql, scope.providerId, req.body.transactionId);
      // An id is one transaction of the provider across its environments: the other environment's is none of this call's.
      if (!t || t.environment !== scope.environment) return { status: 200, body: { transaction: null } };
      return {
        status: 200,
        body: {
          transaction: {
            transactionId: t.transactionId,
            kind: t.kind,
            playerId: t.playerId,
            roundId: t.roundId,
            rolledBack: t.rolledBackBy !== null,
            neverReceived: t.neverReceived,
          },
        },
      };
    }),
    ...handle(m.health, async (req) => {
      internalScopeOf(req);
      return { status: 200, body: { recorded: await recordConnectorHealth(sql, req.body.counts) } };
    }),
  };
}
