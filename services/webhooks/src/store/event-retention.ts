// The event log is kept WEBHOOK_EVENT_RETENTION_DAYS (30, as Stripe lists events): an older event
// goes with its deliveries and attempts, once none of them is pending (a redelivery the operator
// asked for, or retries still due, keep it). Run by the kit's retention loop (service.ts).
import type { SqlRunner } from '@bo/service-kit';

/**
 * The smallest event id created at or after `at`: ids are `evt_` and a UUIDv7 in hex, whose first
 * 48 bits are the creation time in milliseconds, so ids sort by creation time and the key itself is
 * the index the deletion walks.
 */
export function firstEventIdAt(at: Date): string {
  return `evt_${at.getTime().toString(16).padStart(12, '0')}`;
}

/** Deletes at most `batch` events created more than `retentionDays` ago, with their deliveries and attempts; returns how many events. */
export async function deleteExpiredEvents(sql: SqlRunner, retentionDays: number, batch: number, now = new Date()): Promise<number> {
  const cutoff = firstEventIdAt(new Date(now.getTime() - retentionDays * 86_400_000));
  const rows = await sql.query<{ n: number }>(
    `with old as (select e.id from webhooks.events e
                  where e.id < ? and not exists (select 1 from webhooks.deliveries d where d.event_id = e.id and d.status = 'pending')
                  order by e.id limit ? for update skip locked),
     a as (delete from webhooks.attempts t using old where t.event_id = old.id),
     d as (delete from webhooks.deliveries d using old where d.event_id = old.id),
     e as (delete from webhooks.events e using old where e.id = old.id returning 1)
     select count(*)::int as n from e`,
    [cutoff, batch],
  );
  return rows[0]?.n ?? 0;
}
