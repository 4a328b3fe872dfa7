// The gateway's questions about connectors (docs/connectors.md), beside the money calls it makes
// on the provider wallet's own operations: a provider's connector (on a miss of its cache), a
// player the provider had a session of (Hub88's /user/info, and the balance a rollback of nothing
// answers), one of the provider's transactions by id (what a win or rollback references), the
// answers its connectors gave (their health), one of its rounds (a sportsbook's bet slip: what a
// settle, resettle or rollback of it must know), and a win naming its bet (the provider wallet's win,
// settle.ts, with the bet in its identity), and a sportsbook's data update of a bet (kept beside
// it, no money). Reads, but the health's counts, that win and the bet updates.
import { connectorMessages as m, type ConnectorSettings } from '@bo/contracts';
import { handle, internalScopeOf, isoTime, providerScopeOf, type Handler } from '@bo/service-kit';
import { stakeableNow } from '../../ledger/index.ts';
import { connectorSettings, recordConnectorHealth, secretsInForce, theirKeysInForce } from '../store/connectors.ts';
import { findConnectorRound, findTransaction, launchedPlayer } from '../store/reads.ts';
import { recordBetUpdate } from '../store/bet-updates.ts';
import { findProvider } from '../store/registry.ts';
import { connectorWin } from './settle.ts';
import type { ProvidersContext } from './context.ts';

export function connectorCallHandlers(ctx: ProvidersContext): Record<string, Handler> {
  const { sql } = ctx.deps;
  return {
    ...handle(m.connector, async (req) => {
      internalScopeOf(req);
      const { providerId, environment } = req.body;
      const provider = await findProvider(sql, providerId);
      if (!provider) return { status: 200, body: { connector: null } };
      const [settings, keys, secrets] = await Promise.all([
        connectorSettings(sql, providerId),
        theirKeysInForce(sql, providerId, environment),
        secretsInForce(sql, providerId, environment, 'theirs'),
      ]);
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
            // Sealed: the gateway opens them with SECRETS_MASTER_KEY, as it opens providers' /provider/v1 secrets.
            theirSecrets: secrets.map((k) => ({ name: k.name, sealed: k.sealed, expiresAt: k.expiresAt ? isoTime(k.expiresAt) : null })),
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
            amount: t.requested.replace(/^-/, ''),
            currency: t.currency,
            createdAt: t.createdAt,
          },
        },
      };
    }),
    ...handle(m.round, async (req) => {
      const scope = providerScopeOf(req);
      const r = await findConnectorRound(sql, scope.providerId, req.body.roundId);
      // A round is the provider's across its environments: the other environment's is none of this call's.
      if (!r || r.environment !== scope.environment) return { status: 200, body: { round: null } };
      const { environment: _environment, ...round } = r;
      return { status: 200, body: { round } };
    }),
    ...handle(m.betUpdate, async (req) => {
      const scope = providerScopeOf(req);
      const kept = await recordBetUpdate(sql, { providerId: scope.providerId, environment: scope.environment, ...req.body });
      return { status: 200, body: { update: kept ?? null } };
    }),
    ...handle(m.win, connectorWin(ctx)),
    ...handle(m.health, async (req) => {
      internalScopeOf(req);
      return { status: 200, body: { recorded: await recordConnectorHealth(sql, req.body.counts) } };
    }),
  };
}
