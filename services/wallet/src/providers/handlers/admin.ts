// The admin API's providers (docs/providers.md, "Providers"): register, change, offer to operators,
// keys (issued shown once, rotated with an overlap, revoked), games, and the casino rounds left
// open. Every change answers its audit trail (the gateway records it) and, when it changes what a
// key may do, tells the gateways to drop their cached keys of the provider.
import { createHash, randomInt } from 'node:crypto';
import { AppError, newId, providerInvalidateSubject, type Environment, type providerAdminOperations } from '@bo/contracts';
import { formatMoney, isoTime, sealSecret, uniqueViolation, type HandlerOf } from '@bo/service-kit';
import {
  findProvider,
  insertCredential,
  insertProvider,
  listCredentials,
  listProviderGames,
  listProviders,
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

async function providerOrThrow(ctx: ProvidersContext, id: string): Promise<ProviderRow> {
  const p = await findProvider(ctx.deps.sql, id);
  if (!p) throw new AppError('PROVIDER_NOT_FOUND');
  return p;
}

/** Every gateway drops its cached keys of the provider: a disabled provider or a revoked key is refused everywhere at once. */
function announceChange(ctx: ProvidersContext, providerId: string): void {
  ctx.deps.nc.publish(providerInvalidateSubject(ctx.deps.prefix), JSON.stringify({ providerId }));
}

export function adminProviderHandlers(ctx: ProvidersContext) {
  const sql = ctx.deps.sql;
  const master = ctx.deps.config.SECRETS_MASTER_KEY;
  const create: HandlerOf<Ops['adminCreateProvider']> = async (req) => {
    const id = newId('provider');
    const b = req.body;
    try {
      await insertProvider(sql, {
        id,
        name: b.name,
        kind: b.kind,
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
    const after = await providerOrThrow(ctx, id);
    return { status: 201, body: after, audit: { target: `provider:${id}`, before: null, after } };
  };
  const update: HandlerOf<Ops['adminUpdateProvider']> = async (req) => {
    const before = await providerOrThrow(ctx, req.params.id);
    await updateProvider(sql, before.id, req.body);
    const after = await providerOrThrow(ctx, before.id);
    announceChange(ctx, before.id);
    return { status: 200, body: after, audit: { target: `provider:${before.id}`, before, after } };
  };
  const setOperator: HandlerOf<Ops['adminSetProviderOperator']> = async (req) => {
    const before = await providerOrThrow(ctx, req.params.id);
    await setProviderOperator(sql, before.id, req.params.operatorId, req.body.enabled);
    const after = await providerOrThrow(ctx, before.id);
    return { status: 200, body: after, audit: { target: `provider:${before.id}`, before: before.operatorIds, after: after.operatorIds } };
  };
  const issue: HandlerOf<Ops['adminIssueProviderCredential']> = async (req) => {
    const provider = await providerOrThrow(ctx, req.params.id);
    const { environment, overlapMinutes } = req.body;
    const key = `pk_${tag(environment)}_${base62(32)}`;
    const secret = `psk_${tag(environment)}_${base62(48)}`;
    const id = newId('credential');
    await insertCredential(sql, {
      id,
      providerId: provider.id,
      environment,
      keyHash: createHash('sha256').update(key).digest('hex'),
      keyPrefix: key.slice(0, 12),
      secretSealed: sealSecret(secret, master),
      endsAt: overlapMinutes === undefined ? null : new Date(Date.now() + overlapMinutes * 60_000),
    });
    if (overlapMinutes === 0) announceChange(ctx, provider.id);
    const credential = credentialView((await listCredentials(sql, provider.id)).find((c) => c.id === id)!);
    return {
      status: 201,
      body: { credential, key, secret },
      audit: { target: `provider:${provider.id}`, before: null, after: { credential, overlapMinutes: overlapMinutes ?? null } },
    };
  };
  const revoke: HandlerOf<Ops['adminRevokeProviderCredential']> = async (req) => {
    const provider = await providerOrThrow(ctx, req.params.id);
    const revoked = await revokeCredential(sql, provider.id, req.params.credentialId);
    if (!revoked) throw new AppError('CREDENTIAL_NOT_FOUND', 'The provider has no credential with this id.');
    announceChange(ctx, provider.id);
    const view = credentialView(revoked);
    return { status: 200, body: view, audit: { target: `provider:${provider.id}`, before: null, after: view } };
  };
  const putGame: HandlerOf<Ops['adminPutProviderGame']> = async (req) => {
    const provider = await providerOrThrow(ctx, req.params.id);
    const game = await putProviderGame(sql, {
      newId: `gm_p_${newId('provider').slice(4)}`,
      providerId: provider.id,
      providerName: provider.name,
      gameCode: req.params.gameCode,
      name: req.body.name,
      category: req.body.category,
      enabled: req.body.enabled ?? true,
    });
    return { status: 200, body: game, audit: { target: `provider:${provider.id}`, before: null, after: game } };
  };
  return {
    adminCreateProvider: create,
    adminListProviders: (async () => ({ status: 200, body: { data: await listProviders(sql) } })) satisfies HandlerOf<Ops['adminListProviders']>,
    adminGetProvider: (async (req) => ({ status: 200, body: await providerOrThrow(ctx, req.params.id) })) satisfies HandlerOf<Ops['adminGetProvider']>,
    adminUpdateProvider: update,
    adminSetProviderOperator: setOperator,
    adminListProviderCredentials: (async (req) => {
      const provider = await providerOrThrow(ctx, req.params.id);
      return { status: 200, body: { data: (await listCredentials(sql, provider.id)).map((c) => credentialView(c)) } };
    }) satisfies HandlerOf<Ops['adminListProviderCredentials']>,
    adminIssueProviderCredential: issue,
    adminRevokeProviderCredential: revoke,
    adminListProviderGames: (async (req) => {
      const provider = await providerOrThrow(ctx, req.params.id);
      return { status: 200, body: { data: await listProviderGames(sql, provider.id) } };
    }) satisfies HandlerOf<Ops['adminListProviderGames']>,
    adminPutProviderGame: putGame,
    adminListOpenRounds: (async (req) => {
      const provider = await providerOrThrow(ctx, req.params.id);
      const rows = await openRoundsPastLimit(sql, provider.id);
      return { status: 200, body: { data: rows.map((r) => ({ ...r, staked: formatMoney(r.staked), openedAt: isoTime(r.openedAt) })) } };
    }) satisfies HandlerOf<Ops['adminListOpenRounds']>,
    adminListProviderDebts: (async (req) => {
      const provider = await providerOrThrow(ctx, req.params.id);
      return { status: 200, body: { data: await debtsOwed(sql, provider.id) } };
    }) satisfies HandlerOf<Ops['adminListProviderDebts']>,
  };
}
