// What the idempotency suites share: a stack with one operator, its sandbox client, a fresh
// Idempotency-Key per call, and a database client to look at what was written.
import type { Test } from 'tap';
import pg from 'pg';
import { startStack, uniq, type Stack } from './stack.ts';

/** A fresh key header, named after what it is for (the name lets a test find the key's records). */
export const key = (label: string) => ({ 'idempotency-key': uniq(label) });

export async function keyedOperator(t: Test, name: string) {
  const stack: Stack = await startStack();
  const db = new pg.Client({ connectionString: stack.db.url });
  await db.connect();
  t.teardown(async () => {
    await db.end();
    await stack.close();
  });
  const op = await stack.createOperator(name);
  /**
   * How many records the gateway keeps for the operator's keys starting with these labels: none can
   * be, the gateway has no database (issue #43; the owning services keep every answer), so there is
   * no table of the schema `gateway` to keep one in, which is what this counts.
   */
  const gatewayRecords = async (_labels: string[]) =>
    (await db.query(`select count(*)::int as n from information_schema.tables where table_schema = 'gateway' and table_name <> 'schema_migrations'`)).rows[0]
      .n as number;
  return { stack, db, op, c: op.sandboxClient, gatewayRecords };
}
