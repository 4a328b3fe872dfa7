// SIGAP duties in the console (issue #60 item 4), in Chromium against the real processes: on the
// Regulator files page a compliance officer registers an operator's CNPJ (the SIGAP files carry it)
// and makes a brand's monthly report of last month (kept as a version, with the CNPJ); finance reads
// both at 390 px with no form and no Make; support has no Regulator files and the admin API refuses it
// the monthly report.
import t from 'tap';
import type { Page } from 'playwright-core';
import { startStack } from './support/stack.ts';
import { consoleBrowser } from './support/console-browser.ts';

const PASSPHRASE = 'amber harbour golden river eighty';
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };
const CNPJ = '11.222.333/0001-81';

t.test('the SIGAP duties in the console', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Sigap Duties Bets');
  t.equal(
    (await stack.admin('PUT', `/admin/operators/${op.operator.id}/compliance`, { profile: 'br-spa', reason: 'the operator is licensed in Brazil' })).status,
    200,
    'br-spa',
  );
  const people = {
    compliance: await stack.admin('POST', '/admin/users', { email: 'sara.duties@ourteam.example', role: 'compliance' }),
    finance: await stack.admin('POST', '/admin/users', { email: 'fabio.duties@ourteam.example', role: 'finance' }),
    support: await stack.admin('POST', '/admin/users', { email: 'sam.duties@ourteam.example', role: 'support' }),
  };
  for (const p of Object.values(people)) t.equal(p.status, 201);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
  const [y, m] = today.split('-').map(Number) as [number, number];
  const lastMonth = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;

  const { problems, signedIn } = await consoleBrowser(t, stack.adminUrl, {
    passphrase: PASSPHRASE,
    context: { locale: 'en-GB' },
    acceptDialogs: true,
  });
  const fits = async (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

  t.test('1280 px: compliance registers the CNPJ and makes last month', async (t) => {
    const page = await signedIn(people.compliance.body, 1280);
    await page.goto(`${stack.adminUrl}/reports`);
    const cnpj = page.locator('section[aria-label="Operator CNPJ"]');
    await cnpj.locator('.picker input[type=search]').fill('Sigap Duties');
    await cnpj.locator(`button[data-choice="${op.operator.id}"]`).click();
    const form = cnpj.locator('form[aria-label="Register the CNPJ"]');
    await form.locator('input[name=cnpj]').fill(CNPJ);
    await form.locator('input[name=reason]').fill('from the licence');
    await form.locator('button[type=submit]').click();
    await cnpj.locator('p[data-cnpj="11222333000181"]').waitFor();
    t.match(
      await cnpj.locator('p[data-cnpj]').textContent(),
      /CNPJ 11\.222\.333\/0001-81 .*from the licence.*Brasília/,
      'the CNPJ as people write it, why and by whom',
    );
    const monthly = page.locator('section[aria-label="SIGAP monthly report"]');
    await monthly.locator('.picker input[type=search]').fill('Sigap Duties');
    await monthly.locator(`button[data-choice="${op.production.brandId}"]`).click();
    await monthly.locator('input[name=month]').fill(lastMonth);
    await monthly.getByRole('button', { name: 'Show' }).click();
    await monthly.getByRole('button', { name: "Make the month's report" }).click();
    const v1 = monthly.locator('tr[data-monthly-version="1"]');
    await v1.waitFor({ timeout: 120_000 });
    t.equal(await v1.locator('[data-monthly-cnpj]').getAttribute('data-monthly-cnpj'), '11222333000181', 'made with the CNPJ');
    t.match(await v1.textContent(), /user:sara\.duties@ourteam\.example/, 'made by her');
    t.ok(await fits(page), '1280: fits');
    await page.context().close();
  });

  t.test('390 px: finance reads both, changes neither', async (t) => {
    const page = await signedIn(people.finance.body, 390);
    await page.goto(`${stack.adminUrl}/reports`);
    const cnpj = page.locator('section[aria-label="Operator CNPJ"]');
    await cnpj.locator('.picker input[type=search]').fill('Sigap Duties');
    await cnpj.locator(`button[data-choice="${op.operator.id}"]`).click();
    await cnpj.locator('p[data-cnpj="11222333000181"]').waitFor();
    t.equal(await cnpj.locator('form[aria-label="Register the CNPJ"]').count(), 0, 'no form for finance');
    const monthly = page.locator('section[aria-label="SIGAP monthly report"]');
    await monthly.locator('.picker input[type=search]').fill('Sigap Duties');
    await monthly.locator(`button[data-choice="${op.production.brandId}"]`).click();
    await monthly.locator('input[name=month]').fill(lastMonth);
    await monthly.getByRole('button', { name: 'Show' }).click();
    await monthly.locator('tr[data-monthly-version="1"]').waitFor();
    t.equal(await monthly.getByRole('button', { name: /Make/ }).count(), 0, 'no Make for finance');
    t.ok(await fits(page), '390: fits');
    await page.context().close();
  });

  t.test('support: no Regulator files, the monthly report refused', async (t) => {
    // Its refusals are what this test checks: not problems.
    const page = await signedIn(people.support.body, 1280, { responses: false });
    t.equal(await page.locator('header nav a[href="/reports"]').count(), 0, 'not in the navigation');
    const api = await page.request.get(`${stack.adminUrl}/admin/reports/sigap/monthly/${op.production.brandId}/${lastMonth}`);
    t.equal(api.status(), 403, 'the admin API refuses it');
    await page.context().close();
  });

  t.test('no failed request, no script error', async (t) => {
    t.same(problems, [], problems.join(' | ') || 'none');
  });
});
