// The Providers page of the console (issue #44 item 1), in Chromium against the real processes: an
// admin of our team registers a provider, issues its sandbox key (the secret shown once), offers
// its games to an operator, adds a game and disables it, then disables the provider; each change
// is what the admin API then reads. At 1280 px and on a 390 px phone, with no request refused and
// no page error.
import t from 'tap';
import type { Page } from 'playwright-core';
import { startStack } from './support/stack.ts';
import { consoleBrowser } from './support/console-browser.ts';

const PASSPHRASE = 'amber harbour steady violin forty';
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

t.test('the Providers page', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Providers Console Bets');
  const created = await stack.admin('POST', '/admin/users', { email: 'paula.providers@ourteam.example', role: 'admin' });
  t.equal(created.status, 201, 'an admin of our team');
  // Every change that stops something asks first: the admin says yes.
  const browser = await consoleBrowser(t, stack.adminUrl, { passphrase: PASSPHRASE, acceptDialogs: true });
  const { problems } = browser;
  async function signedIn(width: number): Promise<Page> {
    const page = await browser.signedIn(created.body, width);
    await page.goto(`${stack.adminUrl}/providers`);
    await page.locator('form[aria-label="New provider"]').waitFor();
    return page;
  }
  const providerNamed = async (name: string) => {
    const list = await stack.admin('GET', '/admin/providers');
    return (list.body.data as any[]).find((p) => p.name === name);
  };

  t.test('register, key, offer, games, disable', async (t) => {
    const page = await signedIn(1280);
    const form = page.locator('form[aria-label="New provider"]');
    await form.locator('input[name=name]').fill('Console Slots Co');
    await form.locator('select[name=kind]').selectOption('casino');
    await form.getByRole('button', { name: 'Create' }).click();
    const card = page.locator('article[data-provider]', { hasText: 'Console Slots Co' });
    await card.waitFor();
    const provider = await providerNamed('Console Slots Co');
    t.match(provider, { kind: 'casino', status: 'enabled' }, 'registered, enabled');
    // A new provider's empty lists say so (a stacked table with no row showed nothing at 390 px).
    for (const [section, says] of [
      ['Provider keys', 'No key yet: issue one below.'],
      ['Provider games', 'No game yet: add one below.'],
    ]) {
      const empty = card.locator(`section[aria-label="${section}"] p[data-empty]`);
      await empty.waitFor();
      t.equal(await empty.textContent(), says, `${section}: the empty list says so`);
    }

    await card.getByRole('button', { name: 'Issue sandbox key' }).click();
    const secret = card.locator('.secrets code.secret');
    await secret.waitFor();
    t.match(await secret.textContent(), /^\S{20,}$/, 'the secret, shown once');
    await card.locator('table.keys tr[data-status=active]').first().waitFor();
    const keys = await stack.admin('GET', `/admin/providers/${provider.id}/credentials`);
    t.equal(keys.body.data.length, 1, 'one key');
    t.notMatch(JSON.stringify(keys.body), await secret.textContent(), 'the admin API never shows the secret again');

    const row = card.locator(`section[aria-label="Operators offered"] tr[data-operator="${op.operator.id}"]`);
    await row.getByRole('button', { name: 'Offer' }).click();
    await row.locator('td', { hasText: /^yes$/ }).waitFor();
    t.same((await providerNamed('Console Slots Co')).operatorIds, [op.operator.id], 'offered to the operator');

    const games = card.locator('section[aria-label="Provider games"]');
    const add = games.locator('form[aria-label="Add a game"]');
    await add.locator('input[name=gameCode]').fill('cs-fruits');
    await add.locator('input[name=name]').fill('Console Fruits');
    await add.locator('input[name=category]').fill('slots');
    await add.getByRole('button', { name: 'Add' }).click();
    const game = games.locator('tr[data-game="cs-fruits"]');
    await game.waitFor();
    await game.getByRole('button', { name: 'Disable' }).click();
    await game.getByRole('button', { name: 'Enable' }).waitFor();
    const listed = await stack.admin('GET', `/admin/providers/${provider.id}/games`);
    t.match(listed.body.data, [{ gameCode: 'cs-fruits', name: 'Console Fruits', category: 'slots', enabled: false }], 'the game, disabled');

    await card.locator('.actions').first().getByRole('button', { name: 'Disable' }).click();
    await card.locator('h2 strong', { hasText: 'disabled' }).waitFor();
    t.equal((await providerNamed('Console Slots Co')).status, 'disabled', 'the provider, disabled');
    t.match(await card.locator('section[aria-label="Open rounds"]').textContent(), /None\./, 'no round left open');
    await page.context().close();
  });

  t.test('at 390 px', async (t) => {
    const page = await signedIn(390);
    await page.locator('article[data-provider]').first().waitFor();
    const size = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth }));
    t.ok(size.page <= size.screen, `fits 390 px (page ${size.page} px)`);
    await page.context().close();
  });

  t.test('no request refused, no page error', async (t) => {
    t.same(problems, []);
  });
});
