// Every console page in Chromium at 1280 px and on a 390 px phone, against the real processes:
// each one finishes loading (the deliveries page with no filter too), none is wider than the screen
// (no sideways scrolling of the page; a wide table scrolls inside itself), KYC document references
// are text, and links only when they are https URLs, and operators and brands are shown by name.
// CONSOLE_SCREENSHOTS=<dir> keeps a screenshot of each page at each width (<page>-<width>.png).
import t from 'tap';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startStack, uniq } from './support/stack.ts';
import { startWebhookReceiver } from './support/webhook-receiver.ts';
import { consoleBrowser, notFailedLoad, phoneHeight } from './support/console-browser.ts';

const SHOTS = process.env.CONSOLE_SCREENSHOTS;
const key = () => ({ 'idempotency-key': uniq('k') });
const WIDTHS = [1280, 390] as const;
// What the page functions below use of the DOM (the tests are typed without the DOM's library).
interface Box {
  tagName: string;
  className: string;
  id: string;
  getBoundingClientRect(): { right: number };
}
declare const document: {
  querySelector(selector: string): { textContent: string | null } | null;
  querySelectorAll(selector: string): Iterable<Box>;
  documentElement: { scrollWidth: number; clientWidth: number };
};

t.test('console pages at 1280 px and on a 390 px phone', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Layout Bets');
  const c = op.sandboxClient;
  const receiver = await startWebhookReceiver(op.sandbox.webhookSecret);
  t.teardown(() => receiver.close());
  await stack.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/sandbox`, { url: receiver.url });
  await stack.firstTestWebhook(c);

  // A player whose KYC waits with a stored-file reference and an https one; a funded player with a
  // withdrawal waiting for review.
  const newPlayer = async (externalId: string, email: string, cpf: string) =>
    (await c.post('/players', { externalId, name: `Player ${externalId} with a rather long family name`, email, cpf, birthDate: '1990-05-17' }, key())).body
      .id as string;
  const waiting = await newPlayer('layout-kyc-with-a-long-external-id-0001', 'a.very.long.address.for.layout@example.com', '529.982.247-25');
  await c.post(`/players/${waiting}/kyc/submissions`, { documentType: 'rg', reference: 's3://docs/rg-front' }, key());
  await c.post(`/players/${waiting}/kyc/submissions`, { documentType: 'selfie', reference: 'https://files.example.com/kyc/selfie-0001.jpg' }, key());
  await c.post(`/players/${waiting}/kyc/submissions`, { documentType: 'cnh', reference: 'javascript:alert(1)' }, key());
  const payee = await newPlayer('layout-payee', 'payee@example.com', '111.444.777-35');
  await c.post(`/players/${payee}/kyc/submissions`, { documentType: 'cnh', reference: 's3://docs/cnh' }, key());
  await c.post(`/sandbox/players/${payee}/kyc/decision`, { status: 'aprovado' });
  const deposit = await c.post(`/players/${payee}/deposits`, { amount: '100.00', currency: 'BRL', method: 'pix', externalReference: uniq('psp') }, key());
  await c.post(`/deposits/${deposit.body.id}/confirm`, {}, key());
  t.equal((await c.post(`/players/${payee}/withdrawals`, { amount: '40.00', currency: 'BRL', method: 'pix', destination: 'pix-key-1' }, key())).status, 201);

  // A kept daily regulator file (the brand's yesterday: a day that is over) for the files page.
  const yesterday = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() - 86_400_000));
  t.equal((await stack.admin('GET', `/admin/reports/daily/files/${op.sandbox.brandId}/${yesterday}`)).status, 200, 'a daily file kept');
  const listed = await stack.admin('POST', '/admin/impediments', {
    cpf: '390.533.447-05',
    category: 'court_or_administrative_order',
    note: 'Barred from betting by a court order of the state court, case 0001234-56.2026.8.26.0100, until further notice',
  });
  t.equal(listed.status, 201, 'an entry on the internal impediments list');

  const email = 'layout-admin@ourteam.example';
  const CHOSEN_PASSWORD = 'layout check, a long passphrase of our own';
  const created = await stack.admin('POST', '/admin/users', { email, role: 'admin' });
  t.equal(created.status, 201, 'an admin account');

  const browser = await consoleBrowser(t, stack.adminUrl, {
    passphrase: CHOSEN_PASSWORD,
    height: phoneHeight,
    watch: { responses: false, consoleErrors: notFailedLoad },
  });
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  const { problems } = browser;
  const signedIn = (width: number) => browser.signedIn(created.body, width);

  /** Opens a page and waits until nothing on it says "Loading…" any more. */
  async function open(page: Page, url: string): Promise<void> {
    await page.goto(`${stack.adminUrl}${url}`);
    await page.locator('main h1').waitFor();
    await page.waitForFunction(() => !document.querySelector('main')?.textContent?.includes('Loading…'), undefined, { timeout: 15_000 });
  }

  const pages: Array<[name: string, url: string]> = [
    // The sandbox's data: each list shows it when the switch says so (production's is the default, issue #61).
    ['kyc', '/kyc?environment=sandbox'],
    ['withdrawals', '/withdrawals?environment=sandbox'],
    ['players-search', `/players?q=${encodeURIComponent('@example.com')}&environment=sandbox`],
    ['players', `/players?q=layout&id=${waiting}`],
    ['operators', '/operators'],
    ['webhooks-no-filter', '/webhooks'],
    ['webhooks', `/webhooks?operatorId=${op.operator.id}`],
    ['aml', '/aml?environment=sandbox'],
    ['reports', '/reports?environment=sandbox'],
    ['impediments', '/impediments'],
    ['audit', '/audit'],
    ['ledger', '/ledger'],
    ['account', '/account'],
    ['team', '/team'],
    ['providers', '/providers'],
    ['unclaimed', '/unclaimed'],
    ['fund-transfers', '/fund-transfers'],
  ];
  for (const width of WIDTHS) {
    t.test(`at ${width} px`, async (t) => {
      const page = await signedIn(width);
      for (const [name, url] of pages) {
        await open(page, url);
        if (name === 'ledger') await page.getByRole('button', { name: 'Verify the ledger' }).click();
        if (name === 'ledger') await page.locator('pre.verdict').waitFor();
        if (name === 'players') await page.locator('section h3', { hasText: 'Ledger' }).waitFor();
        if (name === 'reports') await page.locator(`tr[data-file="${op.sandbox.brandId}/${yesterday}"]`).waitFor();
        const wide = await page.evaluate(() => {
          const screen = document.documentElement.clientWidth;
          // What sticks out, named for the failure message (the deepest elements past the screen's edge).
          const past = [...document.querySelectorAll('main *')]
            .filter((e) => e.getBoundingClientRect().right > screen + 1)
            .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className ? `.${String(e.className).split(' ')[0]}` : ''}`);
          return { page: document.documentElement.scrollWidth, screen, past: past.slice(-3).join(', ') };
        });
        t.ok(
          wide.page <= wide.screen,
          `${name} fits ${width} px without sideways scrolling (page ${wide.page} px, screen ${wide.screen} px${wide.past ? `; past the edge: ${wide.past}` : ''})`,
        );
        if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
      }
      await page.context().close();
    });
  }

  t.test('the deliveries page without a filter asks for one', async (t) => {
    const page = await signedIn(1280);
    await open(page, '/webhooks');
    t.match(await page.locator('main').textContent(), /Choose an operator or an event\./);
    await page.context().close();
  });

  t.test('document references and names', async (t) => {
    const page = await signedIn(1280);
    for (const url of ['/kyc?environment=sandbox', `/players?id=${waiting}`]) {
      await open(page, url);
      const card = page.locator(`article[data-player="${waiting}"]`);
      await card.waitFor();
      const links = await card.locator('.submissions a').evaluateAll((as) => as.map((a) => ({ href: a.getAttribute('href'), rel: a.getAttribute('rel') })));
      t.same(links, [{ href: 'https://files.example.com/kyc/selfie-0001.jpg', rel: 'noopener noreferrer' }], `${url}: only the https reference is a link`);
      const text = await card.locator('.submissions').textContent();
      t.equal(await card.locator('.submissions a').textContent(), 'open the document', `${url}: the link says what it opens, not the URL`);
      t.match(text, /in the operator's files: s3:\/\/docs\/rg-front/, `${url}: the s3 reference is shown as text, said to be the operator's`);
      t.match(text, /javascript:alert\(1\)/, `${url}: and anything else too`);
      // The names arrive with the operators' list: shown once it is in.
      await card.locator('.owner', { hasText: 'Layout Bets' }).waitFor();
      const owner = await card.locator('.owner').textContent();
      t.match(owner, /Layout Bets/, `${url}: the operator by name`);
      t.equal(
        await card.locator('.owner + [data-env-mark=sandbox]').textContent(),
        'Sandbox',
        `${url}: the brand by name, marked Sandbox beside it (said once: no "(Sandbox)" in the name)`,
      );
      t.notMatch(owner, /op_|brd_/, `${url}: no raw id shown`);
    }
    await open(page, `/players?q=${encodeURIComponent('payee@example.com')}&environment=sandbox`);
    const row = page.locator('tbody tr', { hasText: 'layout-payee' });
    await row.locator('.owner', { hasText: 'Layout Bets' }).waitFor();
    t.equal(await row.locator('.owner + [data-env-mark=sandbox]').count(), 1, 'the search results name the brand, marked Sandbox');
    await page.context().close();
  });

  t.same(problems, [], 'no script error on any page');
});
