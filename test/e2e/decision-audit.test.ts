// Decisions are people's, and each one that took effect has exactly one audit row (issue #40),
// through the real gateway and services: one activated person approving in the console and paying
// with the personal token she made herself is refused by four eyes (issue #56); a pay whose first answer is lost at the gateway's RPC
// deadline, then replayed to the retry, is audited once; so is an approval whose service was
// killed right after its commit.
import t from 'tap';
import pg from 'pg';
import { waitFor } from '@bo/service-kit/testing';
import { activatedPerson } from './support/people.ts';
import { ADMIN_TOKEN, playerInput, uniq } from './support/stack.ts';
import { key, keyedOperator } from './support/keyed-operator.ts';

t.test('decisions by people, audited once', async (t) => {
  const { stack, db, c } = await keyedOperator(t, 'Audited Decisions');
  // Activated people (their own password), each with the personal token she made from her own session (issue #56).
  const person = async (email: string) => {
    const p = await activatedPerson(stack.adminUrl, { authorization: `Bearer ${ADMIN_TOKEN}` }, { email, role: 'finance' });
    return { ...p, secret: p.token! };
  };
  const [ana, bruno] = [await person('ana@ourteam.example'), await person('bruno@ourteam.example')];
  const withToken = (secret: string, id: string, decision: string, k?: string) =>
    fetch(`${stack.adminUrl}/admin/withdrawals/${id}/decision`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...(k ? { 'idempotency-key': k } : {}) },
      // A rejection says why (issue #61): without a reason it is 422 before any state is read.
      body: JSON.stringify(decision === 'reject' ? { decision, reason: 'payer account does not match' } : { decision }),
    }).then(async (r) => ({ status: r.status, replayed: r.headers.get('idempotent-replayed'), body: (await r.json()) as any }));
  const underReview = async () => {
    const player = (await c.post('/players', playerInput(uniq('p')), key('player'))).body.id as string;
    await c.post(`/players/${player}/kyc/submissions`, { documentType: 'rg', reference: 's3://docs/1' }, key('kyc'));
    await c.post(`/sandbox/players/${player}/kyc/decision`, { status: 'aprovado' });
    const d = await c.post(`/players/${player}/deposits`, { amount: '50.00', currency: 'BRL', method: 'pix', externalReference: uniq('ref') }, key('dep'));
    await c.post(`/deposits/${d.body.id}/confirm`, {}, key('conf'));
    return (await c.post(`/players/${player}/withdrawals`, { amount: '20.00', currency: 'BRL', method: 'pix', destination: uniq('pix') }, key('wd'))).body
      .id as string;
  };
  const auditRows = async (target: string) =>
    (
      await db.query(`select actor, actor_id, action, after->>'status' as status from operators.audit_log where target = $1 order by at, id`, [target])
    ).rows.map((r) => [r.actor, r.actor_id, r.action, r.status]);
  const statusOf = async (id: string) => (await db.query('select status from payments.withdrawals where id = $1', [id])).rows[0]?.status;

  t.test('one person approving in the console and paying with her personal token is refused by four eyes', async (t) => {
    const id = await underReview();
    const session = ana; // signed in to the console, set up
    const approved = await fetch(`${stack.adminUrl}/admin/withdrawals/${id}/decision`, {
      method: 'POST',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'approve' }),
    });
    t.equal(approved.status, 200, 'she approves in the console');
    const refused = await withToken(ana.secret, id, 'pay');
    t.equal(refused.status, 403);
    t.equal(refused.body.error.code, 'FOUR_EYES_REQUIRED', 'her token is her: she cannot pay what she approved');
    t.equal((await withToken(bruno.secret, id, 'pay')).status, 200, 'another person pays');
    await waitFor(async () => (await auditRows(`withdrawal:${id}`)).length === 2, { what: 'both audit rows', timeoutMs: 60_000 });
    t.same(
      await auditRows(`withdrawal:${id}`),
      [
        ['user:ana@ourteam.example', ana.id, 'adminWithdrawalDecision', 'approved'],
        ['user:bruno@ourteam.example', bruno.id, 'adminWithdrawalDecision', 'paid'],
      ],
      'each row names the person and their id',
    );
  });

  t.test('the first answer lost at the RPC deadline, the retry replayed: one audit row', async (t) => {
    const id = await underReview();
    t.equal((await withToken(ana.secret, id, 'approve')).status, 200);
    // The withdrawal's row held by another transaction: the pay waits past the gateway's deadline.
    const holder = new pg.Client({ connectionString: stack.db.url });
    await holder.connect();
    t.teardown(() => holder.end());
    await holder.query('begin');
    await holder.query('select 1 from payments.withdrawals where id = $1 for update', [id]);
    const k = uniq('pay');
    const lost = await withToken(bruno.secret, id, 'pay', k);
    t.equal(lost.status, 503, 'the gateway gives up waiting');
    await holder.query('commit');
    await waitFor(async () => (await statusOf(id)) === 'paid', { what: 'the pay to finish', timeoutMs: 60_000 });
    const retried = await withToken(bruno.secret, id, 'pay', k);
    t.equal(retried.status, 200);
    t.equal(retried.replayed, 'true', 'the retry gets the stored answer');
    await waitFor(async () => (await auditRows(`withdrawal:${id}`)).length >= 2, { what: 'the pay audit row', timeoutMs: 60_000 });
    t.same(
      await auditRows(`withdrawal:${id}`),
      [
        ['user:ana@ourteam.example', ana.id, 'adminWithdrawalDecision', 'approved'],
        ['user:bruno@ourteam.example', bruno.id, 'adminWithdrawalDecision', 'paid'],
      ],
      'exactly one row per decision',
    );
  });

  t.test('the deciding service killed after its commit: one audit row', async (t) => {
    const id = await underReview();
    await stack.kill('payments');
    await stack.start('payments', { CRASH_AT: 'payments.approve.after-commit' });
    await stack.waitReady();
    const k = uniq('approve');
    t.equal((await withToken(ana.secret, id, 'approve', k)).status, 503, 'no answer: the service died after its commit');
    await stack.exited('payments');
    await stack.start('payments');
    await stack.waitReady();
    const retried = await withToken(ana.secret, id, 'approve', k);
    t.equal(retried.status, 200);
    t.equal(retried.body.status, 'approved');
    await waitFor(async () => (await auditRows(`withdrawal:${id}`)).length >= 1, { what: 'the approval audit row', timeoutMs: 60_000 });
    // A later decision's row comes after any late copy of the first through the same stream.
    t.equal((await withToken(bruno.secret, id, 'reject')).status, 409, 'an approved withdrawal is not rejected');
    t.equal((await withToken(bruno.secret, id, 'pay')).status, 200);
    await waitFor(async () => (await auditRows(`withdrawal:${id}`)).length >= 2, { what: 'the pay audit row', timeoutMs: 60_000 });
    t.same(
      await auditRows(`withdrawal:${id}`),
      [
        ['user:ana@ourteam.example', ana.id, 'adminWithdrawalDecision', 'approved'],
        ['user:bruno@ourteam.example', bruno.id, 'adminWithdrawalDecision', 'paid'],
      ],
      'exactly one row per decision',
    );
  });

  t.test('outside production ADMIN_TOKEN still decides, as the person X-Admin-Actor names (tests, the sandbox)', async (t) => {
    const id = await underReview();
    const asRoot = (decision: string, actor: string) =>
      fetch(`${stack.adminUrl}/admin/withdrawals/${id}/decision`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-admin-actor': actor, 'content-type': 'application/json' },
        body: JSON.stringify({ decision }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    t.equal((await asRoot('approve', 'carla')).status, 200);
    t.equal((await asRoot('pay', 'carla')).body.error?.code, 'FOUR_EYES_REQUIRED', 'the same name is the same stand-in person');
  });
});
