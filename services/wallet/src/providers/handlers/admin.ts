// The admin API's providers (docs/providers.md, "Providers"): register, change, offer to operators,
// keys (issued shown once, rotated with an overlap, revoked), games, and the casino rounds left
// open. Every change writes its audit row in its own transaction (handlers/audited.ts: the kit's
// writeDecisionAudit, relayed to the audit log once whatever is lost after the commit) and, when it changes what a key
// may do, tells the gateways to drop their cached keys of the provider.
import { createHash, randomInt } from 'node:crypto';
import {
  AppError,
  PLAYER_SUMMARIES_MAX,
  newId,
  playerSummaryMessages,
  providerInvalidateSubject,
  type Environment,
  type PlayerSummary,
  type providerAdminOperations,
} from '@bo/contracts';
import { formatMoney, isoTime, sealSecret, uniqueViolation, type adminScopeOf, type HandlerOf, type SqlRunner } from '@bo/service-kit';
import {
  findProvider,
  findProviderGame,
  insertCredential,
  insertProvider,
  listCredentials,
  listProviderGames,
  listProviders,
  lockProvider,
  openRoundsPastLimit,
  putProviderGame,
  revokeCredential,
  setProviderOperator,
  updateProvider,
  type CredentialRow,
  type ProviderRow,
} from '../store/registry.ts';
import { debtsOwed } from '../store/debts.ts';
import type { ProvidersContext } from './context.ts';
import { auditedChanges, type Audited } from './audited.ts';

type Ops = typeof providerAdminOperations;

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const base62 = (n: number) => Array.from({ length: n }, () => BASE62[randomInt(62)]).join('');
const tag = (e: Environment) => (e === 'sandbox' ? 'test' : 'live');

/** A credential's state now: the operators' keys' rule (revoked; expired from its end on; expiring before it). */
function credentialView(c: CredentialRow, now = Date.now()) {
  const status = c.revokedAt ? 'revoked' : !c.expiresAt ? 'active' : now >= c.expiresAt.getTime() ? 'expired' : 'expiring';
  return {
    id: c.id,
    environment: c.environment,
    keyPrefix: c.keyPrefix,
    status: status as 'active' | 'expiring' | 'expired' | 'revoked',
    expiresAt: c.expiresAt ? isoTime(c.expiresAt) : null,
    revokedAt: c.revokedAt ? isoTime(c.revokedAt) : null,
    createdAt: isoTime(c.createdAt),
  };
}

/**
 * Rows with their players' names and externalIds (issue #61: our team reads names, not ids), asked of
 * the players service a page at a time; a player it does not answer for keeps null.
 */
async function withPlayerNames<T extends { playerId: string }>(
  ctx: ProvidersContext,
  rows: T[],
): Promise<Array<T & { playerName: string | null; externalId: string | null }>> {
  const found = new Map<string, PlayerSummary>();
  const ids = [...new Set(rows.map((r) => r.playerId))];
  for (let i = 0; i < ids.length; i += PLAYER_SUMMARIES_MAX) {
    const page = await ctx.deps.call<{ players: PlayerSummary[] }>(playerSummaryMessages.summaries.subject, {
      playerIds: ids.slice(i, i + PLAYER_SUMMARIES_MAX),
    });
    for (const p of page.players) found.set(p.id, p);
  }
  return rows.map((r) => ({ ...r, playerName: found.get(r.playerId)?.name ?? null, externalId: found.get(r.playerId)?.externalId ?? null }));
}

async function providerOrThrow(sql: SqlRunner, id: string): Promise<ProviderRow> {
  const p = await findProvider(sql, id);
  if (!p) throw new AppError('PROVIDER_NOT_FOUND');
  return p;
}

/** The provider, locked for this transaction's change (its `before` is what the change replaced). */
async function lockedProvider(tx: SqlRunner, id: string): Promise<ProviderRow> {
  if (!(await lockProvider(tx, id))) throw new AppError('PROVIDER_NOT_FOUND');
  return providerOrThrow(tx, id);
}

/** Every gateway drops its cached keys of the provider: a disabled provider or a revoked key is refused everywhere at once. */
function announceChange(ctx: ProvidersContext, providerId: string): void {
  ctx.deps.nc.publish(providerInvalidateSubject(ctx.deps.prefix), JSON.stringify({ providerId }));
}

