// Integrity holds on the console (issue #60 item 3; docs/games.md, "Integrity holds on sports
// prizes"), in Chromium against the real processes, at 1280 px and on a 390 px phone: a compliance
// officer holds an open sports slip with the reason and the evidence through the page's form; the
// page does not offer her the decision (four eyes), and the admin API refuses it to the person who
// placed a hold (403 FOUR_EYES_REQUIRED); a second compliance officer releases it with a reason; the
// export links are there; no request refused but the ones a step expects, no page error.
import t from 'tap';
import type { Page } from 'playwright-core';
import pg from 'pg';
import { ADMIN_TOKEN, startStack, uniq } from './support/stack.ts';
import { activatedPerson, type ActivatedPerson } from './support/people.ts';
import { consoleBrowser, phoneHeight } from './support/console-browser.ts';

declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };
const SLIP = {
  sport: 'football',
  event: 'Bahia x Vitória',
  market: 'match_result',
  selection: 'Bahia',
  odds: '2.10',
  eventStartsAt: '2030-01-01T19:00:00.000Z',
};

t.test('integrity holds on the console', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Integrity Bets');
  const provider = (
    await stack.admin('POST', '/admin/providers', { name: 'Integrity Sportsbook', kind: 'sportsbook', launchUrl: 'https://sports.example.com' })
  ).body;
  const game = (await stack.admin('PUT', `/admin/providers/${provider.id}/games/sportsbook`, { name: 'Sportsbook', category: 'sports' })).body;
  // Two open slips of a player (planted: the provider's bets are the provider wallet API's tests').
  const db = new pg.Client({ connectionString: stack.db.url });
  await db.connect();
  t.teardown(() => db.end());
  const slips = [uniq('slip'), uniq('slip')];
  for (const roundId of slips)
    await db.query(
      `insert into wallet.provider_rounds (provider_id, round_id, kind, operator_id, brand_id, environment, player_id, currency, game_id,
                                           status, bets, staked, slip, opened_at)
       values ($1, $2, 'sports', $3, $4, 'production', 'plr_integrity', 'BRL', $5, 'open', 1, 10.00, $6::jsonb, now())`,
      [provider.id, roundId, op.operator.id, op.production.brandId, game.id, JSON.stringify(SLIP)],
    );

  // Through the admin API: the person who placed a hold cannot decide it.
  const byToken = await stack.admin('POST', '/admin/integrity/holds', { providerId: provider.id, roundId: slips[1], reason: 'api placed' }, 'vera');
  t.equal(byToken.status, 201, 'held through the API');
  const refused = await stack.admin('POST', `/admin/integrity/holds/${byToken.body.id}/release`, { reason: 'same person' }, 'vera');
  t.match(refused, { status: 403, body: { error: { code: 'FOUR_EYES_REQUIRED' } } }, 'the same person refused');

  const root = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const clara = await activatedPerson(stack.adminUrl, root, { email: 'clara.integrity@ourteam.example', role: 'compliance', token: false });
  const diego = await activatedPerson(stack.adminUrl, root, { email: 'diego.integrity@ourteam.example', role: 'compliance', token: false });

  const browser = await consoleBrowser(t, stack.adminUrl, {
    context: { locale: 'en-US' },
    height: phoneHeight,
    watch: { label: (email, width) => `${email} ${width}` },
  });
  const { problems } = browser;
  async function signedIn(who: ActivatedPerson, width: number): Promise<Page> {
    const page = await browser.signedIn(who, width);
    await page.goto(`${stack.adminUrl}/integrity`);
    await page.locator('main h1').waitFor();
    return page;
  }
  const fits = async (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

  t.test('at 1280 px: one officer holds a slip through the form; the page offers her no decision', async (t) => {
    const page = await signedIn(clara, 1280);
    const form = page.locator('form[aria-label="Hold a prize"]');
    // The sportsbook chosen by its name (compliance reads the providers' list: issue #70).
    await form.locator('.picker input[type=search]').fill('Integrity');
    await form.locator(`button[data-choice="${provider.id}"]`).click();
    await form.locator('input[name=roundId]').fill(slips[0]!);
    await form.locator('input[name=reason]').fill('odds moved against the market before kick-off');
    await form.locator('textarea[name=evidence]').fill('monitor alert 42');
    await form.getByRole('button', { name: 'Hold the prize' }).click();
    const row = page.locator('tr[data-integrity-hold]', { hasText: slips[0]! });
    await row.waitFor();
    t.match(await row.textContent(), /odds moved against the market.*monitor alert 42.*Held/s, 'the reason, the evidence, held');
    t.match(await row.textContent(), /Another person decides/, 'four eyes: not offered to the person who placed it');
    t.equal(await page.locator('a[download]', { hasText: 'CSV' }).count(), 1, 'the export links');
    t.ok(await fits(page), 'fits 1280 px');
    await page.context().close();
  });

  t.test('at 390 px: another officer releases it with a reason', async (t) => {
    const page = await signedIn(diego, 390);
    const row = page.locator('tr[data-integrity-hold]', { hasText: slips[0]! });
    await row.waitFor();
    t.ok(await fits(page), 'fits 390 px');
    await row.getByRole('button', { name: 'Release' }).click();
    const confirm = row.locator('form[aria-label="Confirm the decision"]');
    await confirm.locator('input[name=reason]').fill('the monitor closed the alert');
    await confirm.getByRole('button', { name: 'Yes, confirm' }).click();
    await row.waitFor({ state: 'detached' });
    await page.locator('button[data-status=released]').click();
    const released = page.locator('tr[data-integrity-hold]', { hasText: slips[0]! });
    await released.waitFor();
    t.match(await released.textContent(), /Released.*diego\.integrity@ourteam\.example: the monitor closed the alert/s, 'released, by whom and why');
    t.ok(await fits(page), 'fits 390 px');
    await page.context().close();
  });

  t.test('no request refused, no page error', async (t) => {
    t.same(problems, []);
  });
});
