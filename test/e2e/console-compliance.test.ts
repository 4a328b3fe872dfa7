// What our compliance officer and our finance person see (issue #41, "the whole money picture"), in
// Chromium against the real processes at 1280 px and on a 390 px phone: on the player page (both
// roles) and on the AML queue and an AML case (compliance: the queue is compliance's alone, and
// finance's navigation does not offer it), the wallet, the ledger, deposits with the payer the PSP
// reported (a payer who is not the player marked), withdrawals with their destination and the AML
// hold; no FORBIDDEN_ROLE anywhere; and the COS of a case under review downloaded from the case as the
// CSV the admin API gives.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { waitFor } from '@bo/service-kit/testing';
import { startStack, uniq, REGISTRATION_DATA } from './support/stack.ts';
import { consoleBrowser } from './support/console-browser.ts';

const key = () => ({ 'idempotency-key': uniq('k') });
const PASSPHRASE = 'copper meadow quiet lantern ninety';
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

t.test('compliance sees the whole money picture', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Money Picture Bets');
  t.equal(
    (await stack.admin('PUT', `/admin/operators/${op.operator.id}/compliance`, { profile: 'br-spa', reason: 'the operator is licensed in Brazil' })).status,
    200,
    'br-spa',
  );
  const c = op.sandboxClient;
  const player = await c.post(
    '/players',
    {
      externalId: uniq('mp'),
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
  const dep = await c.post(`/players/${id}/deposits`, { amount: '2000.00', currency: 'BRL', method: 'pix', externalReference: uniq('psp') }, key());
  t.equal((await c.post(`/deposits/${dep.body.id}/confirm`, { payer: { cpf: '52998224725', name: 'Rui Lima', bank: '260' } }, key())).status, 200);
  // Another person's account pays a second deposit: refused under br-spa, and kept with who paid.
  const dep2 = await c.post(`/players/${id}/deposits`, { amount: '10.00', currency: 'BRL', method: 'pix', externalReference: uniq('psp') }, key());
  await c.post(`/deposits/${dep2.body.id}/confirm`, { payer: { cpf: '11144477735', name: 'Lia Reis' } }, key());
  const w = await c.post(`/players/${id}/withdrawals`, { amount: '1900.00', currency: 'BRL', method: 'pix', destination: '52998224725' }, key());
  t.equal(w.status, 201);
  const caseId = await waitFor(
    async () => {
      const r = await stack.admin('GET', `/admin/aml/cases?playerId=${id}`);
      return r.body.data?.find((x: { risk: string; rules: string[] }) => x.risk === 'high' && x.rules.includes('in_and_out'))?.id as string | undefined;
    },
    { what: 'the high in-and-out case' },
  );
  t.equal((await stack.admin('POST', `/admin/aml/cases/${caseId}/decision`, { status: 'under_review', reason: 'looking at it' }, 'rev')).status, 200);

  const officer = await stack.admin('POST', '/admin/users', { email: 'clara.compliance@ourteam.example', role: 'compliance' });
  t.equal(officer.status, 201, 'a compliance officer');
  const cashier = await stack.admin('POST', '/admin/users', { email: 'fabio.finance@ourteam.example', role: 'finance' });
  t.equal(cashier.status, 201, 'a finance person');
  const people = { compliance: officer.body, finance: cashier.body } as const;
  const browser = await consoleBrowser(t, stack.adminUrl, { passphrase: PASSPHRASE, context: { acceptDownloads: true } });
  const { problems } = browser;
  const signedIn = (width: number, role: keyof typeof people = 'compliance') => browser.signedIn(people[role], width);

  for (const [role, width] of [
    ['compliance', 1280],
    ['compliance', 390],
    ['finance', 1280],
    ['finance', 390],
  ] as const) {
    t.test(`the player page as ${role} at ${width} px`, async (t) => {
      const page = await signedIn(width, role);
      const nav = await page.locator('nav[aria-label=Console]').textContent();
      if (role === 'compliance') t.match(nav, /AML cases/, "compliance's navigation offers the AML queue");
      else t.notMatch(nav, /AML cases/, "finance's navigation does not offer the AML queue (compliance's alone)");
      await page.goto(`${stack.adminUrl}/players?id=${id}`);
      const file = page.locator(`article[data-player="${id}"]`);
      await file.locator('.balance').waitFor();
      t.match((await file.locator('.balance').textContent())!.replace(/\u00a0/g, ' '), /Balance\s+R\$ 2\.000,00/, 'the wallet');
      const own = file.locator(`tr[data-deposit="${dep.body.id}"] [data-payer]`);
      const stranger = file.locator(`tr[data-deposit="${dep2.body.id}"] [data-payer]`);
      // Issue #69: a payer's CPF is masked by default, and a stranger is told apart all the same.
      t.match(await own.textContent(), /^\*\*\*\.982\.247-\*\* Rui Lima 260$/, 'a deposit with its payer, the CPF masked');
      t.match(await stranger.textContent(), /^\*\*\*\.444\.777-\*\* Lia Reis not the player$/, 'a payer who is not the player, marked while masked');
      const row = file.locator(`tr[data-withdrawal-row="${w.body.id}"]`);
      t.match(
        await row.textContent(),
        /PIX\*\*\*\.982\.247-\*\*.*Under review\s*AML review/,
        'a withdrawal with its destination, a CPF key masked, and its hold',
      );
      // A deliberate reveal (recorded by the gateway) shows the payers' CPFs whole, and the destination's.
      await file.locator('button[data-reveal]').click();
      await file.locator('[data-personal-data=revealed]').waitFor();
      await file.locator(`tr[data-deposit="${dep.body.id}"] [data-payer="52998224725"]`).waitFor();
      t.match(await own.textContent(), /^529\.982\.247-25 Rui Lima 260$/, 'a deposit with its payer, revealed');
      t.match(await stranger.textContent(), /111\.444\.777-35 Lia Reis not the player/, 'a payer who is not the player, marked');
      await row.getByText('52998224725').waitFor();
      t.match(await row.textContent(), /PIX52998224725.*Under review\s*AML review/, 'a withdrawal with its destination revealed and its hold');
      await file.locator('section h3', { hasText: 'Ledger' }).waitFor();
      const wide = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth }));
      t.ok(wide.page <= wide.screen, `fits ${width} px`);
      await page.context().close();
    });
  }

  t.test('the queue and the case at 390 px', async (t) => {
    const page = await signedIn(390);
    await page.goto(`${stack.adminUrl}/aml?status=under_review&environment=sandbox`);
    const queueRow = page.locator(`tr[data-case-row="${caseId}"]`);
    await queueRow.waitFor();
    t.match(await queueRow.textContent(), /High/, 'the case in the queue, with its risk');
    const fits = () => page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth }));
    const queue = await fits();
    t.ok(queue.page <= queue.screen, `the queue fits 390 px (page ${queue.page} px)`);
    await queueRow.locator('a').first().click();
    const card = page.locator(`article[data-case="${caseId}"]`);
    await card.locator(`tr[data-deposit="${dep.body.id}"]`).waitFor();
    t.match(await card.locator(`tr[data-withdrawal-row="${w.body.id}"]`).textContent(), /AML review/, 'the held payout, on the case');
    const casePage = await fits();
    t.ok(casePage.page <= casePage.screen, `the case fits 390 px (page ${casePage.page} px)`);
    await page.context().close();
  });

  t.test('the case at 1280 px shows the money and exports its COS', async (t) => {
    const page = await signedIn(1280);
    await page.goto(`${stack.adminUrl}/aml?status=under_review&environment=sandbox`);
    await page.locator(`tr[data-case-row="${caseId}"] a`).first().click();
    const card = page.locator(`article[data-case="${caseId}"]`);
    await card.locator(`tr[data-deposit="${dep.body.id}"]`).waitFor();
    t.match(await card.locator(`tr[data-withdrawal-row="${w.body.id}"]`).textContent(), /AML review/, 'the held payout, on the case');
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download the COS (CSV)' }).click()]);
    t.equal(download.suggestedFilename(), `cos-${caseId}.csv`);
    const csv = readFileSync((await download.path())!, 'utf8');
    const api = await stack.admin('GET', `/admin/aml/cases/${caseId}/cos`);
    t.equal(csv, api.body.csv, "the file is the admin API's COS CSV");
    await page.context().close();
  });

  t.test('no FORBIDDEN_ROLE, no failed request, no script error', async (t) => {
    t.same(problems, [], problems.join(' | ') || 'none');
  });
});
