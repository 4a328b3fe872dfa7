// Provider money for finance in the console (issues #59 items 2-3, #61 item 5), in Chromium against
// the real processes: sandbox play on the built-in provider, then finance on the provider's card sets
// its revenue share (kept with its history), reads the month statement per brand and currency (the
// amount due at the share, tying to the ledger, money as the locale writes it, its CSV), and the
// reconciliation with two uploaded daily statements (one ties, one does not: its differences by
// transaction id). At 1280 and 390 px; support is not offered the page and the admin API refuses it.
import t from 'tap';
import type { Page } from 'playwright-core';
import { ADMIN_TOKEN, startStack, uniq, playerInput } from './support/stack.ts';
import { activatedPerson } from './support/people.ts';
import { consoleBrowser } from './support/console-browser.ts';

const key = () => ({ 'idempotency-key': uniq('k') });
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };
const plain = (s: string | null) =>
  (s ?? '')
    .replace(/\u00a0/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

t.test('provider money for finance', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Money Console Bets');
  const c = op.sandboxClient;
  const player = await c.post(
    '/players',
    {
      ...playerInput(uniq('pm')),
      limits: [
        { type: 'loss', period: 'day', value: '100000.00' },
        { type: 'time', period: 'day', value: 600 },
      ],
    },
    key(),
  );
  t.equal(player.status, 201, 'a sandbox player');
  const id = player.body.id as string;
  await c.post(`/sandbox/players/${id}/kyc/decision`, { status: 'aprovado' });
  const dep = await c.post(`/players/${id}/deposits`, { amount: '100.00', currency: 'BRL', method: 'pix', externalReference: uniq('psp') }, key());
  t.equal((await c.post(`/deposits/${dep.body.id}/confirm`, { payer: { cpf: '52998224725', name: 'Ana Souza' } }, key())).status, 200, 'funded');
  const session = await c.post(`/players/${id}/game-sessions`, { gameId: 'gm_p_sandbox_slot' });
  t.equal(session.status, 201, 'a session on the built-in provider');
  const landing = await fetch(session.body.gameUrl, { redirect: 'manual' });
  const spun = await fetch(`${new URL(landing.headers.get('location')!, session.body.gameUrl).href}/spin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ amount: '20.00', outcome: 'lose' }),
  });
  t.equal(spun.status, 200, 'a lost spin');

  // The provider's daily statements, by the API (finance's): yesterday's empty one ties, today's names one of theirs only.
  const dayIn = (daysAgo: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() - daysAgo * 86_400_000));
  const [today, yesterday] = [dayIn(0), dayIn(1)];
  const mapping = {
    format: 'csv',
    delimiter: ';',
    fields: { transactionId: 'tx_id', kind: 'type', amount: 'amount_cents', currency: 'ccy', status: 'state' },
    kinds: { BET: 'bet', WIN: 'win' },
    statuses: { OK: 'ok', CANCELLED: 'rolled_back' },
    amountUnit: 'cents',
    sign: 'absolute',
    timeZone: 'America/Sao_Paulo',
  };
  t.equal((await stack.admin('PUT', '/admin/providers/prv_sandbox/statement-mapping', mapping, 'fin')).status, 200, 'the mapping');
  const header = 'tx_id;type;amount_cents;ccy;state';
  const up1 = await stack.admin('POST', '/admin/providers/prv_sandbox/statements', { date: yesterday, environment: 'sandbox', content: header }, 'fin');
  t.match(up1, { status: 200, body: { day: { ties: true } } }, 'an empty day ties');
  const up2 = await stack.admin(
    'POST',
    '/admin/providers/prv_sandbox/statements',
    { date: today, environment: 'sandbox', content: `${header}\ntheirs-only-1;WIN;700;BRL;OK` },
    'fin',
  );
  t.match(up2, { status: 200, body: { day: { ties: false, theirsOnly: 1 } } }, 'today does not tie');

  // People who set up their accounts already: the browser speaks Portuguese, and /setup with it (issue #70).
  const root = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const fin = { body: await activatedPerson(stack.adminUrl, root, { email: 'fabio.money@ourteam.example', role: 'finance', token: false }) };
  const sup = { body: await activatedPerson(stack.adminUrl, root, { email: 'sara.money@ourteam.example', role: 'support', token: false }) };
  const { problems, signedIn } = await consoleBrowser(t, stack.adminUrl, {
    context: { locale: 'pt-BR' },
    acceptDialogs: true,
  });
  const fits = async (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  const month = today.slice(0, 7);

  for (const width of [1280, 390]) {
    t.test(`${width} px: finance sets the share, reads the month and the reconciliation`, async (t) => {
      const page = await signedIn(fin.body, width);
      await page.goto(`${stack.adminUrl}/providers?provider=prv_sandbox`);
      const card = page.locator('article[data-provider=prv_sandbox]');
      await card.locator('details[open]').waitFor();
      const shares = card.locator('section[aria-label="Revenue share"]');
      if (width === 1280) {
        const form = shares.locator('form[aria-label="Set the revenue share"]');
        await form.locator('input[name=sharePercent]').fill('10');
        await form.locator('input[name=reason]').fill('contrato 2026');
        // Enter, as a person sends a form: a click lands where the button was, and the sections above it
        // still loading move it (a loaded run's click of 2026-11-29 sent nothing: no request, no row).
        await form.locator('input[name=reason]').press('Enter');
      }
      const share = shares.locator(`tr[data-share-row="${month}"]`);
      await share.waitFor();
      t.match(plain(await share.textContent()), /de \d{4}.*10,00%.*contrato 2026.*usr_.*Brasília/, 'the share in its history, by whom');
      const row = card.locator(`tr[data-statement="${op.sandbox.brandId}/BRL"]:has(td[data-share="10.00"])`);
      await row.waitFor();
      t.equal(await row.getAttribute('data-ties'), 'true', 'the month ties to the ledger');
      t.equal(plain(await row.locator('[data-amount-due]').textContent()), 'R$ 2,00', 'the amount due at 10% of the GGR, as the locale writes it');
      await row.locator(`[data-brand="${op.sandbox.brandId}"]`).waitFor(); // the brands' names, read once per page
      t.equal(
        `${await row.locator(`[data-brand="${op.sandbox.brandId}"]`).textContent()} · ${await row.locator(`[data-brand="${op.sandbox.brandId}"] + [data-env-mark=sandbox]`).textContent()}`,
        'Money Console Bets · Sandbox (testes)',
        'the brand by name, marked Sandbox once',
      );
      const csv = await page.request.get(`${stack.adminUrl}${await card.locator('a[data-statement-csv]').getAttribute('href')}`);
      t.equal(csv.status(), 200, 'the CSV downloads');
      t.match(await csv.text(), new RegExp(`^provider_id,month,brand_id[^\\n]*\\nprv_sandbox,${month},${op.sandbox.brandId},BRL`), 'one line per brand');
      const rec = card.locator('section[aria-label="Reconciliation"]');
      await rec.locator('select[name=environment]').selectOption('sandbox');
      await rec.getByRole('button', { name: 'Mostrar' }).click();
      await rec.locator(`tr[data-reconciliation="${yesterday}"][data-ties=true]`).waitFor();
      const untied = rec.locator(`tr[data-reconciliation="${today}"][data-ties=false]`);
      await untied.waitFor();
      await untied.getByRole('button', { name: 'Diferenças' }).click();
      await rec.locator('tr[data-difference="theirs-only-1"][data-category=theirs_only]').waitFor();
      t.match(plain(await rec.locator('tr[data-difference="theirs-only-1"]').textContent()), /Só do provedor.*Prêmio R\$ 7,00/, 'theirs only, with its amount');
      t.ok((await rec.locator('tr[data-category=ours_only]').count()) >= 1, 'our spin, not in their statement: ours only');
      t.ok(await fits(page), `${width}: fits`);
      await page.context().close();
    });
  }

  t.test('support: no Providers page, the admin API refuses the money', async (t) => {
    // Its refusals are what this test checks: not problems.
    const page = await signedIn(sup.body, 390, { responses: false });
    t.equal(await page.locator('header nav a[href="/providers"]').count(), 0, 'not in the navigation');
    await page.goto(`${stack.adminUrl}/providers?provider=prv_sandbox`);
    await page.locator('main p.error', { hasText: 'adminListProviders' }).locator('code', { hasText: 'FORBIDDEN_ROLE' }).waitFor();
    t.equal(await page.locator('section[aria-label="Month statement"]').count(), 0, 'no month statement shown');
    const api = await page.request.get(`${stack.adminUrl}/admin/providers/prv_sandbox/statements/${month}`);
    t.equal(api.status(), 403, 'the statement refused');
    await page.context().close();
  });

  t.test('no failed request, no script error', async (t) => {
    t.same(problems, [], problems.join(' | ') || 'none');
  });
});