export function adminProviderHandlers(ctx: ProvidersContext) {
  const sql = ctx.deps.sql;
  const master = ctx.deps.config.SECRETS_MASTER_KEY;
  /** The change and its audit row in one transaction (handlers/audited.ts). */
  const audited: <T>(req: Parameters<typeof adminScopeOf>[0], action: keyof Ops, change: (tx: SqlRunner) => Promise<Audited<T>>) => Promise<T> =
    auditedChanges(ctx);

  const create: HandlerOf<Ops['adminCreateProvider']> = async (req) => {
    const id = newId('provider');
    const b = req.body;
    const after = await audited(req, 'adminCreateProvider', async (tx) => {
      try {
        await insertProvider(tx, {
          id,
          name: b.name,
          kind: b.kind,
          protocol: b.protocol ?? 'native',
          launchUrl: b.launchUrl ?? null,
          launchTimeoutMs: b.launchTimeoutMs ?? 3000,
          allowedIps: b.allowedIps ?? [],
          openRoundLimitMinutes: b.openRoundLimitMinutes ?? 60,
        });
      } catch (e) {
        if (uniqueViolation(e) !== undefined)
          throw new AppError('VALIDATION_ERROR', 'A provider with this name exists.', { in: 'body', errors: [{ path: '/name', message: 'is taken' }] });
        throw e;
      }
      const after = await providerOrThrow(tx, id);
      return { answer: after, audit: { target: `provider:${id}`, before: null, after } };
    });
    return { status: 201, body: after };
  };
  const update: HandlerOf<Ops['adminUpdateProvider']> = async (req) => {
    const after = await audited(req, 'adminUpdateProvider', async (tx) => {
      const before = await lockedProvider(tx, req.params.id);
      await updateProvider(tx, before.id, req.body);
      const after = await providerOrThrow(tx, before.id);
      return { answer: after, audit: { target: `provider:${before.id}`, before, after } };
    });
    announceChange(ctx, after.id);
    return { status: 200, body: after };
  };
  const setOperator: HandlerOf<Ops['adminSetProviderOperator']> = async (req) => {
    const after = await audited(req, 'adminSetProviderOperator', async (tx) => {
      const before = await lockedProvider(tx, req.params.id);
      await setProviderOperator(tx, before.id, req.params.operatorId, req.body.enabled);
      const after = await providerOrThrow(tx, before.id);
      return { answer: after, audit: { target: `provider:${before.id}`, before: before.operatorIds, after: after.operatorIds } };
    });
    return { status: 200, body: after };
  };
  const issue: HandlerOf<Ops['adminIssueProviderCredential']> = async (req) => {
    const { environment, overlapMinutes } = req.body;
    const key = `pk_${tag(environment)}_${base62(32)}`;
    const secret = `psk_${tag(environment)}_${base62(48)}`;
    const id = newId('credential');
    const { providerId, credential } = await audited(req, 'adminIssueProviderCredential', async (tx) => {
      const provider = await lockedProvider(tx, req.params.id);
      await insertCredential(tx, {
        id,
        providerId: provider.id,
        environment,
        keyHash: createHash('sha256').update(key).digest('hex'),
        keyPrefix: key.slice(0, 12),
        secretSealed: sealSecret(secret, master),
        endsAt: overlapMinutes === undefined ? null : new Date(Date.now() + overlapMinutes * 60_000),
      });
      const credential = credentialView((await listCredentials(tx, provider.id)).find((c) => c.id === id)!);
      // The audit row never holds the key or its secret.
      return {
        answer: { providerId: provider.id, credential },
        audit: { target: `provider:${provider.id}`, before: null, after: { credential, overlapMinutes: overlapMinutes ?? null } },
      };
    });
    if (overlapMinutes === 0) announceChange(ctx, providerId);
    return { status: 201, body: { credential, key, secret } };
  };
  const revoke: HandlerOf<Ops['adminRevokeProviderCredential']> = async (req) => {
    const { providerId, view } = await audited(req, 'adminRevokeProviderCredential', async (tx) => {
      const provider = await lockedProvider(tx, req.params.id);
      const revoked = await revokeCredential(tx, provider.id, req.params.credentialId);
      if (!revoked) throw new AppError('CREDENTIAL_NOT_FOUND', 'The provider has no credential with this id.');
      const view = credentialView(revoked);
      return { answer: { providerId: provider.id, view }, audit: { target: `provider:${provider.id}`, before: null, after: view } };
    });
    announceChange(ctx, providerId);
    return { status: 200, body: view };
  };
  const putGame: HandlerOf<Ops['adminPutProviderGame']> = async (req) => {
    const game = await audited(req, 'adminPutProviderGame', async (tx) => {
      const provider = await lockedProvider(tx, req.params.id);
      const before = (await findProviderGame(tx, provider.id, req.params.gameCode)) ?? null;
      const game = await putProviderGame(tx, {
        newId: `gm_p_${newId('provider').slice(4)}`,
        providerId: provider.id,
        providerName: provider.name,
        gameCode: req.params.gameCode,
        name: req.body.name,
        category: req.body.category,
        enabled: req.body.enabled ?? true,
      });
      return { answer: game, audit: { target: `provider:${provider.id}`, before, after: game } };
    });
    return { status: 200, body: game };
  };
  return {
    adminCreateProvider: create,
    adminListProviders: (async () => ({ status: 200, body: { data: await listProviders(sql) } })) satisfies HandlerOf<Ops['adminListProviders']>,
    adminGetProvider: (async (req) => ({ status: 200, body: await providerOrThrow(sql, req.params.id) })) satisfies HandlerOf<Ops['adminGetProvider']>,
    adminUpdateProvider: update,
    adminSetProviderOperator: setOperator,
    adminListProviderCredentials: (async (req) => {
      const provider = await providerOrThrow(sql, req.params.id);
      return { status: 200, body: { data: (await listCredentials(sql, provider.id)).map((c) => credentialView(c)) } };
    }) satisfies HandlerOf<Ops['adminListProviderCredentials']>,
    adminIssueProviderCredential: issue,
    adminRevokeProviderCredential: revoke,
    adminListProviderGames: (async (req) => {
      const provider = await providerOrThrow(sql, req.params.id);
      return { status: 200, body: { data: await listProviderGames(sql, provider.id) } };
    }) satisfies HandlerOf<Ops['adminListProviderGames']>,
    adminPutProviderGame: putGame,
    adminListOpenRounds: (async (req) => {
      const provider = await providerOrThrow(sql, req.params.id);
      const rows = await openRoundsPastLimit(sql, provider.id);
      const named = await withPlayerNames(ctx, rows);
      return { status: 200, body: { data: named.map((r) => ({ ...r, staked: formatMoney(r.staked), openedAt: isoTime(r.openedAt) })) } };
    }) satisfies HandlerOf<Ops['adminListOpenRounds']>,
    adminListProviderDebts: (async (req) => {
      const provider = await providerOrThrow(sql, req.params.id);
      return { status: 200, body: { data: await withPlayerNames(ctx, await debtsOwed(sql, provider.id)) } };
    }) satisfies HandlerOf<Ops['adminListProviderDebts']>,
  };
}
