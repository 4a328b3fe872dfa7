// AML duties in the console (issue #60 item 5), in Chromium against the real processes: the 30-day
// analysis clock of each case in the queue and on the case, marked near its deadline and overdue (a
// case backdated 31 days); the yearly internal risk assessment of an operator filled in by compliance
// (its first version, then a change saying what changed, both kept). At 1280 and 390 px; finance is
// not offered AML and the admin API refuses it the assessment.
import t from 'tap';
import type { Page } from 'playwright-core';
import pg from 'pg';
import { waitFor } from '@bo/service-kit/testing';
import { startStack, uniq, REGISTRATION_DATA } from './support/stack.ts';
import { consoleBrowser } from './support/console-browser.ts';

const key = () => ({ 'idempotency-key': uniq('k') });
const PASSPHRASE = 'amber harbour silver orchard twelve';
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };
// Every fresh case is near its deadline (less than 31 days left): the mark is seen without waiting 25 days.
const NEAR_MS = String(31 * 86_400_000);

t.test('the AML analysis clock and the internal risk assessment', async (t) => {
  const stack = await startStack({ AML_ANALYSIS_NEAR_MS: NEAR_MS });
  const db = new pg.Client({ connectionString: stack.db.url });
  await db.connect();
  t.teardown(async () => {
    await db.end();
    await stack.close();
  });
  const op = await stack.createOperator('Analysis Bets');
  t.equal(
    (await stack.admin('PUT', `/admin/operators/${op.operator.id}/compliance`, { profile: 'br-spa', reason: 'the operator is licensed in Brazil' })).status,
    200,
    'br-spa',
  );
  const c = op.sandboxClient;
  /** A sandbox player who deposits 2,000 and takes 1,900 out: a high in-and-out case. */
  async function caseOf(name: string, cpf: string): Promise<string> {
    const player = await c.post(
      '/players',
      {
        externalId: uniq('an'),
        name,
        email: `${uniq('p')}@example.com`,
        cpf,
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
    await c.post(`/players/${id}/kyc/submissions`, { documentType: 'rg', reference: `s3://docs/${id}` }, key());
    await c.post(`/sandbox/players/${id}/kyc/decision`, { status: 'aprovado' });
    const dep = await c.post(`/players/${id}/deposits`, { amount: '2000.00', currency: 'BRL', method: 'pix', externalReference: uniq('psp') }, key());
    await c.post(`/deposits/${dep.body.id}/confirm`, { payer: { cpf: cpf.replace(/\D/g, ''), name } }, key());
    await c.post(`/players/${id}/withdrawals`, { amount: '1900.00', currency: 'BRL', method: 'pix', destination: cpf.replace(/\D/g, '') }, key());
    return waitFor(
      async () =>
        (await stack.admin('GET', `/admin/aml/cases?playerId=${id}`)).body.data?.find((x: { risk: string }) => x.risk === 'high')?.id as string | undefined,
      { what: `${name}'s high case` },
    );
  }
  const nearCase = await caseOf('Ana Duarte', '529.982.247-25');
  const lateCase = await caseOf('Bruno Lima', '111.444.777-35');
  // Bruno's case opened 31 days ago: its analysis is overdue.
  const moved = await db.query(`update compliance.cases set opened_at = opened_at - interval '31 days' where id = $1`, [lateCase]);
  t.equal(moved.rowCount, 1, 'one case backdated');
  t.match((await stack.admin('GET', `/admin/aml/cases/${lateCase}`)).body, { analysis: { state: 'overdue' } }, 'overdue at the API');
  t.match((await stack.admin('GET', `/admin/aml/cases/${nearCase}`)).body, { analysis: { state: 'near' } }, 'near at the API');

  const officer = await stack.admin('POST', '/admin/users', { email: 'clara.analysis@ourteam.example', role: 'compliance' });
  const fin = await stack.admin('POST', '/admin/users', { email: 'fabio.analysis@ourteam.example', role: 'finance' });
  t.equal(officer.status, 201);
  t.equal(fin.status, 201);
  const { problems, signedIn } = await consoleBrowser(t, stack.adminUrl, {
    passphrase: PASSPHRASE,
    context: { locale: 'en-GB' },
    acceptDialogs: true,
  });
  const fits = async (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

  for (const width of [1280, 390]) {
    t.test(`${width} px: the analysis clock in the queue and on the case`, async (t) => {
      const page = await signedIn(officer.body, width);
      await page.goto(`${stack.adminUrl}/aml?environment=sandbox`);
      const near = page.locator(`tr[data-case-row="${nearCase}"] [data-analysis-state]`);
      const late = page.locator(`tr[data-case-row="${lateCase}"] [data-analysis-state]`);
      await near.waitFor();
      t.equal(await near.getAttribute('data-analysis-state'), 'near', 'near its deadline, marked');
      t.match(await near.textContent(), /^\d+ d \d+ h left — near its deadline$/, 'the time left');
      t.equal(await late.getAttribute('data-analysis-state'), 'overdue', 'overdue, marked');
      t.match(await late.textContent(), /^overdue by \d+ (d|h|min)/, 'how late');
      t.ok(await fits(page), `${width}: the queue fits`);
      await page.locator(`tr[data-case-row="${lateCase}"] a[data-player-name]`).click();
      const clock = page.locator('section[aria-label="Analysis clock"]');
      await clock.waitFor();
      t.equal(await clock.getAttribute('data-analysis'), 'overdue', 'on the case');
      t.match(await clock.textContent(), /Started .*Brasília.*due .*Brasília.*overdue by/s, "started and due in the brand's zone");
      await clock.locator('[data-analysis-warning]').waitFor();
      t.ok(await fits(page), `${width}: the case fits`);
      await page.context().close();
    });
  }

  t.test('1280 px: the first version of the internal risk assessment', async (t) => {
    const page = await signedIn(officer.body, 1280);
    await page.goto(`${stack.adminUrl}/aml?view=assessment`);
    await page.locator('form[aria-label="Choose the operator"] .picker input[type=search]').fill('Analysis');
    await page.locator(`button[data-choice="${op.operator.id}"]`).click();
    await page.locator('[data-assessed=false]').waitFor();
    t.pass('this year not assessed yet, said so');
    const form = page.locator('form[aria-label="New version of the risk assessment"]');
    await form.locator('input[name=approvedBy]').fill('Marta Reis, compliance director');
    await form.locator('textarea[name=methodology]').fill('Likelihood and impact per area, from the year of cases.');
    await form.locator('input[name=area-0]').fill('Payment methods');
    await form.locator('textarea[name=description-0]').fill('PIX from third parties');
    await form.locator('select[name=likelihood-0]').selectOption('high');
    await form.locator('textarea[name=controls-0]').fill('Payer CPF must match');
    await form.getByRole('button', { name: 'Add a risk' }).click();
    await form.locator('input[name=area-1]').fill('Customers');
    await form.locator('textarea[name=description-1]').fill('Politically exposed persons');
    await form.locator('textarea[name=controls-1]').fill('PEP screening at sign-up');
    await form.locator('textarea[name=conclusions]').fill('Residual risk low overall.');
    await form.getByRole('button', { name: 'Keep this version' }).click();
    const v1 = page.locator('details[data-assessment$="/v1"]');
    await v1.waitFor();
    await page.locator('[data-assessed=true]').waitFor();
    await v1.locator('summary').click();
    t.equal(await v1.locator('table.assessment-risks tbody tr').count(), 2, 'both risks kept');
    t.match(await v1.textContent(), /approved by Marta Reis.*kept by user:clara\.analysis@ourteam\.example/s, 'who approved it, who kept it');
    await page.context().close();
  });

  t.test('390 px: a change, saying what changed', async (t) => {
    const page = await signedIn(officer.body, 390);
    await page.goto(`${stack.adminUrl}/aml?view=assessment&operatorId=${op.operator.id}`);
    const form = page.locator('form[aria-label="New version of the risk assessment"]');
    await form.locator('input[name=change]').waitFor();
    t.equal(await form.locator('textarea[name=description-1]').inputValue(), 'Politically exposed persons', 'started from v1');
    await form.locator('select[name=residual-0]').selectOption('medium');
    await form.locator('input[name=change]').fill('Third-party PIX residual raised');
    await form.getByRole('button', { name: 'Keep this version' }).click();
    await page.locator('details[data-assessment$="/v2"]').waitFor();
    t.equal(await page.locator('details[data-assessment]').count(), 2, 'both versions kept');
    t.ok(await fits(page), '390: fits');
    await page.context().close();
  });

  t.test('finance: no AML, the assessment refused', async (t) => {
    // Its refusals are what this test checks: not problems.
    const page = await signedIn(fin.body, 1280, { responses: false });
    t.equal(await page.locator('header nav a[href="/aml"]').count(), 0, 'not in the navigation');
    const api = await page.request.get(`${stack.adminUrl}/admin/aml/operators/${op.operator.id}/risk-assessments`);
    t.equal(api.status(), 403, 'the admin API refuses it');
    await page.goto(`${stack.adminUrl}/aml?view=assessment&operatorId=${op.operator.id}`);
    await page.locator('main p.error code', { hasText: 'FORBIDDEN_ROLE' }).first().waitFor();
    t.equal(await page.locator('form[aria-label="New version of the risk assessment"]').count(), 0, 'no form');
    await page.context().close();
  });

  t.test('no failed request, no script error', async (t) => {
    t.same(problems, [], problems.join(' | ') || 'none');
  });
});
