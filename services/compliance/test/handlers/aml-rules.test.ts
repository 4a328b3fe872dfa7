// A brand's AML rules set by our team while another first setting of the same brand is under way
// (issue #56: one rules change answered 500 in the chaos run's cluster mode). A brand's first
// setting has no row to lock, so two at once both insert it and the later failed on the primary
// key (23505, an INTERNAL_ERROR). Made deterministic: the test's own transaction is the other
// first setting, holding its uncommitted row until the request waits on it.
import t from 'tap';
import pg from 'pg';
import { adminScope, errorOf, ok, startStack } from '@bo/test-support';
import { waitFor } from '@bo/service-kit/testing';
import { complianceService } from '../../src/service.ts';

t.test('a first setting of a brand racing another: answered, the later over the earlier, audited once', async (t) => {
  const s = await startStack(t, 'amlrules', [complianceService]);
  const db = new pg.Client({ connectionString: s.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  const brandId = 'brd_race';
  const scope = { ...adminScope, actor: 'user:lead@team', personId: 'tm_lead' };
  const current = ok<{ thresholds: Record<string, unknown> }>(await s.call('compliance.admin.rules.get', { scope, params: { brandId } }));

  // The other first setting: its row inserted, not yet committed.
  const other = new pg.Client({ connectionString: s.databaseUrl });
  await other.connect();
  t.teardown(() => other.end());
  await other.query('begin');
  await other.query(`insert into compliance.brand_rules (brand_id, thresholds, updated_at, updated_by) values ($1, $2, now(), 'user:other@team')`, [
    brandId,
    JSON.stringify({ ...current.thresholds, highValue: '30000.00' }),
  ]);

  const answer = s.call('compliance.admin.rules.set', {
    scope,
    key: 'aml-rules-race-1',
    params: { brandId },
    body: { ...current.thresholds, highValue: '20000.00' },
  });
  // The request waits on the other's row (a lock wait in this test's own database), then the other commits.
  await waitFor(
    async () =>
      Number((await db.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)).rows[0].n) > 0,
    { what: 'the rules change waiting on the other first setting' },
  );
  await other.query('commit');

  const reply = await answer;
  t.equal(errorOf(reply), undefined, `answered, not refused (${JSON.stringify(errorOf(reply))})`);
  t.match(reply, { ok: true, status: 200, body: { brandId, thresholds: { highValue: '20000.00' }, updatedBy: 'user:lead@team' } });
  const stored = await db.query('select thresholds, updated_by from compliance.brand_rules where brand_id = $1', [brandId]);
  t.match(stored.rows, [{ thresholds: { highValue: '20000.00' }, updated_by: 'user:lead@team' }], 'the later setting is the one kept');
  const audits = await db.query(`select payload from compliance.outbox where subject_type = 'audit.recorded'`);
  const rows = audits.rows.map((r) => JSON.parse(r.payload).data).filter((a) => a.action === 'adminSetAmlRules');
  t.equal(rows.length, 1, 'one audit row for the one change');
  t.match(
    rows[0],
    {
      target: `aml_rules:${brandId}`,
      before: { thresholds: { highValue: '30000.00' }, updatedBy: 'user:other@team' },
      after: { thresholds: { highValue: '20000.00' } },
    },
    'its before is what the other setting committed',
  );
});
