// Anti-money-laundering through the real processes (issue #28): a br-spa operator's player deposits
// and withdraws through the operator API; the compliance service's watch opens a high case; our
// team reads it on the admin API (compliance role only), takes it under review and reports it with
// four eyes (audited by the gateway); the payout waits for it with 403 AML_REVIEW_REQUIRED, while the
// operator sees nothing but an approved withdrawal.
import t from 'tap';
import { waitFor } from '@bo/service-kit/testing';
import { startStack, REGISTRATION_DATA } from './support/stack.ts';
import { launchChromium, notFailedLoad, signIn, watchProblems } from './support/console-browser.ts';

const key = () => ({ 'idempotency-key': `aml-${Math.random().toString(36).slice(2, 12)}` });

t.test('AML: watch, case, four eyes, audit, payout hold', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('AML Bets');
  t.equal(
    (await stack.admin('PUT', `/admin/operators/${op.operator.id}/compliance`, { profile: 'br-spa', reason: 'the operator is licensed in Brazil' })).status,
    200,
    'br-spa',
  );
  const c = op.sandboxClient;

  const player = await c.post(
    '/players',
    {
      externalId: 'aml-1',
      name: 'Rui Lima',
      email: 'rui@example.com',
      cpf: '529.982.247-25',
      birthDate: '1985-03-04',
      ...REGISTRATION_DATA,
      limits: [
        { type: 'loss', period: 'day', value: '100000.00' },
        { type: 'time', period: 'day', value: 600 },
      ],
    },
    key(),
  );
  const id = player.body.id as string;
  await c.post(`/players/${id}/kyc/submissions`, { documentType: 'rg', reference: 's3://docs/rui' }, key());
  await c.post(`/sandbox/players/${id}/kyc/decision`, { status: 'aprovado' });
  const dep = await c.post(`/players/${id}/deposits`, { amount: '2000.00', currency: 'BRL', method: 'pix', externalReference: 'aml-psp-1' }, key());
  // br-spa: the payer is the player (Ordinance 615/2024), and so is the payout's destination (a CPF PIX key).
  t.equal((await c.post(`/deposits/${dep.body.id}/confirm`, { payer: { cpf: '52998224725' } }, key())).status, 200);
  const w = await c.post(`/players/${id}/withdrawals`, { amount: '1900.00', currency: 'BRL', method: 'pix', destination: '52998224725' }, key());
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

  t.equal((await stack.admin('POST', `/admin/withdrawals/${w.body.id}/decision`, { decision: 'approve' }, 'rev')).status, 200, 'approve works');
  const held = await stack.admin('POST', `/admin/withdrawals/${w.body.id}/decision`, { decision: 'pay' }, 'payer');
  t.equal(held.status, 403);
  t.equal(held.body.error.code, 'AML_REVIEW_REQUIRED', 'the payout waits for compliance');
  const seen = await c.get(`/withdrawals/${w.body.id}`);
  t.equal(seen.body.status, 'approved', 'the operator sees an approved withdrawal');
  t.notMatch(JSON.stringify(seen.body), /aml|risk|case/i, 'and nothing more');

  const decide = (body: unknown, actor: string) => stack.admin('POST', `/admin/aml/cases/${caseId}/decision`, body, actor);
  t.equal((await decide({ status: 'under_review', reason: 'no play between deposit and payout' }, 'alice')).status, 200);
  const same = await decide({ status: 'reported', reason: 'filed', receipt: 'SISCOAF-1' }, 'alice');
  t.equal(same.body.error.code, 'FOUR_EYES_REQUIRED', 'the reviewer does not report');
  const reported = await decide({ status: 'reported', reason: 'filed with COAF', receipt: 'SISCOAF-1' }, 'bob');
  t.equal(reported.status, 200);
  t.equal(reported.body.receipt, 'SISCOAF-1');

  // A decision's row comes through its service's outbox: a moment after the answer.
  const audit = await waitFor(
    async () => {
      const r = await stack.admin('GET', `/admin/audit?target=aml_case:${caseId}`);
      return r.body.data.length >= 2 ? r : undefined;
    },
    { what: 'the audit rows of the case' },
  );
  t.same(
    audit.body.data.map((a: { action: string; after: { status: string } }) => [a.action, a.after.status]).reverse(),
    [
      ['adminAmlCaseDecision', 'under_review'],
      ['adminAmlCaseDecision', 'reported'],
    ],
    'each step in the audit log',
  );
  t.equal((await stack.admin('POST', `/admin/withdrawals/${w.body.id}/decision`, { decision: 'pay' }, 'payer')).status, 200, 'reported: paid');

  t.test('the console: compliance takes a case under review from the queue', async (t) => {
    const big = await c.post(
      '/players',
      {
        externalId: 'aml-2',
        name: 'Lia Prado',
        email: 'lia@example.com',
        cpf: '111.444.777-35',
        birthDate: '1979-08-09',
        ...REGISTRATION_DATA,
        limits: [
          { type: 'loss', period: 'day', value: '100000.00' },
          { type: 'time', period: 'day', value: 600 },
        ],
      },
      key(),
    );
    const pid = big.body.id as string;
    await c.post(`/players/${pid}/kyc/submissions`, { documentType: 'rg', reference: 's3://docs/lia' }, key());
    await c.post(`/sandbox/players/${pid}/kyc/decision`, { status: 'aprovado' });
    const d = await c.post(`/players/${pid}/deposits`, { amount: '60000.00', currency: 'BRL', method: 'pix', externalReference: 'aml-psp-2' }, key());
    await c.post(`/deposits/${d.body.id}/confirm`, { payer: { cpf: '11144477735' } }, key());
    const [mc] = await waitFor(
      async () => {
        const r = await stack.admin('GET', `/admin/aml/cases?playerId=${pid}`);
        return r.status === 200 && r.body.data.length > 0 ? r.body.data : undefined;
      },
      { what: 'the high-value case' },
    );
    const carla = await stack.admin('POST', '/admin/users', { email: 'carla@ourteam.example', role: 'compliance' });
    const browser = await launchChromium(t);
    const page = await (await browser.newContext()).newPage();
    const problems: string[] = [];
    watchProblems(page, problems, { responses: false, consoleErrors: notFailedLoad });
    // The first sign-in replaces the one-time password (/setup) before any page opens.
    await signIn(page, stack.adminUrl, { email: 'carla@ourteam.example', password: carla.body.password, chosen: 'carla checks cases with a long passphrase' });
    await page.click('nav a[href="/aml"]');
    // The queue shows production unless the switch says the sandbox (issue #61): this case is the sandbox's.
    await page.locator('.env-switch button[data-env=sandbox]').click();
    const row = page.locator(`tr[data-case-row="${mc.id}"]`);
    await row.waitFor();
    t.match(await row.textContent(), /High value/, 'the case in the queue, with its rule');
    await row.getByRole('link', { name: 'High value' }).click();
    const card = page.locator(`article[data-case="${mc.id}"]`);
    // The player's file loads after the card (its own requests): its link to the player says it is there.
    // (A bare text locator would match the heading too, and fail strict mode once both are on the page.)
    await card.getByRole('link', { name: 'Lia Prado' }).waitFor();
    t.match((await card.textContent())?.replace(/\u00a0/g, ' '), /R\$ 60\.000,00/, 'its evidence and the player file, the amount as the locale writes it');
    await card.locator('select[name=status]').selectOption('under_review');
    await card.locator('input[name=reason]').fill('source of funds asked');
    await card.locator('button[type=submit]').click();
    await card.locator('h2', { hasText: 'Under review' }).waitFor();
    const after = await stack.admin('GET', `/admin/aml/cases/${mc.id}`);
    t.match(after.body, {
      status: 'under_review',
      steps: [{ status: 'open' }, { status: 'under_review', by: 'user:carla@ourteam.example', reason: 'source of funds asked' }],
    });
    t.same(problems, [], 'no script error on the page');
  });
});
