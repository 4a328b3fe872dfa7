// The payments stack for tests: real players, wallet and payments services (in-process) on a fresh
// database and NATS prefix, plus helpers to drive the money flows and read their effects.
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { jetstream, jetstreamManager, DeliverPolicy } from '@nats-io/jetstream';
import { eventsStreamName, type Deposit, type DomainEvent, type OperatorScope, type Wallet, type Withdrawal } from '@bo/contracts';
import { paymentsService } from '../../src/service.ts';
import { playersService } from '@bo/players';
import { walletService } from '@bo/wallet';
import { startStack, type Stack, createPlayer, type PlayerSetup, ok } from '@bo/test-support';

export { moneyTest, assertLedgerSound } from '@bo/test-support';
export { operatorScope, adminScope, internalScope } from '@bo/test-support';
export { answerOf, ok, errorOf } from '@bo/test-support';
export { setLimits, setStatus, createPlayer } from '@bo/test-support';

/** The reconciler runs fast in tests so convergence takes well under a second. */
export const FAST_RECONCILER = { RECONCILE_INTERVAL_MS: 100, RECONCILE_AFTER_MS: 300 };

export interface PaymentsStack extends Stack {
  sql: pg.Client;
  money: Money;
}

export async function startPaymentsStack(t: Test, label: string, opts: { payments?: boolean; wallet?: boolean } = {}): Promise<PaymentsStack> {
  const stack = await startStack(t, label, (opts.wallet ?? true) ? [playersService, walletService] : [playersService]);
  if (opts.payments ?? true) await stack.start(paymentsService, FAST_RECONCILER);
  const sql = new pg.Client({ connectionString: stack.databaseUrl });
  await sql.connect();
  t.teardown(() => sql.end());
  return Object.assign(stack, { sql, money: money(stack, sql) });
}

export const key = (label = 'k') => `${label}-${randomBytes(8).toString('hex')}`;

export type Money = ReturnType<typeof money>;

