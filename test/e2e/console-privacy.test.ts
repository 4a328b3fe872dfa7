// The console's privacy page in Chromium against the real processes (issue #69; docs/privacy.md):
// compliance reads the players' data requests the operator filed through its API (the open ones
// first, every one under "All", each type and status in the chosen language, the operator by name)
// and who read which player's personal data (a reveal marked, with who and which data), at 1280 and
// 390 px; support, whose role is not the page's, is not offered it.
import t from 'tap';
import { ADMIN_TOKEN, startStack, uniq } from './support/stack.ts';
import { consoleBrowser } from './support/console-browser.ts';

const key = () => ({ 'idempotency-key': uniq('k') });
const PASSPHRASE = 'amber harbour seven lanterns';

t.test("the privacy page: players' data requests and who read what", async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Privacy Console Bets');
  const c = op.sandboxClient;
  const player = await c.post(
    '/players',
    { externalId: uniq('pv'), name: 'Rita Privada', email: 'rita@example.com', cpf: '529.982.247-25', birthDate: '1990-05-17' },
    key(),
  );
  t.equal(player.status, 201, 'a player');
  const playerId = player.body.id as string;
  const access = await c.post(`/players/${playerId}/data-requests`, { type: 'access' }, key());
  t.match(access, { status: 201, body: { status: 'answered' } }, 'an access request, answered');
  const deletion = await c.post(`/players/${playerId}/data-requests`, { type: 'deletion' }, key());
  t.match(deletion, { status: 201, body: { status: 'partly_refused' } }, 'a deletion, partly refused');
  // A read of our team that reveals the CPF, recorded by the gateway.
  const revealed = await fetch(`${stack.adminUrl}/admin/players/${playerId}?reveal=cpf`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  t.equal(revealed.status, 200, 'a read that reveals the CPF');

  const officer = await stack.admin('POST', '/admin/users', { email: 'lara.privacy@ourteam.example', role: 'compliance' });
  const helper = await stack.admin('POST', '/admin/users', { email: 'tom.privacy@ourteam.example', role: 'support' });
  const browser = await consoleBrowser(t, stack.adminUrl, { passphrase: PASSPHRASE });

  for (const width of [1280, 390]) {
    await t.test(`compliance at ${width} px`, async (t) => {
      const page = await browser.signedIn(officer.body, width);
      await page.goto(`${stack.adminUrl}/privacy`);
      const requests = page.locator('section[data-section="data-requests"]');
      await requests.locator('p.empty').waitFor();
      t.pass('the open requests first: none, both were answered at once');
      await requests.getByRole('button', { name: 'All' }).click();
      await requests.locator(`tr[data-request="${access.body.id}"]`).waitFor();
      const row = (id: string) => requests.locator(`tr[data-request="${id}"]`);
      // The operator's name comes with the operators' list: waited for, not read while it loads.
      await row(access.body.id).locator('[data-operator-name]', { hasText: 'Privacy Console Bets' }).waitFor();
      t.match(
        await row(access.body.id).innerText(),
        /Access[\s\S]*Answered[\s\S]*Privacy Console Bets/,
        'the access request: its type, status and operator by name',
      );
      t.match(await row(deletion.body.id).innerText(), /Deletion[\s\S]*Partly refused \(a legal duty\)/, 'the deletion, partly refused by a legal duty');
      const reads = page.locator('section[data-section="reads"]');
      const reveal = reads.locator('tr[data-revealed="true"]').first();
      await reveal.waitFor();
      t.match(await reveal.innerText(), /CPF[\s\S]*GET \/admin\/players\/:id/, 'the reveal: which data, from which route');
      if (width === 390) {
        const fits = await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth');
        t.ok(fits, 'nothing wider than the phone');
      }
      await page.locator('header .language select').selectOption('pt');
      await requests.getByRole('button', { name: 'Todos' }).click();
      await row(access.body.id).waitFor();
      t.match(await row(access.body.id).innerText(), /Acesso[\s\S]*Respondido/, 'in Portuguese: Acesso, Respondido');
      await page.locator('header .language select').selectOption('en');
      await page.context().close();
    });
  }

  await t.test('support is not offered the page', async (t) => {
    const page = await browser.signedIn(helper.body, 1280);
    const nav = await page.locator('header nav').innerText();
    t.notMatch(nav, /Privacy/, 'no Privacy in the navigation');
    await page.context().close();
  });

  t.same(browser.problems, [], 'no console error, failed request or page error');
});
