// Our team's side of a connector (docs/connectors.md): its settings per environment, their public
// keys and our key pairs (rotated with an overlap, revoked at once), the game list copied into
// our catalogue, and what the connector answered lately. Every change writes its audit row in its
// own transaction (the kit's writeDecisionAudit, as every admin change of providers does) and tells
// the gateways to drop their cached connector of the provider.
import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import {
  AppError,
  CONNECTOR_FAULT_STATUSES,
  CONNECTOR_SECRETS,
  CONNECTOR_SETTINGS_SCHEMAS,
  connectorBasePath,
  hub88GamesApi,
  hub88PrivateKey,
  newId,
  providerInvalidateSubject,
  ENVIRONMENTS,
  type ConnectorHealth,
  type ConnectorKey,
  type ConnectorKeyOwner,
  type ConnectorProtocol,
  type ConnectorSecret,
  type connectorAdminOperations,
  type Environment,
  type Hub88Settings,
  type ProviderConnector,
  validationError,
} from '@bo/contracts';
import { Value } from '@sinclair/typebox/value';
import { adminScopeOf, decisionAuthorOf, openSecret, sealSecret, writeDecisionAudit, type HandlerOf, type SqlRunner } from '@bo/service-kit';
import { acceptPublicKey, fingerprintOf, keyView, secretFingerprintOf, secretView, type ConnectorKeyRow } from '../domain/connector-keys.ts';
import {
  connectorHealthOf,
  connectorKeys,
  connectorSecrets,
  connectorSettings,
  databaseNow,
  insertConnectorKey,
  insertConnectorSecret,
  ourSigningKey,
  putConnectorSettings,
  revokeConnectorKey,
  revokeConnectorSecret,
} from '../store/connectors.ts';
import { findProvider, listProviderGames, lockProvider, putProviderGame, type ProviderRow } from '../store/registry.ts';
import type { ProvidersContext } from './context.ts';

type Ops = typeof connectorAdminOperations;
const newKeyPair = promisify(generateKeyPair);
/** Our key pairs: RSA 2048, as Hub88's examples make them (openssl genrsa 2048). */
const OUR_KEY_BITS = 2048;
/** How long our call to the aggregator's Games API may take. */
const GAMES_API_TIMEOUT_MS = 10_000;

/** A provider that speaks a connector's protocol; native providers have no connector to set. */
function connectorProtocolOf(p: ProviderRow | undefined): ConnectorProtocol {
  if (!p) throw new AppError('PROVIDER_NOT_FOUND');
  if (p.protocol === 'native')
    throw new AppError('VALIDATION_ERROR', 'The provider speaks the native protocol (/provider/v1): it has no connector.', {
      in: 'path',
      issues: [{ path: '/id', message: 'is a native provider' }],
    });
  return p.protocol as ConnectorProtocol;
}

function healthOf(rows: Array<{ status: string; calls: string; lastAt: Date }>, faultStatuses: ReadonlySet<string>): ConnectorHealth {
  const byStatus: Record<string, number> = {};
  let calls = 0;
  let faults = 0;
  let last: Date | null = null;
  for (const r of rows) {
    const n = Number(r.calls);
    if (n > 0) byStatus[r.status] = n;
    calls += n;
    if (faultStatuses.has(r.status)) faults += n;
    if (!last || r.lastAt > last) last = r.lastAt;
  }
  return { lastCallAt: last ? last.toISOString() : null, calls, byStatus, errorRate: calls === 0 ? 0 : Math.round((faults / calls) * 10_000) / 10_000 };
}

