// Anti-money-laundering through the real processes (issue #28): a br-spa operator's player deposits
// and withdraws through the operator API; the compliance service's watch opens a high case; our
// team reads it on the admin API (compliance role only), takes it under review and reports it with
// four eyes (audited by the gateway); the payout waits for it with 403 AML_REVIEW_REQUIRED, while the
// operator sees nothing but an approved withdrawal.
import t from 'tap';
import { waitFor } from '@bo/service-kit/testing';
import { startStack } from './support/stack.ts';

const key = () => ({ 'idempotency-key': `aml-${Math.random().toString(36).slice(2, 12)}` });

t.test('AML: watch, case, four eyes, audit, payout hold', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('AML Bets');
  t.equal((await stack.admin('PUT', `/admin/operators/${op.operator.id}/compliance`, { profile: 'br-spa' })).status, 200, 'br-spa');
  const c = op.sandboxClient;

  const player = await c.post(
    '/players',
    { externalId: 'aml-1', name: 'Rui Lima', email: 'rui@example.com', cpf: '529.982.247-25', birthDate: '1985-03-04' },
    key(),
  );
  const id = player.body.id as string;
  await c.post(`/players/${id}/kyc/submissions`, { documentType: 'rg', reference: 's3://docs/rui' }, key());
  await c.post(`/sandbox/players/${id}/kyc/decision`, { status: 'aprovado' });
  const dep = await c.post(`/players/${id}/deposits`, { amount: '2000.00', currency: 'BRL', method: 'pix', externalReference: 'aml-psp-1' }, key());
  t.equal((await c.post(`/deposits/${dep.body.id}/confirm`, {}, key())).status, 200);
  const w = await c.post(`/players/${id}/withdrawals`, { amount: '1900.00', currency: 'BRL', method: 'pix', destination: 'rui@pix' }, key());
  t.equal(w.status, 201);

  const cases = await waitFor(
    async () => {
      const r = await stack.admin('GET', `/admin/aml/cases?playerId=${id}`);
      return r.status === 200 && r.body.data.length > 0 ? r.body.data : undefined;
    },
    { what: 'the case' },
  );
  t.match(cases, [{ playerId: id, risk: 'high', status: 'open', rules: ['in_and_out'] }], 'in and out: a high case');
  const caseId = cases[0].id as string;

  const support = await stack.admin('POST', '/admin/tokens', { name: 'support-bot', role: 'support' });
  const compliance = await stack.admin('POST', '/admin/tokens', { name: 'compliance-bot', role: 'compliance' });
  const as = (secret: string) => fetch(`${stack.adminUrl}/admin/aml/cases/${caseId}`, { headers: { authorization: `Bearer ${secret}` } });
  t.equal((await as(support.body.secret)).status, 403, 'support never sees a case');
  t.equal((await as(compliance.body.secret)).status, 200, 'compliance does');

  t.equal((await stack.admin('POST', `/admin/withdrawals/${w.body.id}/decision`, { decision: 'approve' }, 'rev@team')).status, 200, 'approve works');
  const held = await stack.admin('POST', `/admin/withdrawals/${w.body.id}/decision`, { decision: 'pay' }, 'payer@team');
  t.equal(held.status, 403);
  t.equal(held.body.error.code, 'AML_REVIEW_REQUIRED', 'the payout waits for compliance');
  const seen = await c.get(`/withdrawals/${w.body.id}`);
  t.equal(seen.body.status, 'approved', 'the operator sees an approved withdrawal');
  t.notMatch(JSON.stringify(seen.body), /aml|risk|case/i, 'and nothing more');

  const decide = (body: unknown, actor: string) => stack.admin('POST', `/admin/aml/cases/${caseId}/decision`, body, actor);
  t.equal((await decide({ status: 'under_review', reason: 'no play between deposit and payout' }, 'alice@team')).status, 200);
  const same = await decide({ status: 'reported', reason: 'filed', receipt: 'SISCOAF-1' }, 'alice@team');
  t.equal(same.body.error.code, 'FOUR_EYES_REQUIRED', 'the reviewer does not report');
  const reported = await decide({ status: 'reported', reason: 'filed with COAF', receipt: 'SISCOAF-1' }, 'bob@team');
  t.equal(reported.status, 200);
  t.equal(reported.body.receipt, 'SISCOAF-1');

  const audit = await stack.admin('GET', `/admin/audit?target=aml_case:${caseId}`);
  t.same(
    audit.body.data.map((a: { action: string; after: { status: string } }) => [a.action, a.after.status]).reverse(),
    [
      ['adminAmlCaseDecision', 'under_review'],
      ['adminAmlCaseDecision', 'reported'],
    ],
    'each step in the audit log',
  );
  t.equal((await stack.admin('POST', `/admin/withdrawals/${w.body.id}/decision`, { decision: 'pay' }, 'payer@team')).status, 200, 'reported: paid');
});
