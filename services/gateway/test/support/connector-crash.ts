// What the connector crash tests (issue #58) share: the real gateway (its deadline a ceiling for
// answers that come, as everywhere) and a second replica with a short one that carries only the call
// the wallet dies in (the provider hears "no answer" soon after the wallet dies), the players service,
// and the wallet as a real child process that a test kills between its money statement and its
// answer (CRASH_AT) and starts again; an operator with its production scope ("live") and a provider
// of the protocol under test, whose connector the test sets up. Removes everything in teardown.
import type { Test } from 'tap';
import { randomBytes, randomUUID } from 'node:crypto';
import { WALLET_SUBJECTS, type OperatorScope } from '@bo/contracts';
import { BaseConfigSchema, configOf, startServiceWith } from '@bo/service-kit';
import { cleanupNatsPrefix, createTestDatabase, randomCpf, testNatsUrl, testPrefix } from '@bo/service-kit/testing';
import { caller, internalScope, LAUNCH_SECRET, ok, playersService, processGroup } from '@bo/test-support';
import { startHarness } from './harness.ts';

export interface ConnectorCrashOptions {
  /** The test database's and NATS prefix's label, e.g. 'evocrash'. */
  label: string;
  /** The operator's name, before a random suffix. */
  operatorName: string;
  /** The provider's name, before a random suffix. */
  providerName: string;
  kind: 'casino' | 'sportsbook';
  protocol: 'betsy' | 'evolution' | 'hub88';
}

export async function startConnectorCrashHarness(t: Test, o: ConnectorCrashOptions) {
  const db = await createTestDatabase(o.label);
  const prefix = testPrefix(o.label);
  const h = await startHarness({}, { db, prefix });
  // Only the call into a crash point goes through this replica: a loaded machine's normal answers
  // (the provider's retries after the wallet is back) never meet its 1.5 s (issue #71).
  const impatient = await h.startReplica({ RPC_TIMEOUT_MS: '1500' });
  const players = await startServiceWith(playersService, configOf(BaseConfigSchema, { DATABASE_URL: db.url, NATS_URL: testNatsUrl(), NATS_PREFIX: prefix }));
  t.teardown(async () => {
    await players.stop();
    await h.close();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  const call = caller(h.operators.nc, prefix);
  const gw = h.gateways[0]!;
  const wallet = processGroup<'wallet'>(
    t,
    {
      DATABASE_URL: db.url,
      NATS_URL: testNatsUrl(),
      NATS_PREFIX: prefix,
      RPC_TIMEOUT_MS: 5000,
      GAME_LAUNCH_SECRET: LAUNCH_SECRET,
      PUBLIC_BASE_URL: gw.publicUrl,
    },
    async () => {
      // A ceiling for an answer that comes: a wallet not yet listening is "no responders" at once.
      const r = await call('wallet.admin.verifyLedger', { scope: { kind: 'admin', actor: 'test' }, timeoutMs: 30_000 });
      return r.ok || r.error.code !== 'SERVICE_UNAVAILABLE';
    },
  );
  await wallet.start('wallet');

  const admin = async (method: string, path: string, body?: unknown) => {
    const r = await h.admin(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const op = await h.createOperator({ name: `${o.operatorName} ${randomBytes(3).toString('hex')}` });
  const live: OperatorScope = {
    kind: 'operator',
    operatorId: op.operator.id,
    brandId: (await op.productionClient.get('/me')).body.brand.id,
    environment: 'production',
    currency: 'BRL',
  };
  const provider = await admin('POST', '/admin/providers', { name: `${o.providerName} ${randomBytes(3).toString('hex')}`, kind: o.kind, protocol: o.protocol });

  /** Opens the provider to the operator (once its connector is set up). */
  const enable = () => admin('PUT', `/admin/providers/${provider.id}/operators/${live.operatorId}`, { enabled: true });
  /** A player, KYC approved, with `funds` deposited ('0.00': none, a player who never deposited) and a game session of `gameId` opened; its id. */
  const fundedPlayer = async (funds: string, gameId: string) => {
    const player = ok<{ id: string }>(
      await call('players.create', {
        scope: live,
        key: `create-${randomUUID()}`,
        body: { externalId: `ext-${randomUUID()}`, name: 'Maria Teste', email: 'maria@example.com', cpf: randomCpf(), birthDate: '1990-05-17' },
      }),
    ).id;
    ok(await call('players.admin.kycDecision', { scope: { kind: 'admin', actor: 'test' }, params: { id: player }, body: { status: 'aprovado' } }));
    if (funds !== '0.00')
      ok(
        await call(WALLET_SUBJECTS.credit, {
          scope: internalScope(),
          body: { brandId: live.brandId, playerId: player, currency: 'BRL', amount: funds, depositId: `dep_${randomBytes(6).toString('hex')}` },
        }),
      );
    ok(await call('games.sessions.create', { scope: live, params: { playerId: player }, body: { gameId } }));
    return player;
  };
  /** The ledger entries in force of the provider's transaction `transactionId`. */
  const ledgerOf = async (transactionId: string) =>
    players.sql.query<{ type: string; amount: string }>(
      `select e.type, e.amount from wallet.ledger_transactions t join wallet.ledger_entries e on e.transaction_id = t.id
       where t.source = ? and e.account_seq is not null`,
      [`provider:${provider.id}:${transactionId}`],
    );
  const base = (gateway: { publicUrl: string }) => `${gateway.publicUrl}/connectors/${o.protocol}/${provider.id}/production`;
  /**
   * Starts the wallet to die at `point`, runs `send` with the impatient replica's base (the provider's
   * call, which hears no answer), checks that it died there, and starts it again.
   */
  const killWalletAt = async (t: Test, point: string, send: (crashBase: string) => Promise<void>) => {
    const victim = await wallet.start('wallet', { CRASH_AT: point });
    await send(base(impatient));
    t.equal((await victim.exited).signal, 'SIGKILL', `the wallet died at ${point}`);
    await wallet.start('wallet');
  };
  const ledgerSound = async (t: Test) => {
    const v = ok<any>(await call('wallet.admin.verifyLedger', { scope: { kind: 'admin', actor: 'test' } }));
    t.same({ ok: v.ok, mismatches: v.mismatches, sum: v.sumOfAllBalances }, { ok: true, mismatches: [], sum: '0.00' }, 'verifyLedger holds');
  };

  return {
    h,
    db,
    prefix,
    players,
    call,
    gw,
    wallet,
    admin,
    op,
    live,
    provider,
    /** The admin API's path of the provider's production connector. */
    connector: `/admin/providers/${provider.id}/connector/production`,
    /** Where the provider calls us through the gateway. */
    base: base(gw),
    enable,
    fundedPlayer,
    ledgerOf,
    killWalletAt,
    ledgerSound,
  };
}
