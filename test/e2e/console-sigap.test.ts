// SIGAP files in the console (issue #46 item 1), in Chromium against the real processes: our
// compliance officer opens a brand's day on the Regulator files page (made from its daily file),
// sends it (the simulator answers: a sandbox brand), and sees each file accepted with its receipt,
// and the kept files listed, at 1280 px and on a 390 px phone; finance sees the files but is not
// offered the sending.
import t from 'tap';
import type { Page } from 'playwright-core';
import { startStack } from './support/stack.ts';
import { consoleBrowser } from './support/console-browser.ts';

const PASSPHRASE = 'copper meadow quiet lantern ninety';
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

t.test('SIGAP files on the Regulator files page', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Sigap Console Bets');
  t.equal(
    (await stack.admin('PUT', `/admin/operators/${op.operator.id}/compliance`, { profile: 'br-spa', reason: 'the operator is licensed in Brazil' })).status,
    200,
    'br-spa',
  );
  // The brand's yesterday (São Paulo, the default zone): a day that is over.
  const yesterday = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() - 86_400_000));
  const brand = op.sandbox.brandId;

  const officer = await stack.admin('POST', '/admin/users', { email: 'sara.sigap@ourteam.example', role: 'compliance' });
  const cashier = await stack.admin('POST', '/admin/users', { email: 'fred.sigap@ourteam.example', role: 'finance' });
  const people = { compliance: officer.body, finance: cashier.body } as const;
  const browser = await consoleBrowser(t, stack.adminUrl, { passphrase: PASSPHRASE });
  const { problems } = browser;
  const signedIn = (width: number, role: keyof typeof people) => browser.signedIn(people[role], width, { label: `${role} ${width}` });
  const openDay = async (page: Page) => {
    await page.goto(`${stack.adminUrl}/reports`);
    const form = page.locator('form[aria-label="SIGAP day"]');
    // The brand picked by its operator's name (issue #61: never typed).
    await form.locator('.picker input[type=search]').fill('Sigap Console');
    await form.locator(`button[data-choice="${brand}"]`).click();
    await form.locator('input[name=date]').fill(yesterday);
    await form.getByRole('button', { name: 'Make or show' }).click();
    const day = page.locator(`article[data-sigap-day="${brand}/${yesterday}"]`);
    await day.waitFor();
    return day;
  };
  const fits = async (page: Page) => page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth }));

  t.test('compliance makes, sends and sees the answers', async (t) => {
    const page = await signedIn(1280, 'compliance');
    const day = await openDay(page);
    t.equal(await day.locator('tr[data-sigap-file]').count(), 5, 'a file per type, made');
    t.match(await day.locator('h2 small').textContent(), /not accepted/);
    await day.getByRole('button', { name: 'Send to SIGAP' }).click();
    await day.locator('h2 small', { hasText: /^Accepted$/ }).waitFor();
    const rows = await day.locator('tr[data-sigap-file]').allTextContents();
    t.equal(rows.filter((r) => /Accepted.*simulator.*receipt SIM-[0-9A-F]{20}/.test(r)).length, 5, 'each accepted by the simulator, with its receipt');
    // Kept files of the sandbox brand: the sandbox's list (production's is the default, issue #61).
    await page.locator('.env-switch button[data-env=sandbox]').click();
    const listed = page.locator('section[aria-label="SIGAP files"] table.sigap-files').last();
    // Each file names its brand (its id on hover).
    await listed
      .locator('tr[data-sigap-file]', { has: page.locator(`[data-brand="${brand}"]`) })
      .first()
      .waitFor();
    t.ok((await listed.locator('tr[data-sigap-file]').count()) >= 5, 'and listed among the kept files');
    await page.context().close();
  });

  t.test('at 390 px, and as finance (no sending)', async (t) => {
    const phone = await signedIn(390, 'compliance');
    await openDay(phone);
    const size = await fits(phone);
    t.ok(size.page <= size.screen, `fits 390 px (page ${size.page} px)`);
    await phone.context().close();
    const page = await signedIn(1280, 'finance');
    const day = await openDay(page);
    t.match(await day.locator('h2 small').textContent(), /^Accepted$/, 'finance sees the day accepted');
    t.equal(await day.getByRole('button', { name: 'Send to SIGAP' }).count(), 0, 'and is not offered the sending');
    await page.context().close();
  });

  t.test('no request refused, no page error', async (t) => {
    t.same(problems, []);
  });
});
