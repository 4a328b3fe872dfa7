// One crash scenario step: the request runs into a crash point, the caller hears nothing, the
// process is dead by SIGKILL; it is started again (without CRASH_AT) and must converge.
import type { Test } from 'tap';
import type { OperationReply } from '@bo/contracts';
import { FAST_RECONCILER } from './stack.ts';
import { errorOf, adminScope, type Stack, type processGroup } from '@bo/test-support';

/**
 * True once the service answers a harmless request (any reply but "no answer"). The deadline is a
 * ceiling for an answer that comes: a process not yet listening is "no responders" at once.
 */
export function answers(stack: Stack) {
  return async (name: 'wallet' | 'payments'): Promise<boolean> => {
    const reply =
      name === 'wallet'
        ? await stack.call('wallet.admin.verifyLedger', { scope: adminScope, timeoutMs: 30_000 })
        : await stack.call('payments.admin.withdrawals', { scope: adminScope, query: { limit: 1 }, timeoutMs: 30_000 });
    return reply.ok || reply.error.code !== 'SERVICE_UNAVAILABLE';
  };
}

/**
 * The deadline of the payments process that calls into a wallet about to die: it is what ends that
 * call (a request a dead process took is never answered). Only that process has it: a normal call
 * on a loaded machine can take longer (docs/testing.md).
 */
export const CALLS_INTO_A_DYING_WALLET = { RPC_TIMEOUT_MS: 1500 };

export function childEnv(stack: Stack): Record<string, string | number> {
  return {
    DATABASE_URL: stack.databaseUrl,
    NATS_URL: stack.config.NATS_URL,
    NATS_PREFIX: stack.prefix,
    // A ceiling for an answer that comes, on a machine as loaded as CI's.
    RPC_TIMEOUT_MS: 30_000,
    OUTBOX_POLL_MS: 50,
    ...FAST_RECONCILER,
  };
}

export async function crashAndRecover(
  t: Test,
  procs: ReturnType<typeof processGroup>,
  side: 'wallet' | 'payments',
  point: string,
  trigger: () => Promise<OperationReply>,
  restartEnv: Record<string, string | number> = {},
): Promise<void> {
  const victim = procs.get(side)!;
  if (side === 'wallet') await procs.start('payments', CALLS_INTO_A_DYING_WALLET);
  const reply = await trigger();
  t.equal(errorOf(reply)?.code, 'SERVICE_UNAVAILABLE', `the caller gets no answer: ${side} died at ${point}`);
  const { signal } = await victim.exited;
  t.equal(signal, 'SIGKILL', `${side} was killed at ${point}`);
  t.match(victim.stderrTail(), `crash point ${point}: exiting`);
  await procs.start(side, restartEnv);
  // What converges after the crash (the reconciler, the test's own calls) has the usual deadline.
  if (side === 'wallet') await procs.start('payments');
}
