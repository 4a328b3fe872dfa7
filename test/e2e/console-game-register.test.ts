// The game register on the console's Providers page (issue #59 items 5 and 6), in Chromium against
// the real processes: the page warns of a certificate ending within 30 days (every provider, at its
// top), a casino provider's card lists its games by certificate state, an admin records a game's
// certificate through its form (what the admin API then reads), and RTP as measured shows a month's
// figures beside the certified RTP, a game outside its certificate marked. At 1280 px and on a 390 px
// phone, with no request refused and no page error.
import t from 'tap';
import type { Page } from 'playwright-core';
import pg from 'pg';
import { startStack } from './support/stack.ts';
import { consoleBrowser } from './support/console-browser.ts';

const PASSPHRASE = 'amber harbour steady violin forty';
const DAY = 86_400_000;
const brasilia = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(ms));
const day = (days: number) => brasilia(Date.now() + days * DAY);
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

t.test('the game register on the Providers page', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Game Register Bets');
  const created = await stack.admin('POST', '/admin/users', { email: 'rita.register@ourteam.example', role: 'admin' });
  t.equal(created.status, 201, 'an admin of our team');
  const provider = (await stack.admin('POST', '/admin/providers', { name: 'Register Slots Co', kind: 'casino', launchUrl: 'https://games.example.com' })).body;
  for (const [code, name] of [
    ['rs-fruits', 'Register Fruits'],
    ['rs-ending', 'Register Ending'],
    ['rs-drift', 'Register Drift'],
  ])
    t.equal((await stack.admin('PUT', `/admin/providers/${provider.id}/games/${code}`, { name, category: 'slots' })).status, 200, `the game ${code}`);
  const certify = (code: string, number: string, validUntil: string) =>
    stack.admin('PUT', `/admin/providers/${provider.id}/games/${code}/certificates/${number}`, {
      laboratory: 'GLI',
      certifiedRtp: '96.00',
      volatility: '1.00',
      version: '2.0',
      issuedOn: day(-200),
      validUntil,
      regulatorReference: 'SPA-REF-1',
    });
  t.equal((await certify('rs-ending', 'GLI-END-1', day(10))).status, 200, 'a certificate ending in 10 days');
  t.equal((await certify('rs-drift', 'GLI-DRIFT-1', day(300))).status, 200, 'a certified game');
  // Last month's history of the drifting game: 12,000 settled rounds of 1.00 paying 80% (planted: the report reads the rounds).
  const thisMonth = brasilia(Date.now()).slice(0, 7);
  const lastMonth = brasilia(Date.parse(`${thisMonth}-01T12:00:00-03:00`) - 2 * DAY).slice(0, 7);
  const drift = (await stack.admin('GET', `/admin/providers/${provider.id}/games`)).body.data.find((g: any) => g.gameCode === 'rs-drift');
  const db = new pg.Client({ connectionString: stack.db.url });
  await db.connect();
  t.teardown(() => db.end());
  await db.query(
    `insert into wallet.provider_rounds (provider_id, round_id, kind, operator_id, brand_id, environment, player_id, currency, game_id,
                                         status, bets, wins, staked, won, opened_at, closed_at)
     select $1, 'history-' || i, 'casino', $2, $3, 'production', 'plr_history', 'BRL', $4, 'settled', 1, 1, 1.00,
            case when i % 2 = 0 then 1.60 else 0 end, $5::timestamptz, $5::timestamptz + interval '5 seconds'
     from generate_series(1, 12000) i`,
    [provider.id, op.operator.id, op.production.brandId, drift.id, `${lastMonth}-15T12:00:00-03:00`],
  );

  const browser = await consoleBrowser(t, stack.adminUrl, { passphrase: PASSPHRASE });
  const { problems } = browser;
  async function signedIn(width: number): Promise<Page> {
    const page = await browser.signedIn(created.body, width);
    await page.goto(`${stack.adminUrl}/providers?provider=${encodeURIComponent(provider.id)}`);
    await page.locator(`article[data-provider="${provider.id}"] section[aria-label="Game register"] table`).waitFor();
    return page;
  }

  for (const width of [1280, 390]) {
    t.test(`at ${width} px: the warning, the register, a certificate recorded, RTP as measured`, async (t) => {
      const page = await signedIn(width);
      const warning = page.locator(`section[aria-label="Certificates ending"] tr[data-certificate-warning="${provider.id}/rs-ending"]`);
      await warning.waitFor();
      t.equal(await warning.getAttribute('data-state'), 'expiring', 'the page warns of the certificate ending within 30 days');
      t.match(await warning.textContent(), /GLI-END-1.*10 days/, 'its number and the days left');

      const card = page.locator(`article[data-provider="${provider.id}"]`);
      const register = card.locator('section[aria-label="Game register"]');
      t.equal(await register.locator('tr[data-register-game="rs-ending"]').getAttribute('data-state'), 'expiring', 'the register: ending soon');
      t.equal(await register.locator('tr[data-register-game="rs-drift"]').getAttribute('data-state'), 'valid', 'the register: valid');
      const number = `GLI-FRUITS-${width}`;
      if (width === 1280) {
        t.equal(await register.locator('tr[data-register-game="rs-fruits"]').getAttribute('data-state'), 'missing', 'a game never certified');
        const form = register.locator('form[aria-label="Record a certificate"]');
        await form.locator('select[name=gameCode]').selectOption('rs-fruits');
        await form.locator('input[name=laboratory]').fill('BMM Testlabs');
        await form.locator('input[name=certificateNumber]').fill(number);
        await form.locator('input[name=certifiedRtp]').fill('95.75');
        await form.locator('input[name=version]').fill('3.1.4');
        await form.locator('input[name=issuedOn]').fill(day(-1));
        await form.locator('input[name=validUntil]').fill(day(730));
        await form.locator('input[name=regulatorReference]').fill('SPA-REF-FRUITS');
        await form.getByRole('button', { name: 'Record certificate' }).click();
        await register.locator('tr[data-register-game="rs-fruits"][data-state="valid"]').waitFor();
        const listed = (await stack.admin('GET', `/admin/providers/${provider.id}/certificates`)).body.data.find((g: any) => g.gameCode === 'rs-fruits');
        t.match(
          listed,
          {
            state: 'valid',
            current: { certificateNumber: number, laboratory: 'BMM Testlabs', certifiedRtp: '95.75', version: '3.1.4', regulatorReference: 'SPA-REF-FRUITS' },
          },
          'recorded through the form: the admin API reads it',
        );
      } else {
        t.equal(await register.locator('tr[data-register-game="rs-fruits"]').getAttribute('data-state'), 'valid', 'the certificate recorded at 1280 px');
      }

      const rtp = card.locator('section[aria-label="RTP as measured"]');
      await rtp.locator('input[name=month]').fill(lastMonth);
      await rtp.getByRole('button', { name: 'Show' }).click();
      const row = rtp.locator('tr[data-rtp-game="rs-drift/BRL"]');
      await row.waitFor();
      t.equal(await row.getAttribute('data-outside'), 'true', 'last month: outside its certificate');
      t.match(await row.locator('[data-measured]').textContent(), /80\.00%/, 'measured 80.00% beside the certified 96.00%');
      t.match(await row.textContent(), /96\.00%.*± 3\.65.*outside the certificate/, 'the certified RTP, the tolerance and the verdict');

      const size = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth }));
      t.ok(size.page <= size.screen, `fits ${width} px (page ${size.page} px)`);
      await page.context().close();
    });
  }

  t.test('no request refused, no page error', async (t) => {
    t.same(problems, []);
  });
});
