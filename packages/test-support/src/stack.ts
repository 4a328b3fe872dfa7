// A fresh database and NATS prefix with the real services started in-process, torn down after the
// test; the ledger checks every money test ends with.
import type { Test } from 'tap';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { BaseConfigSchema, configOf, startServiceWith, type BaseConfig, type RunningService, type ServiceDefinition } from '@bo/service-kit';
import { cleanupNatsPrefix, createTestDatabase, testNatsUrl, testPrefix, timedPhase } from '@bo/service-kit/testing';
import { caller, ok, type Caller } from './rpc.ts';
import { adminScope } from './scopes.ts';
import type { LedgerVerification } from '@bo/contracts';

export interface Stack {
  config: BaseConfig;
  prefix: string;
  databaseUrl: string;
  nc: NatsConnection;
  call: Caller;
  services: Map<string, RunningService>;
  start(def: ServiceDefinition<any, any>, extra?: Record<string, unknown>): Promise<RunningService>;
  stop(name: string): Promise<void>;
  verifyLedger(): Promise<LedgerVerification>;
}

/**
 * A fresh database and NATS prefix with `services` started in-process (in order), torn down after the
 * test. `emptyDatabase`: a database no migration has touched (createTestDatabase), for tests of the migrations.
 */
export async function startStack(t: Test, label: string, initial: ServiceDefinition<any, any>[] = [], opts: { emptyDatabase?: boolean } = {}): Promise<Stack> {
  const db = await createTestDatabase(label, { empty: opts.emptyDatabase });
  const prefix = testPrefix(label);
  // RPC deadline generous: a busy machine is slow, and a test never waits on a timeout here.
  const config: BaseConfig = configOf(BaseConfigSchema, {
    DATABASE_URL: db.url,
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: prefix,
    RPC_TIMEOUT_MS: 30_000,
    OUTBOX_POLL_MS: 50,
    // Slower while idle (each commit's poke publishes at once): a stack's relays polled 140 times a
    // second between its tests, CPU the other files of the run wanted (issue #71).
    OUTBOX_IDLE_POLL_MS: 1000,
  });
  const nc = await connect({ servers: testNatsUrl(), name: `test-${label}` });
  const services = new Map<string, RunningService>();
  const stack: Stack = {
    config,
    prefix,
    databaseUrl: db.url,
    nc,
    call: caller(nc, prefix),
    services,
    async start(def, extra = {}) {
      const svc = await timedPhase('service start', () => startServiceWith(def, { ...config, ...extra }));
      services.set(def.name, svc);
      return svc;
    },
    async stop(name) {
      const svc = services.get(name);
      services.delete(name);
      await svc?.stop();
    },
    async verifyLedger() {
      return ok<LedgerVerification>(await stack.call('wallet.admin.verifyLedger', { scope: adminScope }));
    },
  };
  t.teardown(async () => {
    for (const name of [...services.keys()]) await stack.stop(name);
    await nc.close();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  for (const def of initial) await stack.start(def);
  return stack;
}

/** Asserts the ledger invariants (issue #4, invariant 1); call after every money test. */
export async function assertLedgerSound(t: Test, stack: Stack): Promise<void> {
  const v = await stack.verifyLedger();
  t.same(
    { ok: v.ok, mismatches: v.mismatches, unbalanced: v.unbalancedTransactions, sum: v.sumOfAllBalances },
    { ok: true, mismatches: [], unbalanced: [], sum: '0.00' },
    'ledger verifies: balances = sum of entries, held = open holds, sum of all balances = 0',
  );
}

/** `t.test` that ends with the ledger check, so no money test can skip it. */
export function moneyTest(parent: Test, stack: Stack) {
  return (name: string, fn: (t: Test) => Promise<void>) =>
    parent.test(name, async (t) => {
      await fn(t);
      await assertLedgerSound(t, stack);
    });
}
