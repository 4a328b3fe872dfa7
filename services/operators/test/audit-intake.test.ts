// The audit rows of decisions other services make (`audit.recorded` on the internal stream, written
// in the decision's transaction): each is inserted once under its own id, whether the relay sends
// it again (after a crash between publish and mark, past the stream's duplicate window) or
// JetStream redelivers it; a message that is not an audit row is dropped, not retried forever.
import t from 'tap';
import { AUDIT_RECORDED, newId, type AuditRecorded } from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import { adminScope, ok, startStack } from '@bo/test-support';
import { operatorsService } from '../src/service.ts';

t.test('audit intake', async (t) => {
  const stack = await startStack(t, 'opaudit', [operatorsService]);
  const { sql } = stack.services.get('operators')!;
  /** An outbox row as a deciding service's writes it, published by the relay; a new event id each time (a re-send past the duplicate window). */
  const publish = (data: unknown) => {
    const eventId = newId('event');
    const payload = JSON.stringify({ id: eventId, type: AUDIT_RECORDED, createdAt: new Date().toISOString(), data });
    return sql.query(
      `insert into operators.outbox (event_id, subject_type, environment, operator_id, brand_id, payload) values (?, ?, 'production', 'admin', 'admin', ?)`,
      [eventId, AUDIT_RECORDED, payload],
    );
  };
  const entry = (target: string, requestId: string): AuditRecorded => ({
    id: newId('audit'),
    at: new Date().toISOString(),
    actor: 'user:ana@ourteam.example',
    actorId: 'usr_ana',
    action: 'adminWithdrawalDecision',
    target,
    before: { status: 'under_review' },
    after: { status: 'approved' },
    requestId,
  });
  const rows = async (target: string) =>
    ok<{ data: Array<Record<string, unknown>> }>(await stack.call('operators.admin.listAudit', { scope: adminScope, query: { target } })).data;

  const first = entry('withdrawal:wd_1', 'req_1');
  await publish(first);
  await publish(first);
  await publish({ not: 'an audit row' });
  // A later row through the same consumer: once it is in, every copy before it was handled.
  await publish(entry('withdrawal:wd_2', 'req_2'));
  await waitFor(async () => (await rows('withdrawal:wd_2')).length === 1, { what: 'the later row', timeoutMs: 30_000 });
  t.match(
    await rows('withdrawal:wd_1'),
    [
      {
        id: first.id,
        actor: 'user:ana@ourteam.example',
        actorId: 'usr_ana',
        action: 'adminWithdrawalDecision',
        after: { status: 'approved' },
        requestId: 'req_1',
      },
    ],
    'one row, under the id the deciding service gave it, with its fields as the audit log answers them',
  );
  t.equal((await rows('withdrawal:wd_1')).length, 1, 'sent twice, written once');

  t.test('the log pages newest first, `limit` at a time, with startingAfter', async (t) => {
    const target = 'aml_rules:brd_paged';
    const made = Array.from({ length: 5 }, (_, i) => ({ ...entry(target, `req_p${i}`), at: new Date(Date.UTC(2026, 10, 1, 12, i)).toISOString() }));
    for (const e of made) await publish(e);
    await waitFor(async () => (await rows(target)).length === 5, { what: 'the five rows', timeoutMs: 30_000 });
    const page = async (startingAfter?: string) =>
      ok<{ data: Array<{ id: string }>; hasMore: boolean }>(
        await stack.call('operators.admin.listAudit', { scope: adminScope, query: { target, limit: 2, ...(startingAfter ? { startingAfter } : {}) } }),
      );
    const seen: string[] = [];
    const more: boolean[] = [];
    for (let after: string | undefined, go = true; go; ) {
      const p = await page(after);
      seen.push(...p.data.map((r) => r.id));
      more.push(p.hasMore);
      go = p.hasMore;
      after = p.data.at(-1)?.id;
    }
    t.same(
      seen,
      [...made].reverse().map((e) => e.id),
      'every row once, newest first, across pages',
    );
    t.same(more, [true, true, false], 'hasMore until the last page');
    t.same((await page('audit_not_a_row')).data, [], 'an id that is no row gives nothing');
  });
});
