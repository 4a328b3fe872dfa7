// AML beyond the players in the console (issue #46), in Chromium against the real processes: the
// compliance officer sees a case's COS deadline and time left (on the case and in the queue), the
// COS to file, registers a supplier in the risk register and reviews it, and downloads an operator's
// yearly report as the admin API kept it; the register fits a 390 px phone; no failed request and no
// script error.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { waitFor } from '@bo/service-kit/testing';
import { startStack, uniq, REGISTRATION_DATA } from './support/stack.ts';
import { consoleBrowser } from './support/console-browser.ts';

const key = () => ({ 'idempotency-key': uniq('k') });
const PASSPHRASE = 'amber harbour quiet lantern seventy';
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

t.test('the AML duties in the console', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Duties Bets');
  t.equal(
    (await stack.admin('PUT', `/admin/operators/${op.operator.id}/compliance`, { profile: 'br-spa', reason: 'the operator is licensed in Brazil' })).status,
    200,
    'br-spa',
  );
  const c = op.sandboxClient;
  const player = await c.post(
    '/players',
    {
      externalId: uniq('dt'),
      name: 'Ana Duarte',
      email: 'ana@example.com',
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
  await c.post(`/players/${id}/kyc/submissions`, { documentType: 'rg', reference: 's3://docs/ana' }, key());
  await c.post(`/sandbox/players/${id}/kyc/decision`, { status: 'aprovado' });
  const dep = await c.post(`/players/${id}/deposits`, { amount: '2000.00', currency: 'BRL', method: 'pix', externalReference: uniq('psp') }, key());
  await c.post(`/deposits/${dep.body.id}/confirm`, { payer: { cpf: '52998224725', name: 'Ana Duarte' } }, key());
  t.equal((await c.post(`/players/${id}/withdrawals`, { amount: '1900.00', currency: 'BRL', method: 'pix', destination: '52998224725' }, key())).status, 201);
  const caseId = await waitFor(
    async () =>
      (await stack.admin('GET', `/admin/aml/cases?playerId=${id}`)).body.data?.find((x: { risk: string }) => x.risk === 'high')?.id as string | undefined,
    { what: 'the high case' },
  );
  t.equal((await stack.admin('POST', `/admin/aml/cases/${caseId}/decision`, { status: 'under_review', reason: 'in and out' }, 'rev')).status, 200);
  const decided = await stack.admin('POST', `/admin/aml/cases/${caseId}/report-decision`, { reason: 'no play at all' }, 'dec');
  t.match(decided, { status: 200, body: { cos: { decidedBy: 'stand-in:dec', state: 'due' } } }, 'decided for reporting');
  // A yearly report kept for the operator (2025 is over): listed on the yearly reports view.
  const kept = await stack.admin('POST', `/admin/aml/operators/${op.operator.id}/annual-reports`, { year: 2025 }, 'dec');
  t.equal(kept.status, 201, 'a yearly report made');

  const officer = await stack.admin('POST', '/admin/users', { email: 'clara.duties@ourteam.example', role: 'compliance' });
  t.equal(officer.status, 201);
  const browser = await consoleBrowser(t, stack.adminUrl, { passphrase: PASSPHRASE, context: { acceptDownloads: true }, acceptDialogs: true });
  const { problems } = browser;
  const signedIn = (width: number) => browser.signedIn(officer.body, width);

  t.test("a case's COS deadline, in the queue and on the case", async (t) => {
    const page = await signedIn(1280);
    await page.goto(`${stack.adminUrl}/aml?status=under_review&environment=sandbox`);
    const row = page.locator(`tr[data-case-row="${caseId}"]`);
    await row.waitFor();
    t.match(await row.locator('[data-cos-state]').textContent(), /^\d+ (d|h|min) .*left$/, 'the time left, in the queue');
    await row.locator('a').first().click();
    const cos = page.locator('section[aria-label="COS deadline"]');
    await cos.waitFor();
    t.match(await cos.textContent(), /Decided by dec \(stand-in\) .*no play at all.*Due by .*left/s, 'who decided, why, the deadline and the time left');
    const options = await page.locator('form.decide select[name=status] option').allTextContents();
    t.same(options, ['Reported to COAF'], 'decided for reporting: it is reported, not dismissed');
    await page.goto(`${stack.adminUrl}/aml?view=cos&environment=sandbox`);
    await page.locator(`tr[data-cos-row="${caseId}"]`).waitFor();
    t.pass('listed among the COS to file');
    await page.context().close();
  });

  t.test('the risk register: register a supplier, review it', async (t) => {
    const page = await signedIn(1280);
    await page.goto(`${stack.adminUrl}/aml?view=register`);
    const form = page.locator('form[aria-label="Register a subject"]');
    await form.locator('select[name=kind]').selectOption('supplier');
    await form.locator('input[name=name]').fill('Pague Já IP Ltda');
    await form.locator('input[name=document]').fill('12.345.678/0001-95');
    await form.locator('select[name=operatorId]').selectOption(op.operator.id);
    await form.locator('select[name=rating]').selectOption('high');
    await form.locator('input[name=rationale]').fill('PSP with adverse media');
    await form.getByRole('button', { name: 'Register' }).click();
    const row = page.locator('tr[data-subject-row]', { hasText: 'Pague Já IP Ltda' });
    await row.waitFor();
    t.match(await row.textContent(), /Supplier.*Duties Bets.*High/, 'listed with its kind, operator and rating');
    await row.locator('a').click();
    const card = page.locator('article[data-subject]');
    await card.waitFor();
    const review = card.locator('form[aria-label="Review the rating"]');
    await review.locator('select[name=rating]').selectOption('medium');
    await review.locator('input[name=rationale]').fill('media cleared');
    await review.getByRole('button', { name: 'Record the review' }).click();
    await card.locator('ol li', { hasText: 'media cleared' }).waitFor();
    t.equal(await card.locator('ol li').count(), 2, 'both ratings kept');
    await page.context().close();
  });

  t.test('the yearly reports: downloaded as kept', async (t) => {
    const page = await signedIn(1280);
    await page.goto(`${stack.adminUrl}/aml?view=annual`);
    await page.getByLabel('Year').selectOption('2025');
    // The operators' names load beside the reports (the row shows the id until then): wait for the name.
    const row = page.locator(`tr[data-annual-row="${op.operator.id}"]`, { hasText: 'Duties Bets' });
    await row.waitFor();
    t.match(await row.textContent(), /Duties Bets.*Made.*01\/02\/2026.*v1/s, 'the operator, its state, due date and version');
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download' }).click()]);
    t.equal(download.suggestedFilename(), `aml-annual-report_${op.operator.id}_2025_v1.json`);
    t.equal(readFileSync((await download.path())!, 'utf8'), kept.body.file, 'the file as kept (its SHA-256 holds)');
    await page.context().close();
  });

  t.test('the register fits a phone', async (t) => {
    const page = await signedIn(390);
    await page.goto(`${stack.adminUrl}/aml?view=register`);
    await page.locator('tr[data-subject-row]').first().waitFor();
    const wide = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth }));
    t.ok(wide.page <= wide.screen, `fits 390 px (page ${wide.page} px)`);
    await page.context().close();
  });

  t.test('no failed request, no script error', async (t) => {
    t.same(problems, [], problems.join(' | ') || 'none');
  });
});