export function connectorAdminHandlers(ctx: ProvidersContext) {
  const { sql } = ctx.deps;
  const master = ctx.deps.config.SECRETS_MASTER_KEY;
  const publicBaseUrl = ctx.deps.config.PUBLIC_BASE_URL.replace(/\/+$/, '');

  const announceChange = (providerId: string) => ctx.deps.nc.publish(providerInvalidateSubject(ctx.deps.prefix), JSON.stringify({ providerId }));

  /** The change and its audit row in one transaction, on the provider's locked row. */
  const audited = async <T>(
    req: Parameters<typeof adminScopeOf>[0] & { params: { id: string } },
    action: keyof Ops,
    change: (tx: SqlRunner, provider: ProviderRow, protocol: ConnectorProtocol) => Promise<{ answer: T; before: unknown; after: unknown }>,
  ): Promise<T> => {
    const by = decisionAuthorOf(adminScopeOf(req), req.ctx);
    const answer = await sql.transaction(async (tx) => {
      if (!(await lockProvider(tx, req.params.id))) throw new AppError('PROVIDER_NOT_FOUND');
      const provider = await findProvider(tx, req.params.id);
      const { answer, before, after } = await change(tx, provider!, connectorProtocolOf(provider));
      await writeDecisionAudit(tx, ctx.deps.schema, by, { action, target: `provider:${provider!.id}`, before, after });
      return answer;
    });
    ctx.deps.outbox.poke();
    announceChange(req.params.id);
    return answer;
  };

  const view = async (runner: SqlRunner, provider: ProviderRow): Promise<ProviderConnector> => {
    if (provider.protocol === 'native') return { providerId: provider.id, protocol: 'native', environments: [] };
    const protocol = provider.protocol as ConnectorProtocol;
    const [settings, keys, secrets, health] = await Promise.all([
      connectorSettings(runner, provider.id),
      connectorKeys(runner, provider.id),
      connectorSecrets(runner, provider.id),
      connectorHealthOf(runner, provider.id),
    ]);
    const now = new Date();
    return {
      providerId: provider.id,
      protocol,
      environments: ENVIRONMENTS.map((environment) => {
        const s = settings.find((x) => x.environment === environment);
        return {
          environment,
          endpointUrl: `${publicBaseUrl}${connectorBasePath(protocol, provider.id, environment)}`,
          settings: s?.settings ?? null,
          keys: keys.filter((k) => k.environment === environment).map((k) => keyView(k, now)),
          secrets: secrets.filter((k) => k.environment === environment).map((k) => secretView(k, now)),
          health: healthOf(
            health.filter((h) => h.environment === environment),
            CONNECTOR_FAULT_STATUSES[protocol],
          ),
          updatedAt: s ? s.updatedAt.toISOString() : null,
        };
      }),
    };
  };

  const addKey = async (
    tx: SqlRunner,
    provider: ProviderRow,
    environment: Environment,
    k: { owner: ConnectorKeyRow['owner']; publicKey: string; fingerprint: string; privateKeySealed: string | null; overlapMinutes: number },
  ) => {
    // The database's clock: the rotation's overlap is counted where the keys are read.
    const at = await databaseNow(tx);
    return insertConnectorKey(tx, {
      id: newId('connectorKey'),
      providerId: provider.id,
      environment,
      owner: k.owner,
      publicKey: k.publicKey,
      fingerprint: k.fingerprint,
      privateKeySealed: k.privateKeySealed,
      now: at,
      overlapEnd: new Date(at.getTime() + k.overlapMinutes * 60_000),
    });
  };

  const get: HandlerOf<Ops['adminGetProviderConnector']> = async (req) => {
    adminScopeOf(req);
    const provider = await findProvider(sql, req.params.id);
    if (!provider) throw new AppError('PROVIDER_NOT_FOUND');
    return { status: 200, body: await view(sql, provider) };
  };

  const setSettings: HandlerOf<Ops['adminSetConnectorSettings']> = async (req) => {
    const { environment } = req.params;
    const body = await audited(req, 'adminSetConnectorSettings', async (tx, provider, protocol) => {
      // The body takes any protocol's settings: this provider's protocol says which.
      if (!Value.Check(CONNECTOR_SETTINGS_SCHEMAS[protocol], req.body.settings)) {
        throw validationError('body', [{ path: '/settings', message: `Must be the settings of a ${protocol} connector (docs/connectors-${protocol}.md).` }]);
      }
      const before = (await connectorSettings(tx, provider.id)).find((s) => s.environment === environment)?.settings ?? null;
      await putConnectorSettings(tx, provider.id, environment, req.body.settings);
      return { answer: await view(tx, provider), before: { environment, settings: before }, after: { environment, settings: req.body.settings } };
    });
    return { status: 200, body };
  };

  const addTheirKey: HandlerOf<Ops['adminAddConnectorTheirKey']> = async (req) => {
    const { environment } = req.params;
    const accepted = acceptPublicKey(req.body.publicKey);
    const body = await audited(req, 'adminAddConnectorTheirKey', async (tx, provider) => {
      const key = keyView(
        await addKey(tx, provider, environment, { owner: 'theirs', ...accepted, privateKeySealed: null, overlapMinutes: req.body.overlapMinutes ?? 0 }),
        new Date(),
      );
      return { answer: key, before: null, after: { key, overlapMinutes: req.body.overlapMinutes ?? 0 } };
    });
    return { status: 201, body };
  };

  const rotateOurKey: HandlerOf<Ops['adminRotateConnectorOurKey']> = async (req) => {
    const { environment } = req.params;
    const pair = await newKeyPair('rsa', { modulusLength: OUR_KEY_BITS });
    const publicKey = String(pair.publicKey.export({ type: 'spki', format: 'pem' }));
    const privateKeySealed = sealSecret(String(pair.privateKey.export({ type: 'pkcs8', format: 'pem' })), master);
    const body = await audited(req, 'adminRotateConnectorOurKey', async (tx, provider) => {
      const key = keyView(
        await addKey(tx, provider, environment, {
          owner: 'ours',
          publicKey,
          fingerprint: fingerprintOf(pair.publicKey),
          privateKeySealed,
          overlapMinutes: req.body.overlapMinutes ?? 0,
        }),
        new Date(),
      );
      // The audit row names the public key only: the private key never leaves its sealed column.
      return { answer: key, before: null, after: { key, overlapMinutes: req.body.overlapMinutes ?? 0 } };
    });
    return { status: 201, body };
  };

  const setSecret: HandlerOf<Ops['adminSetConnectorSecret']> = async (req) => {
    const { environment } = req.params;
    const { name, value } = req.body;
    const overlapMinutes = req.body.overlapMinutes ?? 0;
    const body = await audited(req, 'adminSetConnectorSecret', async (tx, provider, protocol) => {
      const owner = (CONNECTOR_SECRETS[protocol] as Record<string, ConnectorKeyOwner>)[name];
      if (!owner) throw validationError('body', [{ path: '/name', message: `A ${protocol} connector keeps no secret named ${name}.` }]);
      const at = await databaseNow(tx);
      const row = await insertConnectorSecret(tx, {
        id: newId('connectorSecret'),
        providerId: provider.id,
        environment,
        name,
        owner,
        sealed: sealSecret(value, master),
        fingerprint: secretFingerprintOf(value),
        now: at,
        overlapEnd: new Date(at.getTime() + overlapMinutes * 60_000),
      });
      // The audit row names the secret's fingerprint only: the value never leaves its sealed column.
      const secret = secretView(row, new Date());
      return { answer: secret, before: null, after: { secret, overlapMinutes } };
    });
    return { status: 201, body };
  };

  const revoke: HandlerOf<Ops['adminRevokeConnectorKey']> = async (req) => {
    const { environment, keyId } = req.params;
    const body = await audited<ConnectorKey | ConnectorSecret>(req, 'adminRevokeConnectorKey', async (tx, provider) => {
      const revoked = await revokeConnectorKey(tx, provider.id, environment, keyId);
      if (revoked) {
        const key = keyView(revoked, new Date());
        return { answer: key, before: null, after: key };
      }
      // A shared secret (cs_…) is revoked the same way.
      const secret = await revokeConnectorSecret(tx, provider.id, environment, keyId);
      if (!secret) throw new AppError('CREDENTIAL_NOT_FOUND', "The provider's connector has no key or secret with this id in this environment.");
      const view = secretView(secret, new Date());
      return { answer: view, before: null, after: view };
    });
    return { status: 200, body };
  };

  const syncGames: HandlerOf<Ops['adminSyncConnectorGames']> = async (req) => {
    const { environment } = req.params;
    const provider = await findProvider(sql, req.params.id);
    if (connectorProtocolOf(provider) !== 'hub88') {
      throw validationError('path', [
        { path: '/id', message: `A ${provider!.protocol} connector has no game list API: add its games with PUT /admin/providers/{id}/games/{gameCode}.` },
      ]);
    }
    const settings = (await connectorSettings(sql, provider!.id)).find((s) => s.environment === environment)?.settings as Hub88Settings | undefined;
    const ours = await ourSigningKey(sql, provider!.id, environment);
    if (!settings || !ours) {
      throw new AppError('VALIDATION_ERROR', 'The connector needs its settings and a key pair of ours in force for this environment first.', {
        in: 'path',
        issues: [{ path: '/environment', message: 'has no settings or no key of ours in force' }],
      });
    }
    const api = hub88GamesApi({
      baseUrl: settings.apiBaseUrl,
      operatorId: settings.operatorId,
      privateKey: hub88PrivateKey(openSecret(ours.privateKeySealed, master)),
      timeoutMs: GAMES_API_TIMEOUT_MS,
    });
    const listed = await api.gameList();
    if (!listed.ok) throw new AppError('PROVIDER_UNAVAILABLE', `The aggregator's game list could not be read: ${listed.reason}.`, { provider: provider!.name });
    // Our ids of the aggregator's games: printable, no spaces, at most 128 (a provider game code's rule).
    const games = listed.value.filter((g) => /^[\x21-\x7e]{1,128}$/.test(g.game_code));
    const body = await audited(req, 'adminSyncConnectorGames', async (tx, locked) => {
      const known = new Map((await listProviderGames(tx, locked.id)).map((g) => [g.gameCode, g]));
      let added = 0;
      let updated = 0;
      for (const g of games) {
        const before = known.get(g.game_code);
        const after = { name: g.name.slice(0, 200), category: (g.category ?? 'casino').slice(0, 64) || 'casino', enabled: g.enabled !== false };
        known.delete(g.game_code);
        if (before && before.name === after.name && before.category === after.category && before.enabled === after.enabled) continue;
        await putProviderGame(tx, {
          newId: `gm_p_${newId('provider').slice(4)}`,
          providerId: locked.id,
          providerName: locked.name,
          gameCode: g.game_code,
          ...after,
        });
        if (before) updated++;
        else added++;
      }
      // A game the aggregator no longer lists takes no new bets (its rounds still settle).
      let disabled = 0;
      for (const gone of known.values()) {
        if (!gone.enabled) continue;
        await putProviderGame(tx, {
          newId: gone.id,
          providerId: locked.id,
          providerName: locked.name,
          gameCode: gone.gameCode,
          name: gone.name,
          category: gone.category,
          enabled: false,
        });
        disabled++;
      }
      const counts = { added, updated, disabled, total: games.length };
      return { answer: counts, before: null, after: { environment, ...counts } };
    });
    return { status: 200, body };
  };

  return {
    adminGetProviderConnector: get,
    adminSetConnectorSettings: setSettings,
    adminAddConnectorTheirKey: addTheirKey,
    adminRotateConnectorOurKey: rotateOurKey,
    adminSetConnectorSecret: setSecret,
    adminRevokeConnectorKey: revoke,
    adminSyncConnectorGames: syncGames,
  };
}
