// Finishes what a crash (or a wallet that did not answer) interrupted: deposits left `confirming`
// and withdrawals left `reserving`, `cancelling`, `rejecting` or `paying`. Runs in every replica;
// `for update skip locked` keeps two replicas (or a replica and a live request) off the same row.
// Each row is repeated and completed in one transaction that holds its lock throughout.
import { AppError } from '@bo/contracts';
import { counter, startLoop, type BackgroundTask, type Logger } from '@bo/service-kit';
import type { Registry } from 'prom-client';
import { lockDeposit, staleDeposits } from '../store/deposit-store.ts';
import { lockWithdrawal, staleWithdrawals } from '../store/withdrawal-store.ts';
import { completeConfirmation } from '../store/deposit-completion.ts';
import { creditWallet } from './deposit-confirmation.ts';
import { completeMove, isTransitional, walletStepOf } from './withdrawal-moves.ts';
import { inTransaction, type FlowDeps } from './context.ts';

export interface ReconcilerOptions {
  intervalMs: number;
  afterMs: number;
  batch?: number;
}
type ReconcilerDeps = FlowDeps & { log: Logger; metrics?: Registry };

/** One pass; returns how many rows it finished. */
export async function reconcileOnce(deps: ReconcilerDeps, opts: ReconcilerOptions): Promise<number> {
  let finished = 0;
  const batch = opts.batch ?? 50;
  for (const id of await staleDeposits(deps.sql, 'confirming', opts.afterMs, batch)) {
    finished += await attempt(deps, 'deposit', id, () =>
      inTransaction(deps, async (tx) => {
        const row = await lockDeposit(tx, id, undefined, { skipLocked: true });
        if (row?.status !== 'confirming') return false;
        await creditWallet(deps, row);
        await completeConfirmation(tx, row);
        return true;
      }),
    );
  }
  for (const id of await staleWithdrawals(deps.sql, opts.afterMs, batch)) {
    finished += await attempt(deps, 'withdrawal', id, () =>
      inTransaction(deps, async (tx) => {
        const row = await lockWithdrawal(tx, id, undefined, { skipLocked: true });
        if (!row || !isTransitional(row.status)) return false;
        const { outcome, auto } = await walletStepOf(deps, row);
        await completeMove(tx, row, outcome, auto);
        return true;
      }),
    );
  }
  return finished;
}

const KINDS = ['deposit', 'withdrawal'] as const;
const RESULTS = ['finished', 'failed'] as const;

/** The reconciler's counter; every kind and result starts at 0, so the series is there (and rates work) before the first row. */
function rowsCounter(registry: Registry) {
  const rows = counter(
    registry,
    'bo_reconciler_rows_total',
    'Interrupted moves the reconciler took up, by kind (deposit, withdrawal) and result (finished, failed: left for the next pass).',
    ['kind', 'result'] as const,
  );
  for (const kind of KINDS) for (const result of RESULTS) rows.inc({ kind, result }, 0);
  return rows;
}

async function attempt(deps: ReconcilerDeps, kind: (typeof KINDS)[number], id: string, fn: () => Promise<boolean>): Promise<number> {
  const rows = deps.metrics && rowsCounter(deps.metrics);
  try {
    const done = await fn();
    if (done) rows?.inc({ kind, result: 'finished' });
    if (done) deps.log.info({ [kind]: id }, `reconciler finished an interrupted ${kind}`);
    return done ? 1 : 0;
  } catch (err) {
    // Left as it is for the next pass; an unavailable wallet is expected, anything else is not.
    rows?.inc({ kind, result: 'failed' });
    const expected = err instanceof AppError && err.code === 'SERVICE_UNAVAILABLE';
    deps.log[expected ? 'warn' : 'error']({ err, [kind]: id }, `reconciler could not finish a ${kind}; will retry`);
    return 0;
  }
}

/** Starts the loop; a pass that fails as a whole (not one row) makes the service unready until one succeeds. */
export function startReconciler(deps: ReconcilerDeps, opts: ReconcilerOptions): BackgroundTask {
  if (deps.metrics) rowsCounter(deps.metrics);
  const loop = startLoop({
    name: 'reconciler pass',
    intervalMs: opts.intervalMs,
    log: deps.log,
    startNow: false,
    run: async () => {
      await reconcileOnce(deps, opts);
    },
  });
  return { name: 'reconciler', stop: loop.stop, problem: loop.problem };
}
