// The restore drill's checks (issue #67), each a comparison of what the outside world was told
// (drill-workload.ts's movements, the webhook receivers' deliveries) with a database: which
// acknowledged money movements it holds and how many times, and the after-T report: what the
// world was told after the restore point that the restored database no longer knows.
import { isEventType } from '@bo/contracts';
import type { Received } from './webhook-receiver.ts';
import type { Movement } from './drill-workload.ts';

type Query = <R extends Record<string, unknown>>(text: string, values?: unknown[]) => Promise<R[]>;

/**
 * How many times the database holds each movement (by kind and id): a ledger entry on the player's
 * account, a provider transaction (a rollback that came before its bet leaves the bet's row marked
 * never received: the bet answered later is known all the same).
 */
export async function countMovements(query: Query, movements: Movement[]): Promise<Map<string, number>> {
  const ids = (kind: Movement['kind'][]) => movements.filter((m) => kind.includes(m.kind)).map((m) => m.id);
  const counts = new Map<string, number>();
  const ledger = async (kind: Movement['kind'], type: string) => {
    const rows = await query<{ id: string; n: number }>(
      `select e.reference_id as id, count(*)::int as n from wallet.ledger_entries e join wallet.accounts a on a.id = e.account_id
       where a.kind = 'player' and e.type = $1 and e.reference_id = any($2) group by 1`,
      [type, ids([kind])],
    );
    for (const r of rows) counts.set(`${kind}:${r.id}`, r.n);
  };
  await ledger('deposit', 'DEPOSIT');
  await ledger('payout', 'WITHDRAWAL');
  await ledger('round', 'BET');
  const provider = await query<{ provider_id: string; id: string; n: number }>(
    `select provider_id, transaction_id as id, count(*)::int as n from wallet.provider_transactions
     where transaction_id = any($1) group by 1, 2`,
    [ids(['provider', 'hub88'])],
  );
  for (const m of movements.filter((x) => x.kind === 'provider' || x.kind === 'hub88')) {
    const row = provider.find((r) => r.provider_id === m.party && r.id === m.id);
    if (row) counts.set(`${m.kind}:${m.id}`, row.n);
  }
  return counts;
}

export interface Presence {
  /** Acknowledged before the cut and missing, or held more than once. */
  missing: Movement[];
  doubled: Movement[];
  /** Acknowledged after the cut and held all the same (a restore to T must hold none). */
  unexpected: Movement[];
}

/** Every movement acknowledged before `cut` held exactly once; with `noneAfter`, none acknowledged after it. */
export async function checkPresence(query: Query, movements: Movement[], cut: number, noneAfter: boolean): Promise<Presence> {
  const counts = await countMovements(query, movements);
  const n = (m: Movement) => counts.get(`${m.kind}:${m.id}`) ?? 0;
  const before = movements.filter((m) => m.at < cut);
  const after = movements.filter((m) => m.at >= cut);
  return {
    missing: before.filter((m) => n(m) === 0),
    doubled: movements.filter((m) => n(m) > 1),
    unexpected: noneAfter ? after.filter((m) => n(m) > 0) : [],
  };
}

/** Acknowledged before `cut` and not in the database: what a loss at `cut` cost. */
export async function lostMovements(query: Query, movements: Movement[], cut: number): Promise<Movement[]> {
  return (await checkPresence(query, movements, cut, false)).missing;
}

/** A delivery as a receiver of one of our operators' environments saw it; `party`: `operator/environment` whose endpoint it reached. */
export type Delivery = Received & { party: string };

export interface AfterTReport {
  webhooks: Array<{ eventId: string; type: string; party: string; amount: string }>;
  providerAnswers: Array<{ transactionId: string; provider: string; call: string; amount: string }>;
  payoutsPaid: Array<{ withdrawalId: string; party: string; amount: string; restoredStatus: string }>;
  depositsConfirmed: Movement[];
  rounds: Movement[];
}

/** The first `amount` in an event's data (a deposit's, a withdrawal's, a round's). */
function amountOf(data: unknown): string {
  if (!data || typeof data !== 'object') return '';
  const o = data as Record<string, unknown>;
  if (typeof o.amount === 'string') return o.amount;
  for (const v of Object.values(o)) {
    const found = amountOf(v);
    if (found) return found;
  }
  return '';
}

/** Every event id a restored database knows: stored by the webhooks service or waiting in a service's outbox. */
export async function knownEventIds(query: Query): Promise<Set<string>> {
  const schemas = await query<{ schema: string }>(`select table_schema as schema from information_schema.tables where table_name = 'outbox'`);
  const ids = new Set((await query<{ id: string }>('select id from webhooks.events')).map((r) => r.id));
  for (const { schema } of schemas) for (const r of await query<{ id: string }>(`select event_id as id from "${schema}".outbox`)) ids.add(r.id);
  return ids;
}

/** What the world was told at or after `t` that the restored database (`query`) does not know. */
export async function afterTReport(query: Query, movements: Movement[], deliveries: Delivery[], t: number): Promise<AfterTReport> {
  const known = await knownEventIds(query);
  const webhooks = new Map<string, AfterTReport['webhooks'][number]>();
  for (const d of deliveries)
    if (d.at >= t && d.verified && !known.has(d.id)) webhooks.set(d.id, { eventId: d.id, type: d.type, party: d.party, amount: amountOf(d.body.data) });
  const counts = await countMovements(query, movements);
  const forgotten = movements.filter((m) => m.at >= t && !counts.get(`${m.kind}:${m.id}`));
  const payouts = forgotten.filter((m) => m.kind === 'payout');
  const statuses = new Map(
    (await query<{ id: string; status: string }>('select id, status from payments.withdrawals where id = any($1)', [payouts.map((m) => m.id)])).map((r) => [
      r.id,
      r.status,
    ]),
  );
  return {
    webhooks: [...webhooks.values()],
    providerAnswers: forgotten
      .filter((m) => m.kind === 'provider' || m.kind === 'hub88')
      .map((m) => ({ transactionId: m.id, provider: m.party, call: m.call ?? '', amount: m.amount })),
    payoutsPaid: payouts.map((m) => ({
      withdrawalId: m.id,
      party: m.party,
      amount: m.amount,
      restoredStatus: statuses.get(m.id) ?? 'none (requested after T)',
    })),
    depositsConfirmed: forgotten.filter((m) => m.kind === 'deposit'),
    rounds: forgotten.filter((m) => m.kind === 'round'),
  };
}

/** Event ids delivered with more than one meaning (type and data): an id given out must never mean something else. */
export function idsWithTwoMeanings(deliveries: Delivery[]): string[] {
  const meaning = new Map<string, Set<string>>();
  for (const d of deliveries.filter((x) => x.verified)) {
    const set = meaning.get(d.id) ?? new Set<string>();
    set.add(JSON.stringify([d.type, d.body.data]));
    meaning.set(d.id, set);
  }
  return [...meaning].filter(([, s]) => s.size > 1).map(([id]) => id);
}

/** The operator-facing events a database's outboxes hold for these operators: what must reach their receivers. */
export async function eventsOwed(query: Query, operators: string[]): Promise<string[]> {
  const schemas = await query<{ schema: string }>(`select table_schema as schema from information_schema.tables where table_name = 'outbox'`);
  const ids: string[] = [];
  for (const { schema } of schemas)
    for (const r of await query<{ id: string; type: string }>(
      `select event_id as id, subject_type as type from "${schema}".outbox where operator_id = any($1)`,
      [operators],
    ))
      if (isEventType(r.type)) ids.push(r.id);
  return ids;
}
