// Our team's changes to providers (issue #56): each one's audit row is written by the wallet into
// its outbox in the change's own transaction (the kit's writeDecisionAudit; the operators service
// inserts it into the audit log once, test/e2e/admin-audit.test.ts), never by the gateway after the
// answer. So a change that took effect has exactly one row whatever is lost after its commit: a
// replay under the request's key adds none, a run again under it (its first answer lost) writes its
// row under the same id (which the audit log inserts once), and a change refused or rolled back has none.
import t from 'tap';
import type { AdminScope, AuditRecorded } from '@bo/contracts';
import { ok, startStack } from '@bo/test-support';
import { walletService } from '../src/service.ts';

t.test('provider changes audited once, in their transaction', async (t) => {
  const stack = await startStack(t, 'provaudit', [walletService]);
  const { sql } = stack.services.get('wallet')!;
  const ana: AdminScope = { kind: 'admin', actor: 'user:ana@ourteam.example', personId: 'usr_ana' };
  const change = (subject: string, key: string, params: Record<string, string>, body?: unknown) =>
    stack.call(`wallet.admin.providers.${subject}`, { scope: ana, key, params, ...(body === undefined ? {} : { body }) });
  /** The audit rows in the wallet's outbox about `target`, oldest first. */
  const audits = async (target: string) =>
    (
      await sql.query<{ data: AuditRecorded }>(
        `select payload::jsonb -> 'data' as data from wallet.outbox where subject_type = 'audit.recorded' and payload::jsonb -> 'data' ->> 'target' = ? order by seq`,
        [target],
      )
    ).map((r) => r.data);
  const actions = async (target: string) => (await audits(target)).map((a) => a.action);

  const provider = ok<{ id: string }>(await change('create', 'prv-create', {}, { name: 'Audited Aggregator', kind: 'casino' }));
  const target = `provider:${provider.id}`;
  ok(await change('putGame', 'game-off', { id: provider.id, gameCode: 'sweet-fruits' }, { name: 'Sweet Fruits', category: 'slots', enabled: false }));
  ok(await change('putGame', 'game-on', { id: provider.id, gameCode: 'sweet-fruits' }, { name: 'Sweet Fruits', category: 'slots', enabled: true }));
  ok(await change('setOperator', 'offer', { id: provider.id, operatorId: 'op_audited' }, { enabled: true }));
  ok(await change('setOperator', 'withdraw', { id: provider.id, operatorId: 'op_audited' }, { enabled: false }));
  ok(await change('update', 'disable', { id: provider.id }, { status: 'disabled' }));
  ok(await change('update', 'enable', { id: provider.id }, { status: 'enabled' }));
  const issued = ok<{ credential: { id: string }; secret: string }>(await change('issueCredential', 'issue', { id: provider.id }, { environment: 'sandbox' }));
  ok(await change('revokeCredential', 'revoke', { id: provider.id, credentialId: issued.credential.id }));

  t.same(
    await actions(target),
    [
      'adminCreateProvider',
      'adminPutProviderGame',
      'adminPutProviderGame',
      'adminSetProviderOperator',
      'adminSetProviderOperator',
      'adminUpdateProvider',
      'adminUpdateProvider',
      'adminIssueProviderCredential',
      'adminRevokeProviderCredential',
    ],
    "each change's row, written in its transaction",
  );
  const rows = await audits(target);
  t.match(
    rows[2],
    { actor: 'user:ana@ourteam.example', actorId: 'usr_ana', before: { gameCode: 'sweet-fruits', enabled: false }, after: { enabled: true } },
    'the game enabled: who, and the game before and after',
  );
  t.same([rows[4]!.before, rows[4]!.after], [['op_audited'], []], 'the offer withdrawn');
  t.match([rows[5]!.after, rows[6]!.after], [{ status: 'disabled' }, { status: 'enabled' }], 'the provider disabled, then enabled');
  t.notMatch(JSON.stringify(rows), issued.secret, 'the audit never holds a secret');

  t.test('a replay under the same key writes no second row', async (t) => {
    const again = await change('update', 'enable', { id: provider.id }, { status: 'enabled' });
    t.equal(again.ok && again.replayed, true, 'the stored answer');
    t.equal((await actions(target)).filter((a) => a === 'adminUpdateProvider').length, 2, 'still one row per change');
  });

  t.test('a change run again under its key after its answer was lost keeps its one row', async (t) => {
    ok(await change('putGame', 'game-lost-answer', { id: provider.id, gameCode: 'sweet-fruits' }, { name: 'Sweet Fruits', category: 'slots', enabled: false }));
    // The wallet killed after the commit, before it kept the answer: the retry runs the change again.
    await sql.query(`delete from wallet.processed_requests where idempotency_key = 'game-lost-answer'`);
    const again = await change(
      'putGame',
      'game-lost-answer',
      { id: provider.id, gameCode: 'sweet-fruits' },
      { name: 'Sweet Fruits', category: 'slots', enabled: false },
    );
    t.equal(again.ok && again.replayed, undefined, 'run again, not replayed');
    const ids = (await audits(target)).filter((a) => a.action === 'adminPutProviderGame').map((a) => a.id);
    t.equal(ids.length, 4, 'each run wrote its row into the outbox');
    t.equal(new Set(ids).size, 3, 'both under one id, made from the key: the audit log inserts it once');
  });

  t.test('a change refused or rolled back writes none', async (t) => {
    const before = (await actions(target)).length;
    const unknown = await change('revokeCredential', 'revoke-unknown', { id: provider.id, credentialId: 'pcr_nope' });
    t.match(unknown, { ok: false, error: { code: 'CREDENTIAL_NOT_FOUND' } });
    const taken = await change('create', 'prv-taken', {}, { name: 'Audited Aggregator', kind: 'casino' });
    t.match(taken, { ok: false, error: { code: 'VALIDATION_ERROR' } }, 'a name taken: the insert rolled back');
    t.match(await change('update', 'no-provider', { id: 'prv_nope' }, { status: 'disabled' }), { ok: false, error: { code: 'PROVIDER_NOT_FOUND' } });
    t.equal((await actions(target)).length, before, 'no row for the refused changes');
    t.same(await actions('provider:prv_nope'), [], 'none for a provider that does not exist');
    const all = await sql.query<{ n: number }>(`select count(*)::int as n from wallet.outbox where subject_type = 'audit.recorded'`);
    t.equal(all[0]!.n, before, 'and no other row anywhere');
  });
});