/** The operations of the flows, as the gateway would send them. */
function money(stack: Stack, sql: pg.Client) {
  const { call } = stack;
  return {
    player: (scope: OperatorScope, setup: PlayerSetup = {}) => createPlayer(call, scope, setup),
    createDeposit: (scope: OperatorScope, playerId: string, body: Record<string, unknown>, k = key('dep')) =>
      call<Deposit>('payments.deposits.create', {
        scope,
        key: k,
        params: { playerId },
        body: { currency: 'BRL', method: 'pix', externalReference: key('ref'), ...body },
      }),
    confirm: (scope: OperatorScope, depositId: string, k = key('conf'), timeoutMs?: number) =>
      call<Deposit>('payments.deposits.confirm', { scope, key: k, params: { depositId }, body: {}, timeoutMs }),
    fail: (scope: OperatorScope, depositId: string, body: Record<string, unknown> = {}, k = key('fail')) =>
      call<Deposit>('payments.deposits.fail', { scope, key: k, params: { depositId }, body }),
    createWithdrawal: (scope: OperatorScope, playerId: string, amount: string, k = key('wd'), extra: Record<string, unknown> = {}, timeoutMs?: number) =>
      call<Withdrawal>('payments.withdrawals.create', {
        scope,
        key: k,
        params: { playerId },
        body: { amount, currency: 'BRL', method: 'pix', destination: 'chave-pix-123', ...extra },
        timeoutMs,
      }),
    getWithdrawal: (scope: OperatorScope, withdrawalId: string) => call<Withdrawal>('payments.withdrawals.get', { scope, params: { withdrawalId } }),
    cancel: (scope: OperatorScope, withdrawalId: string, k = key('cancel'), timeoutMs?: number) =>
      call<Withdrawal>('payments.withdrawals.cancel', { scope, key: k, params: { withdrawalId }, body: {}, timeoutMs }),
    decide: (scope: OperatorScope, withdrawalId: string, decision: string, timeoutMs?: number, k?: string) =>
      call<Withdrawal>('payments.withdrawals.decide', { scope, key: k, params: { withdrawalId }, body: { decision }, timeoutMs }),
    /** Four eyes: one person approves and rejects, another pays (unless `actor` says who). */
    adminDecide: (withdrawalId: string, decision: string, timeoutMs?: number, k?: string, actor?: string) =>
      call<Withdrawal>('payments.admin.withdrawalDecision', {
        scope: { kind: 'admin', actor: actor ?? (decision === 'pay' ? 'payer@test' : 'reviewer@test') },
        key: k,
        params: { id: withdrawalId },
        // A rejection says why (issue #61).
        body: { decision, ...(decision === 'reject' ? { reason: 'not the player’s account' } : {}) },
        timeoutMs,
      }),
    wallet: async (scope: OperatorScope, playerId: string) => ok<Wallet>(await call('wallet.get', { scope, params: { playerId } })),

    /** A player with `amount` confirmed in the wallet (and KYC approved, so they can withdraw). */
    async fundedPlayer(scope: OperatorScope, amount: string, setup: PlayerSetup = { kyc: 'aprovado' }): Promise<string> {
      const playerId = await createPlayer(call, scope, setup);
      const dep = ok(await this.createDeposit(scope, playerId, { amount }));
      ok(await this.confirm(scope, dep.id));
      return playerId;
    },
    /** Ledger entries written for a deposit or withdrawal id, by type (both postings counted once: the player's). */
    async playerEntries(referenceId: string): Promise<{ type: string; amount: string }[]> {
      const r = await sql.query(
        `select e.type, e.amount from wallet.ledger_entries e join wallet.accounts a on a.id = e.account_id where a.kind = 'player' and e.reference_id = $1`,
        [referenceId],
      );
      return r.rows;
    },
    async holdOf(withdrawalId: string): Promise<string | undefined> {
      return (await sql.query('select status from wallet.holds where withdrawal_id = $1', [withdrawalId])).rows[0]?.status;
    },
    async depositStatus(depositId: string): Promise<string | undefined> {
      return (await sql.query('select status from payments.deposits where id = $1', [depositId])).rows[0]?.status;
    },
    /** The deposits' statuses, in the order of the ids. */
    async depositStatuses(ids: string[]): Promise<(string | undefined)[]> {
      const rows = (await sql.query<{ id: string; status: string }>('select id, status from payments.deposits where id = any($1)', [ids])).rows;
      return ids.map((id) => rows.find((r) => r.id === id)?.status);
    },
    async withdrawalStatus(withdrawalId: string): Promise<string | undefined> {
      return (await sql.query('select status from payments.withdrawals where id = $1', [withdrawalId])).rows[0]?.status;
    },
  };
}

/** Every event in the prefix's stream (JetStream has already dropped duplicates by msgID). */
export async function streamEvents(stack: Stack): Promise<DomainEvent[]> {
  const stream = eventsStreamName(stack.prefix);
  const { state } = await (await jetstreamManager(stack.nc)).streams.info(stream);
  const consumer = await jetstream(stack.nc).consumers.get(stream, { deliver_policy: DeliverPolicy.All });
  const out: DomainEvent[] = [];
  while (out.length < state.messages) {
    const m = await consumer.next({ expires: 5000 });
    if (!m) throw new Error(`read ${out.length} of ${state.messages} events`);
    out.push(m.json<DomainEvent>());
  }
  return out;
}

/** Events of the stream once the payments outbox has published everything written so far. */
export async function publishedEvents(stack: PaymentsStack): Promise<DomainEvent[]> {
  const deadline = Date.now() + 10_000;
  while (Number((await stack.sql.query('select count(*) from payments.outbox where published_at is null')).rows[0].count) > 0) {
    if (Date.now() > deadline) throw new Error('payments outbox did not drain');
    await new Promise((r) => setTimeout(r, 50));
  }
  return streamEvents(stack);
}
