// Group commit of one-statement writes (docs/money.md, "Group commit"): the statements of
// concurrent requests, each written as CTEs named with a suffix, are run as ONE statement — one
// round trip, one transaction, one commit for the batch — and each request reads its own rows.
// Every item's CTEs keep their own conditions, so an item that writes nothing in a batch writes
// nothing alone. A batch that fails (a unique violation of one item, a lost connection) is run
// again item by item, so one item's failure is its own.
import { Counter, type Registry } from 'prom-client';
import { groupCommit } from './group-commit.ts';
import type { SqlRunner } from './sql.ts';

/** One item's share of the statement. */
export interface StatementPart {
  /** Its CTEs (`d_0 as (…), o_0 as (…)`), named with the suffix it was given; may use `?`. */
  ctes: string;
  params: unknown[];
  /** The select list and FROM of its result rows, over its own CTEs (`count(*)::int as n from d_0`); no `?`. */
  select: string;
}

/** The one statement of several parts; each row carries `batch_item`, its part's index. */
export function combinedStatement(parts: StatementPart[]): { text: string; params: unknown[] } {
  for (const p of parts) if (p.select.includes('?')) throw new Error('a part’s select takes no parameters');
  return {
    text: `with ${parts.map((p) => p.ctes).join(',\n')}\n${parts.map((p, i) => `(select ${i} as batch_item, ${p.select})`).join('\nunion all ')}`,
    params: parts.flatMap((p) => p.params),
  };
}

/** Runs the parts as one statement; the rows of each part, in the parts' order. */
export async function runCombined<R = Record<string, unknown>>(sql: SqlRunner, parts: StatementPart[]): Promise<R[][]> {
  const { text, params } = combinedStatement(parts);
  const out: R[][] = parts.map(() => []);
  for (const row of await sql.query<{ batch_item: number }>(text, params)) {
    const { batch_item, ...rest } = row;
    out[Number(batch_item)]!.push(rest as R);
  }
  return out;
}

/** One part run as its own statement (the reconciler's, a transaction's, or the group commit off): its rows. */
export async function runAlone<R = Record<string, unknown>>(sql: SqlRunner, part: StatementPart): Promise<R[]> {
  return (await runCombined<R>(sql, [part]))[0]!;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
const settle = <T>(p: Promise<T>): Promise<Settled<T>> =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/** The settings a service gives every group of statements (GROUP_COMMIT_*, the kit's config). */
export interface StatementGroupSettings {
  max: number;
  windowMs: number;
}

export interface StatementGroupOptions<I> {
  /** Names the group in metrics (`bo_group_commit_*{group}`). */
  name: string;
  settings: StatementGroupSettings;
  /** Items of one key (a row the statement writes) never share a statement. */
  keyOf: (item: I) => string;
  /** The item's part, its CTEs named with `suffix`. */
  part: (item: I, suffix: string) => StatementPart;
  /**
   * Which text its part has, when items differ (a round with or without a win): parts are ordered
   * by it first, so a batch's text depends on how many of each shape it holds, not on their order,
   * and Postgres plans a few texts, not one per arrangement.
   */
  shapeOf?: (item: I) => string;
  metrics?: GroupCommitMetrics;
}

/**
 * A function that runs an item's statement, batched with the concurrent items of the same
 * group; it answers the item's rows. Alone (the group's max at 1, or nothing else waiting) it is
 * the same statement with one part.
 */
export function statementGroup<I, R>(sql: SqlRunner, opts: StatementGroupOptions<I>): (item: I) => Promise<R[]> {
  const alone = (item: I): Promise<R[]> => runAlone<R>(sql, opts.part(item, '_0'));
  // Off: every request runs its own statement at once, as many at a time as the pool allows.
  if (opts.settings.max <= 1)
    return (item) => {
      opts.metrics?.batch(opts.name, 1);
      return alone(item);
    };
  const run = groupCommit<I, Settled<R[]>>(
    {
      max: opts.settings.max,
      windowMs: opts.settings.windowMs,
      keyOf: opts.keyOf,
      powersOfTwo: true,
      onBatch: (n) => opts.metrics?.batch(opts.name, n),
    },
    async (items) => {
      if (items.length === 1) return [await settle(alone(items[0]!))];
      // Parts in key order (within a shape): two batches that lock the same rows lock them in the same order (no deadlock between replicas).
      const sortKey = (i: I) => `${opts.shapeOf?.(i) ?? ''}\u0000${opts.keyOf(i)}`;
      const order = items.map((_, i) => i).sort((a, b) => (sortKey(items[a]!) < sortKey(items[b]!) ? -1 : 1));
      const batched = await settle(
        runCombined<R>(
          sql,
          order.map((at, i) => opts.part(items[at]!, `_${i}`)),
        ).then((rows) => {
          const byItem: R[][] = [];
          for (const [i, at] of order.entries()) byItem[at] = rows[i]!;
          return byItem;
        }),
      );
      if (batched.ok) return batched.value.map((value) => ({ ok: true as const, value }));
      // Nothing of the batch committed (one statement): each item again, alone and in order.
      opts.metrics?.retriedAlone(opts.name, items.length);
      const out: Settled<R[]>[] = [];
      for (const item of items) out.push(await settle(alone(item)));
      return out;
    },
  );
  return async (item) => {
    const r = await run(item);
    if (!r.ok) throw r.error;
    return r.value;
  };
}

export interface GroupCommitMetrics {
  batch(group: string, size: number): void;
  retriedAlone(group: string, items: number): void;
}

/** `bo_group_commit_*{group}`, each named group's series there at zero from the start. */
export function registerGroupCommitMetrics(registry: Registry, groups: readonly string[]): GroupCommitMetrics {
  const batches = new Counter({
    name: 'bo_group_commit_batches_total',
    help: 'Batches a group commit ran, each one statement (items ÷ batches = the mean batch), by group.',
    labelNames: ['group'] as const,
    registers: [registry],
  });
  const items = new Counter({
    name: 'bo_group_commit_items_total',
    help: 'Requests whose write ran in a group commit, by group.',
    labelNames: ['group'] as const,
    registers: [registry],
  });
  const alone = new Counter({
    name: 'bo_group_commit_retried_alone_total',
    help: 'Requests run again alone after their batch failed, by group.',
    labelNames: ['group'] as const,
    registers: [registry],
  });
  for (const group of groups) {
    batches.inc({ group }, 0);
    items.inc({ group }, 0);
    alone.inc({ group }, 0);
  }
  return {
    batch: (group, size) => {
      batches.inc({ group });
      items.inc({ group }, size);
    },
    retriedAlone: (group, n) => alone.inc({ group }, n),
  };
}
