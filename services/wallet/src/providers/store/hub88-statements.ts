// Issue #59 item 2 (docs/connectors-hub88.md, "Reconciliation: the Transactions API"): what a day
// fetched from Hub88's Transactions API adds to the statements' store: our transactions' kinds by
// id (the lines take them), the statement marked as fetched (source hub88) and standing for the
// whole day (every other current part superseded by it), and the items that could not be lines (an
// amount that is not whole cents, a status we do not know) listed as differences of the day. Plain SQL.
import type { Environment, ReconciliationDay, ReconciliationDifference } from '@bo/contracts';
import { isoTime, type SqlRunner } from '@bo/service-kit';
import type { OddItem, OurTransaction } from '../domain/hub88-statements.ts';

/** The provider's day [from, to) in a time zone. */
export async function dayBounds(sql: SqlRunner, date: string, timeZone: string): Promise<{ from: Date; to: Date }> {
  const [row] = await sql.query<{ from: Date; to: Date }>(
    `select (?::date)::timestamp at time zone ?::text as "from", (?::date + 1)::timestamp at time zone ?::text as "to"`,
    [date, timeZone, date, timeZone],
  );
  return { from: new Date(isoTime(row!.from)), to: new Date(isoTime(row!.to)) };
}

/** Our transactions of these ids (the provider's, in the environment): kind and whether it was a debit. */
export async function ourTransactionsById(sql: SqlRunner, providerId: string, environment: Environment, ids: string[]): Promise<Map<string, OurTransaction>> {
  const rows = await sql.query<{ transactionId: string; kind: string; debit: boolean }>(
    `select transaction_id as "transactionId", kind, requested < 0 as debit from wallet.provider_transactions
     where provider_id = ? and environment = ? and transaction_id = any(?::text[]) and repays is null`,
    [providerId, environment, ids],
  );
  return new Map(rows.map((r) => [r.transactionId, { kind: r.kind, debit: r.debit }]));
}

/** The statement just recorded came from Hub88's API, and it is the whole day: other current parts are superseded by it. */
export async function markFetchedStatement(tx: SqlRunner, statementId: string, providerId: string, environment: Environment, date: string) {
  await tx.query(`update wallet.provider_statements set source = 'hub88' where id = ?`, [statementId]);
  await tx.query(
    `update wallet.provider_statements set superseded_at = now(), superseded_by = ?
     where provider_id = ? and environment = ? and statement_date = ?::date and superseded_at is null and id <> ?`,
    [statementId, providerId, environment, date, statementId],
  );
}

/**
 * The odd items as differences of the day just reconciled: beside a transaction of ours the day
 * listed as ours only, it becomes amount_differs (or status_differs); otherwise it is theirs only.
 * The day's counts follow. The same transaction as reconcileDay's, after it.
 */
export async function addOddDifferences(
  tx: SqlRunner,
  reconciled: { day: ReconciliationDay; differences: ReconciliationDifference[] },
  odd: OddItem[],
): Promise<{ day: ReconciliationDay; differences: ReconciliationDifference[] }> {
  if (odd.length === 0) return reconciled;
  const { providerId, environment, date } = reconciled.day;
  const differences = [...reconciled.differences];
  for (const o of odd) {
    const at = differences.findIndex((d) => d.transactionId === o.transactionId && d.category === 'ours_only');
    if (at >= 0) {
      const changed: ReconciliationDifference = {
        ...differences[at]!,
        category: o.what === 'amount' ? 'amount_differs' : 'status_differs',
        fields: [o.what],
        theirs: o.theirs,
      };
      differences[at] = changed;
      await tx.query(
        `update wallet.provider_reconciliation_differences set category = ?, fields = ?::text[], theirs = ?::jsonb
         where provider_id = ? and environment = ? and statement_date = ?::date and transaction_id = ? and category = 'ours_only' and superseded_at is null`,
        [changed.category, changed.fields, JSON.stringify(changed.theirs), providerId, environment, date, o.transactionId],
      );
    } else {
      const added: ReconciliationDifference = { transactionId: o.transactionId, category: 'theirs_only', fields: [], ours: null, theirs: o.theirs };
      differences.push(added);
      await tx.query(
        `insert into wallet.provider_reconciliation_differences (provider_id, environment, statement_date, transaction_id, category, fields, ours, theirs)
         values (?, ?, ?::date, ?, 'theirs_only', '{}'::text[], null, ?::jsonb)`,
        [providerId, environment, date, o.transactionId, JSON.stringify(o.theirs)],
      );
    }
  }
  differences.sort((a, b) => (a.category === b.category ? a.transactionId.localeCompare(b.transactionId) : a.category.localeCompare(b.category)));
  const count = (c: ReconciliationDifference['category']) => differences.filter((d) => d.category === c).length;
  const day: ReconciliationDay = {
    ...reconciled.day,
    oursOnly: count('ours_only'),
    theirsOnly: count('theirs_only'),
    amountDiffers: count('amount_differs'),
    statusDiffers: count('status_differs'),
    ties: differences.length === 0,
  };
  await tx.query(
    `update wallet.provider_reconciliations set ours_only = ?, theirs_only = ?, amount_differs = ?, status_differs = ?, ties = ?
     where provider_id = ? and environment = ? and statement_date = ?::date`,
    [day.oursOnly, day.theirsOnly, day.amountDiffers, day.statusDiffers, day.ties, providerId, environment, date],
  );
  return { day, differences };
}
