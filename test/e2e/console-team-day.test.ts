// A console a compliance and finance team can work in all day (issue #61), in Chromium against the real
// processes, at 1280 px and on a 390 px phone, as compliance officers, finance people and an admin, all
// activated (issue #56), on data in both environments (a br-spa operator's production and sandbox brands):
// 1. production apart from the sandbox: the AML queue, the withdrawals, the KYC queue, the player search
//    and the regulator files show production by default, the switch in view, sandbox rows marked;
// 2. pick, never type: a day's file is made for a brand picked by name (the API refuses a typed one);
// 3. the riskiest case first: rows with the player's name, the amount, risk, rule and age, sorted by risk
//    and amount; a partial cash-out is medium; dismissing a case that holds payouts takes a second person;
//    the COS to file names the player, the amount and the deadline as people say it;
// 4. SIGAP lateness: each day and file on time, late or overdue; the overdue filter; Send disabled once
//    accepted (and refused by the API, with no audit row);
// 5. provider money for finance: the Providers page without the admin's forms, a provider picked by name,
//    its clearing balance per brand and its day per brand; unclaimed funds and fund transfers pages;
// 6. one clock and one language: times in Brasília with UTC on hover, labels in Portuguese once chosen,
//    money as R$ 1.900,00, no API path in an explanation;
// 7. money decisions deliberate: a confirmation naming the amount and the player, a reason to reject, the
//    queue in one request, every button reachable at 390 px (the withdrawal queue and the Team page).
// No page logs a script error, and no request fails but the refusals each step expects.
import t from 'tap';
import type { Page } from 'playwright-core';
import { waitFor } from '@bo/service-kit/testing';
import { ADMIN_TOKEN, playerInput, startStack, uniq } from './support/stack.ts';
import { activatedPerson, type ActivatedPerson } from './support/people.ts';
import { consoleBrowser, phoneHeight } from './support/console-browser.ts';

const key = () => ({ 'idempotency-key': uniq('k') });
const LIMITS = [
  { type: 'loss', period: 'day', value: '100000.00' },
  { type: 'time', period: 'day', value: 600 },
];
/** Text as a person reads it: Intl writes a non-breaking space in R$ 1.900,00. */
const plain = (s: string | null) =>
  (s ?? '')
    .replace(/\u00a0/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
declare const document: any;
declare const window: any;

t.test('a day of the team in the console', async (t) => {
  // The regulator jobs wait: this test makes and sends the days itself, the clicks deciding what is sent when.
  const stack = await startStack({ DAILY_FILE_INTERVAL_MS: '3600000', SIGAP_INTERVAL_MS: '3600000' });
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Rio Bets');
  t.equal(
    (await stack.admin('PUT', `/admin/operators/${op.operator.id}/compliance`, { profile: 'br-spa', reason: 'the operator is licensed in Brazil' })).status,
    200,
  );
  // Its CNPJ, which every SIGAP file of a production brand carries (issue #60).
  t.equal((await stack.admin('PUT', `/admin/reports/sigap/operators/${op.operator.id}`, { cnpj: '11.222.333/0001-81', reason: 'the licence' })).status, 200);
  const cpfs = ['529.982.247-25', '111.444.777-35', '390.533.447-05', '714.602.380-01'];
  const digits = (cpf: string) => cpf.replace(/\D/g, '');

  /** A production player with KYC approved by our team, money in, and a withdrawal to their own PIX key. */
  async function livePlayer(name: string, cpf: string, deposit: string, out: string) {
    const live = op.productionClient;
    const created = await live.post('/players', { ...playerInput(uniq('live')), name, cpf, email: `${uniq('p')}@example.com`, limits: LIMITS }, key());
    t.equal(created.status, 201, `${name} registered`);
    const id = created.body.id as string;
    await live.post(`/players/${id}/kyc/submissions`, { documentType: 'rg', reference: `s3://docs/${id}` }, key());
    t.equal((await stack.admin('POST', `/admin/players/${id}/kyc/decision`, { status: 'aprovado', reason: 'documents checked' }, 'kyc-officer')).status, 200);
    const dep = await live.post(`/players/${id}/deposits`, { amount: deposit, currency: 'BRL', method: 'pix', externalReference: uniq('psp') }, key());
    t.equal((await live.post(`/deposits/${dep.body.id}/confirm`, { payer: { cpf: digits(cpf), name } }, key())).body.status, 'confirmed');
    const wd = await live.post(`/players/${id}/withdrawals`, { amount: out, currency: 'BRL', method: 'pix', destination: digits(cpf) }, key());
    t.equal(wd.status, 201, `${name}: ${out} out`);
    return { id, withdrawal: wd.body.id as string };
  }
  const ana = await livePlayer('Ana Souza', cpfs[0]!, '1000.00', '200.00'); // a partial cash-out: medium
  const bruno = await livePlayer('Bruno Lima', cpfs[1]!, '2000.00', '1900.00'); // nearly all of it: high, held
  const carla = await livePlayer('Carla Dias', cpfs[2]!, '100.00', '30.00'); // medium

  // The sandbox: a high case and a held withdrawal that must stay out of production's queues.
  const sbx = op.sandboxClient;
  const sandra = (
    await sbx.post('/players', { ...playerInput(uniq('sbx')), name: 'Sandra Teste', cpf: cpfs[3], email: 'sandra@example.com', limits: LIMITS }, key())
  ).body.id as string;
  await sbx.post(`/sandbox/players/${sandra}/kyc/decision`, { status: 'aprovado' });
  const sdep = await sbx.post(`/players/${sandra}/deposits`, { amount: '5000.00', currency: 'BRL', method: 'pix', externalReference: uniq('psp') }, key());
  await sbx.post(`/deposits/${sdep.body.id}/confirm`, { payer: { cpf: digits(cpfs[3]!) } }, key());
  const sandraOut = (
    await sbx.post(`/players/${sandra}/withdrawals`, { amount: '4900.00', currency: 'BRL', method: 'pix', destination: digits(cpfs[3]!) }, key())
  ).body.id as string;
  // A sandbox player waiting for KYC, and one in production.
  const waitingLive = (
    await op.productionClient.post('/players', { ...playerInput(uniq('wl')), name: 'Davi Espera', cpf: '935.411.347-80', limits: LIMITS }, key())
  ).body.id;
  await op.productionClient.post(`/players/${waitingLive}/kyc/submissions`, { documentType: 'rg', reference: 's3://docs/davi' }, key());
  const waitingTest = (await sbx.post('/players', { ...playerInput(uniq('wt')), name: 'Eva Espera', cpf: '935.411.347-80', limits: LIMITS }, key())).body.id;
  await sbx.post(`/players/${waitingTest}/kyc/submissions`, { documentType: 'rg', reference: 's3://docs/eva' }, key());

  const casesOf = async (playerId: string) =>
    waitFor(async () => (await stack.admin('GET', `/admin/aml/cases?playerId=${playerId}`)).body.data?.[0] as any, { what: `the case of ${playerId}` });
  const [anaCase, brunoCase, carlaCase, sandraCase] = [await casesOf(ana.id), await casesOf(bruno.id), await casesOf(carla.id), await casesOf(sandra)];
  t.match([anaCase.risk, brunoCase.risk, carlaCase.risk, sandraCase.risk], ['medium', 'high', 'medium', 'high'], 'the watch: partial cash-outs medium');

  // The day files: yesterday's of both brands, and an older production day whose SIGAP files are never sent (overdue).
  const dayIn = (daysAgo: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() - daysAgo * 86_400_000));
  const [yesterday, older] = [dayIn(1), dayIn(3)];
  for (const brand of [op.production.brandId, op.sandbox.brandId])
    t.equal((await stack.admin('GET', `/admin/reports/daily/files/${brand}/${yesterday}`)).status, 200);
  t.equal((await stack.admin('GET', `/admin/reports/sigap/files/${op.production.brandId}/${older}`)).status, 200, 'an older day made, never sent');

  // The team, activated (issue #56): two compliance officers, two finance people, an admin.
  const root = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const person = (email: string, role: string) => activatedPerson(stack.adminUrl, root, { email, role, token: false });
  const people = {
    clara: await person('clara.day@ourteam.example', 'compliance'),
    diego: await person('diego.day@ourteam.example', 'compliance'),
    fatima: await person('fatima.day@ourteam.example', 'finance'),
    gil: await person('gil.day@ourteam.example', 'finance'),
    ada: await person('ada.day@ourteam.example', 'admin'),
  };

  /** Refusals a step expects, by URL part and status: anything else 4xx or 5xx is a problem. */
  const expected: Array<[string, number]> = [];
  const adminRequests: string[] = [];
  const browser = await consoleBrowser(t, stack.adminUrl, {
    context: { locale: 'en-US' },
    height: phoneHeight,
    watch: {
      label: (email, width) => `${email} ${width}`,
      responses: (r) => !expected.some(([part, status]) => r.url().includes(part) && r.status() === status),
      consoleErrors: (text) => !/Failed to load resource/.test(text),
    },
    onPage: (page) =>
      page.on('request', (r) => {
        if (r.url().includes('/admin/')) adminRequests.push(r.url().replace(stack.adminUrl, ''));
      }),
  });
  const { problems } = browser;
  async function signedIn(who: ActivatedPerson, width: number, lang?: 'pt'): Promise<Page> {
    const page = await browser.signedIn(who, width);
    if (lang) {
      await page.locator('header select[aria-label=Language]').selectOption(lang);
      await page.locator('header select[aria-label=Idioma]').waitFor();
    }
    return page;
  }
  const fits = async (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  /** Every visible button inside the screen's width (none off to the right at 390 px). */
  const reachable = async (page: Page, scope: string) =>
    page.evaluate(
      (sel) =>
        [...document.querySelectorAll(`${sel} button`)]
          .filter((b: any) => b.offsetParent !== null)
          .every((b: any) => {
            const r = b.getBoundingClientRect();
            return r.left >= 0 && r.right <= window.innerWidth;
          }),
      scope,
    );

  t.test('1 and 3: the AML queue, production apart, the riskiest first, names and amounts', async (t) => {
    for (const width of [1280, 390]) {
      const page = await signedIn(people.clara, width);
      await page.goto(`${stack.adminUrl}/aml`);
      await page.locator('tr[data-case-row]').first().waitFor();
      t.equal(await page.locator('.env-switch button[data-env=production][aria-pressed=true]').count(), 1, `${width}: production by default`);
      const rows = page.locator('tr[data-case-row]');
      const envs = await rows.evaluateAll((trs) => trs.map((tr: any) => tr.dataset.environment));
      t.ok(envs.length >= 3 && envs.every((e) => e === 'production'), `${width}: no sandbox case in production's queue`);
      t.equal(await rows.first().getAttribute('data-case-row'), brunoCase.id, `${width}: the riskiest first (the high case), not the newest`);
      const first = plain(await rows.first().textContent());
      t.match(first, /Bruno Lima/, 'the player by name');
      t.match(first, /R\$ 3\.900,00/, 'the amount as the locale writes it');
      t.match(first, /High/, 'the risk');
      t.match(first, /In and out/, 'the rule in words');
      t.equal(await page.locator(`tr[data-case-row="${anaCase.id}"]`).getAttribute('data-risk'), 'medium', 'a partial cash-out: medium');
      // On a phone the filters are folded under their summary (issue #70): opened first.
      if (width === 390) await page.locator('details[data-filters] summary').click();
      await page.locator('form[aria-label="Filter cases"] select[name=order]').selectOption('amount');
      await page.waitForFunction(() => document.querySelector('tr[data-case-row]')?.querySelector('[data-amount]')?.dataset.amount === '3900.00');
      const amounts = await rows.evaluateAll((trs) => trs.map((tr: any) => Number(tr.querySelector('[data-amount]').dataset.amount)));
      t.same(
        amounts,
        [...amounts].sort((a, b) => b - a),
        `${width}: by amount, the largest first`,
      );
      await page.locator('.env-switch button[data-env=sandbox]').click();
      await page.locator(`tr[data-case-row="${sandraCase.id}"]`).waitFor();
      t.equal(await page.locator(`tr[data-case-row="${sandraCase.id}"] [data-env-mark=sandbox]`).count(), 1, `${width}: the sandbox case, marked`);
      t.equal(await page.locator(`tr[data-case-row="${brunoCase.id}"]`).count(), 0, 'and no production case');
      t.match(page.url(), /environment=sandbox/, 'kept in the address');
      t.ok(await fits(page), `${width}: fits the screen`);
      await page.context().close();
    }
  });

  t.test('3: dismissing a case that holds payouts takes a second person, with a reason', async (t) => {
    const clara = await signedIn(people.clara, 1280);
    await clara.goto(`${stack.adminUrl}/aml?case=${brunoCase.id}`);
    const form = clara.locator('form.decide').last();
    await form.waitFor();
    await form.locator('select[name=status]').selectOption('dismissed');
    t.match(await clara.locator('[data-four-eyes=dismiss]').textContent(), /taken under review by one person and dismissed, with a reason, by another/);
    t.ok(await form.getByRole('button', { name: 'Record decision' }).isDisabled(), 'not straight from open');
    await form.locator('select[name=status]').selectOption('under_review');
    await form.locator('input[name=reason]').fill('payslips asked for');
    await form.getByRole('button', { name: 'Record decision' }).click();
    await clara.locator('article[data-case] h2 small', { hasText: 'Under review' }).waitFor();
    await clara.locator('form.decide select[name=status]').last().selectOption('dismissed');
    t.match(await clara.locator('[data-four-eyes=dismiss]').textContent(), /you took this case under review, so another person dismisses it/);
    // Refused by the API too (the page only said so first).
    expected.push([`/admin/aml/cases/${brunoCase.id}/decision`, 403]);
    const refused = await clara.evaluate(async (id) => {
      const s: any = await (await fetch('/console/session')).json();
      const res = await fetch(`/admin/aml/cases/${id}/decision`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': s.csrfToken },
        body: JSON.stringify({ status: 'dismissed', reason: 'salary' }),
      });
      return [res.status, ((await res.json()) as any).error.code];
    }, brunoCase.id);
    t.same(refused, [403, 'FOUR_EYES_REQUIRED']);
    await clara.context().close();
    const diego = await signedIn(people.diego, 390);
    await diego.goto(`${stack.adminUrl}/aml?case=${brunoCase.id}`);
    const second = diego.locator('form.decide').last();
    await second.waitFor();
    await second.locator('select[name=status]').selectOption('dismissed');
    t.equal(await diego.locator('[data-four-eyes=dismiss]').count(), 0, 'the second person is offered the dismissal');
    await second.locator('input[name=reason]').fill('salary, documented by payslips');
    await second.getByRole('button', { name: 'Record decision' }).click();
    await diego.locator('article[data-case] h2 small', { hasText: 'Dismissed' }).waitFor();
    t.ok(await reachable(diego, 'main'), '390: every button reachable');
    await diego.context().close();
  });

  t.test('3: the COS to file names the player, the amount and the deadline', async (t) => {
    t.equal((await stack.admin('POST', `/admin/aml/cases/${carlaCase.id}/decision`, { status: 'under_review', reason: 'look' }, 'rev')).status, 200);
    t.equal((await stack.admin('POST', `/admin/aml/cases/${carlaCase.id}/report-decision`, { reason: 'report it' }, 'dec')).status, 200);
    for (const width of [1280, 390]) {
      const page = await signedIn(people.clara, width);
      await page.goto(`${stack.adminUrl}/aml?view=cos`);
      const row = page.locator(`tr[data-cos-row="${carlaCase.id}"]`);
      await row.waitFor();
      const text = plain(await row.textContent());
      t.match(text, /Carla Dias/, `${width}: the player`);
      t.match(text, /R\$ 130,00/, 'the amount');
      t.match(text, /by the end of \d{2}\/\d{2}\/\d{4} Brasília/, 'the deadline as people say it');
      t.match(await row.locator('[data-due] time').getAttribute('title'), /UTC$/, 'the UTC time on hover');
      t.ok(await fits(page), `${width}: fits`);
      await page.context().close();
    }
  });

  t.test('1 and 7: the withdrawal queue in one request, production apart, deliberate decisions', async (t) => {
    const fatima = await signedIn(people.fatima, 1280);
    const before = adminRequests.length;
    await fatima.goto(`${stack.adminUrl}/withdrawals`);
    await fatima.locator(`article[data-withdrawal="${ana.withdrawal}"]`).waitFor();
    await fatima.waitForLoadState('networkidle');
    const made = adminRequests.slice(before);
    t.equal(made.filter((u) => u.startsWith('/admin/withdrawal-queue')).length, 1, 'one request for the page');
    t.same(
      made.filter((u) => /^\/admin\/(players|withdrawals\?)/.test(u)),
      [],
      'no request per card',
    );
    t.equal(await fatima.locator(`article[data-withdrawal="${sandraOut}"]`).count(), 0, "the sandbox's withdrawal is not in production's queue");
    const card = fatima.locator(`article[data-withdrawal="${ana.withdrawal}"]`);
    t.match(
      plain(await card.textContent()),
      /R\$ 200,00.*Ana Souza.*Balance R\$ 1\.000,00, withdrawable R\$ 800,00/,
      'the amount, the player by name, the balance',
    );
    await card.getByRole('button', { name: 'Approve' }).click();
    const confirm = card.locator('form[data-confirm=approve]');
    t.match(plain(await confirm.textContent()), /Approve R\$ 200,00 to Ana Souza\?/, 'the confirmation names the amount and the player');
    await confirm.getByRole('button', { name: 'Yes, approve' }).click();
    await card.waitFor({ state: 'detached' }); // approved: out of the queue under review
    await fatima.locator('.toolbar button[data-status=approved]').click();
    const approved = fatima.locator(`article[data-withdrawal="${ana.withdrawal}"]`);
    await approved.waitFor();
    t.ok(await approved.getByRole('button', { name: 'Pay' }).isDisabled(), 'four eyes: the approver does not pay');
    // Reject: a reason, or nothing.
    await fatima.locator('.toolbar button[data-status=under_review]').click();
    const carlaCard = fatima.locator(`article[data-withdrawal="${carla.withdrawal}"]`);
    await carlaCard.getByRole('button', { name: 'Reject' }).click();
    const reject = carlaCard.locator('form[data-confirm=reject]');
    t.match(plain(await reject.textContent()), /Reject R\$ 30,00 to Carla Dias\?/);
    await reject.getByRole('button', { name: 'Yes, reject' }).click();
    t.equal(await reject.locator('input[name=reason]:invalid').count(), 1, 'no reason: the form does not send');
    await reject.locator('input[name=reason]').fill('the PIX key is a third party’s');
    await reject.getByRole('button', { name: 'Yes, reject' }).click();
    await carlaCard.waitFor({ state: 'detached' });
    const audit = await waitFor(async () => (await stack.admin('GET', `/admin/audit?target=withdrawal:${carla.withdrawal}`)).body.data?.[0], {
      what: "the rejection's audit row",
    });
    t.match(
      audit,
      { actor: `user:${people.fatima.email}`, after: { status: 'rejected', reason: 'the PIX key is a third party’s' } },
      'the reason kept with the decision',
    );
    await fatima.context().close();
    // A second person pays, at 390 px, every button reachable.
    const gil = await signedIn(people.gil, 390);
    await gil.goto(`${stack.adminUrl}/withdrawals?status=approved`);
    const toPay = gil.locator(`article[data-withdrawal="${ana.withdrawal}"]`);
    await toPay.waitFor();
    t.ok(await reachable(gil, 'main'), '390: every button reachable');
    await toPay.getByRole('button', { name: 'Pay' }).click();
    t.match(plain(await toPay.locator('form[data-confirm=pay]').textContent()), /Pay R\$ 200,00 to Ana Souza\?/);
    t.ok(await reachable(gil, `article[data-withdrawal="${ana.withdrawal}"]`), 'the confirmation within the screen');
    await toPay.getByRole('button', { name: 'Yes, pay' }).click();
    await toPay.waitFor({ state: 'detached' });
    t.equal((await op.productionClient.get(`/players/${ana.id}/wallet`)).body.available, '800.00', 'paid once');
    await gil.locator('.env-switch button[data-env=sandbox]').click();
    await gil.locator('.toolbar button[data-status=under_review]').click();
    await gil.locator(`article[data-withdrawal="${sandraOut}"] [data-env-mark=sandbox]`).waitFor();
    t.ok(await fits(gil), '390: fits');
    await gil.context().close();
  });

  t.test('1: the KYC queue and the player search, each environment apart', async (t) => {
    for (const width of [1280, 390]) {
      const page = await signedIn(people.clara, width);
      await page.goto(`${stack.adminUrl}/kyc`);
      await page.locator(`article[data-player="${waitingLive}"]`).waitFor();
      t.equal(await page.locator(`article[data-player="${waitingTest}"]`).count(), 0, `${width}: production's queue only`);
      await page.locator('.env-switch button[data-env=sandbox]').click();
      await page.locator(`article[data-player="${waitingTest}"] [data-env-mark=sandbox]`).waitFor();
      await page.goto(`${stack.adminUrl}/players?q=Espera`);
      await page.locator(`tr[data-player-row="${waitingLive}"]`).waitFor();
      t.equal(await page.locator(`tr[data-player-row="${waitingTest}"]`).count(), 0, `${width}: a name, production's players`);
      t.ok(await fits(page), `${width}: fits`);
      await page.context().close();
    }
  });

  t.test('2 and 4: regulator files for a picked brand; SIGAP lateness and Send once accepted', async (t) => {
    for (const width of [1280, 390]) {
      const page = await signedIn(people.clara, width);
      await page.goto(`${stack.adminUrl}/reports`);
      // Kept files: production's by default, each brand by name.
      await page.locator(`tr[data-file="${op.production.brandId}/${yesterday}"]`).waitFor();
      t.equal(await page.locator(`tr[data-file="${op.sandbox.brandId}/${yesterday}"]`).count(), 0, `${width}: production's files`);
      await page.locator(`tr[data-file="${op.production.brandId}/${yesterday}"] [data-brand]`).waitFor(); // the brands' names, read once per page
      t.match(plain(await page.locator(`tr[data-file="${op.production.brandId}/${yesterday}"]`).textContent()), /Rio Bets/, 'the brand by name');
      t.ok(await fits(page), `${width}: fits`);
      await page.context().close();
    }
    const page = await signedIn(people.clara, 1280);
    await page.goto(`${stack.adminUrl}/reports`);
    // A day's file: the brand picked by its operator's name, never typed.
    const check = page.locator('form[aria-label="Check a day"]');
    await check.locator('.picker input[type=search]').fill('rio');
    await check.locator(`button[data-choice="${op.sandbox.brandId}"]`).click();
    await check.locator('input[name=date]').fill(yesterday);
    await check.getByRole('button', { name: 'Make or check' }).click();
    await page.locator(`article[data-file="${op.sandbox.brandId}/${yesterday}"]`).waitFor();
    // Typed by hand at the API: refused, nothing kept.
    expected.push(['/admin/reports/daily/files/Demo%20Operator', 404]);
    t.same(
      await page.evaluate(async (d) => {
        const res = await fetch(`/admin/reports/daily/files/${encodeURIComponent('Demo Operator')}/${d}`);
        return [res.status, ((await res.json()) as any).error.code];
      }, yesterday),
      [404, 'BRAND_NOT_FOUND'],
      'a brand typed by hand: refused',
    );
    // SIGAP: the sandbox brand's yesterday, sent now (the simulator accepts it): on time before 06:00, late after.
    const sigap = page.locator('form[aria-label="SIGAP day"]');
    await sigap.locator('.picker input[type=search]').fill('Rio Bets');
    await sigap.locator(`button[data-choice="${op.sandbox.brandId}"]`).click();
    await sigap.locator('input[name=date]').fill(yesterday);
    await sigap.getByRole('button', { name: 'Make or show' }).click();
    const day = page.locator(`article[data-sigap-day="${op.sandbox.brandId}/${yesterday}"]`);
    await day.waitFor();
    await day.getByRole('button', { name: 'Send to SIGAP' }).click();
    await day.locator('small[data-accepted=true]').waitFor();
    const deadline = Date.parse((await stack.admin('GET', `/admin/reports/sigap/files/${op.sandbox.brandId}/${yesterday}`)).body.deadline);
    const expectedMark = Date.now() > deadline ? 'late' : 'on_time';
    t.equal(
      await page.locator(`article[data-sigap-day="${op.sandbox.brandId}/${yesterday}"]`).getAttribute('data-timeliness'),
      expectedMark,
      `the day marked ${expectedMark}`,
    );
    t.ok(await day.getByRole('button', { name: 'Send to SIGAP' }).isDisabled(), 'Send disabled once accepted');
    t.match(await day.locator('[data-send-blocked]').textContent(), /SIGAP accepted every file of this day/);
    const audits = async () =>
      (await stack.admin('GET', `/admin/audit?target=${encodeURIComponent(`sigap_day:${op.sandbox.brandId}/${yesterday}`)}`)).body.data.length;
    await waitFor(async () => (await audits()) === 1, { what: "the sending's audit row" });
    expected.push([`/admin/reports/sigap/files/${op.sandbox.brandId}/${yesterday}/submit`, 409]);
    const again = await page.evaluate(
      async ([b, d]) => {
        const s: any = await (await fetch('/console/session')).json();
        const res = await fetch(`/admin/reports/sigap/files/${b}/${d}/submit`, { method: 'POST', headers: { 'x-csrf-token': s.csrfToken } });
        return [res.status, ((await res.json()) as any).error.code];
      },
      [op.sandbox.brandId, yesterday],
    );
    t.same(again, [409, 'SIGAP_DAY_ACCEPTED'], 'the API refuses a second sending');
    // The overdue filter: production's older day, never sent.
    await page.locator('.env-switch button[data-env=production]').click();
    const filter = page.locator('form[aria-label="Filter SIGAP files"]');
    await filter.locator('select[name=timeliness]').selectOption('overdue');
    // The older day only: a job's run may keep newer days' files, enough to fill the first page.
    await filter.locator('input[name=from]').fill(older);
    await filter.locator('input[name=to]').fill(older);
    await filter.getByRole('button', { name: 'List' }).click();
    await page.waitForFunction(
      (d) =>
        [...document.querySelectorAll('section[aria-label="SIGAP files"] tr[data-sigap-file]')].some((tr: any) => tr.querySelector(`time[datetime="${d}"]`)),
      older,
    );
    const marks = await page
      .locator('section[aria-label="SIGAP files"] table.sigap-files')
      .last()
      .locator('tr[data-sigap-file]')
      .evaluateAll((trs) => trs.map((tr: any) => tr.dataset.timeliness));
    t.ok(marks.length >= 5 && marks.every((m) => m === 'overdue'), 'the overdue filter: the older day, not accepted');
    // A finance person at 390 px reads the day and is offered no sending.
    await page.context().close();
    const fin = await signedIn(people.fatima, 390);
    await fin.goto(`${stack.adminUrl}/reports`);
    await fin.locator('form[aria-label="SIGAP day"] .picker input[type=search]').fill('rio');
    await fin.locator(`form[aria-label="SIGAP day"] button[data-choice="${op.sandbox.brandId}"]`).click();
    await fin.locator('form[aria-label="SIGAP day"] input[name=date]').fill(yesterday);
    await fin.locator('form[aria-label="SIGAP day"]').getByRole('button', { name: 'Make or show' }).click();
    await fin.locator(`article[data-sigap-day="${op.sandbox.brandId}/${yesterday}"]`).waitFor();
    t.equal(await fin.getByRole('button', { name: 'Send to SIGAP' }).count(), 0, 'finance reads, does not send');
    t.ok(await fits(fin), '390: fits');
    await fin.context().close();
  });

  t.test('5: provider money for finance; the admin changes providers', async (t) => {
    // Sandbox play on the built-in provider: the sandbox brand's clearing balance with it.
    const session = await sbx.post(`/players/${sandra}/game-sessions`, { gameId: 'gm_p_sandbox_slot' });
    t.equal(session.status, 201);
    const landing = await fetch(session.body.gameUrl, { redirect: 'manual' });
    const spin = await fetch(`${new URL(landing.headers.get('location')!, session.body.gameUrl).href}/spin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '10.00', outcome: 'lose' }),
    });
    t.equal(spin.status, 200, 'a lost spin');
    // The API finance reads (GET /admin/providers/{id}/clearing): the brand owes the provider what was lost.
    const clearingApi = await fetch(`${stack.adminUrl}/admin/providers/prv_sandbox/clearing`, {
      headers: { cookie: people.fatima.cookie },
    });
    t.equal(clearingApi.status, 200, 'finance reads it');
    t.match(
      ((await clearingApi.json()) as any).data.find((c: any) => c.brandId === op.sandbox.brandId),
      { environment: 'sandbox', currency: 'BRL', balance: '10.00', position: 'owes' },
      'the clearing balance at the API: the sandbox brand owes 10.00',
    );
    for (const width of [1280, 390]) {
      const page = await signedIn(people.fatima, width);
      await page.goto(`${stack.adminUrl}/providers`);
      await page.locator('form[aria-label="Go to a provider"] .picker input[type=search]').fill('sandbox');
      await page.locator('button[data-choice=prv_sandbox]').click();
      const card = page.locator('article[data-provider=prv_sandbox]');
      await card.locator('details[open]').waitFor();
      t.equal(await page.locator('form[aria-label="New provider"]').count(), 0, `${width}: no New provider form for finance`);
      t.equal(await card.getByRole('button', { name: 'Disable' }).count(), 0, 'nothing to change');
      const clearing = card.locator(`tr[data-clearing="${op.sandbox.brandId}/BRL"]`);
      await clearing.waitFor();
      t.same(
        [await clearing.getAttribute('data-position'), plain(await clearing.locator('[data-balance]').textContent())],
        ['owes', 'R$ 10,00'],
        'the brand owes the provider what the player lost',
      );
      await clearing.locator(`[data-brand="${op.sandbox.brandId}"]`).waitFor(); // the brands' names, read once per page
      t.equal(await clearing.locator(`[data-brand="${op.sandbox.brandId}"] + [data-env-mark=sandbox]`).count(), 1, 'the brand by name, marked Sandbox once');
      t.notMatch(plain(await clearing.textContent()), /\(Sandbox\)/, 'not "(Sandbox)" beside the mark');
      const dayRow = card.locator(`tr[data-provider-day="${op.sandbox.brandId}/BRL"]`);
      await dayRow.waitFor({ timeout: 5000 }).catch(async () => {
        // The report shows yesterday first: today's play is on today's report.
        await card.locator('section[aria-label="Daily report"] input[name=date]').fill(dayIn(0));
        await card.locator('section[aria-label="Daily report"]').getByRole('button', { name: 'Show' }).click();
        await dayRow.waitFor();
      });
      t.match(await dayRow.locator('time').first().textContent(), /Brasília/, "the brand's day, in Brasília");
      t.ok(await fits(page), `${width}: fits`);
      await page.goto(`${stack.adminUrl}/unclaimed`);
      await page.locator('main p.empty, main table.unclaimed').first().waitFor();
      await page.goto(`${stack.adminUrl}/fund-transfers`);
      await page.locator('main p.empty, main table.transfers').first().waitFor();
      await page.context().close();
    }
    const admin = await signedIn(people.ada, 1280);
    await admin.goto(`${stack.adminUrl}/providers`);
    await admin.locator('form[aria-label="New provider"]').waitFor();
    t.pass('the admin is offered the New provider form');
    await admin.context().close();
  });

  t.test('6: one clock and one language', async (t) => {
    const page = await signedIn(people.clara, 1280, 'pt');
    await page.goto(`${stack.adminUrl}/kyc`);
    const card = page.locator(`article[data-player="${waitingLive}"]`);
    await card.waitFor();
    const text = plain(await card.textContent());
    t.match(text, /Em análise/, 'a KYC status in Portuguese');
    t.notMatch(text, /em_analise/, 'never the raw code');
    const when = card.locator('time').first();
    t.match(await when.textContent(), /\d{2}\/\d{2}\/\d{4},? \d{2}:\d{2} Brasília/, 'a time in Brasília');
    t.match(await when.getAttribute('title'), /UTC$/, 'the UTC time on hover');
    await page.goto(`${stack.adminUrl}/aml`);
    await page.locator(`tr[data-case-row="${anaCase.id}"]`).waitFor();
    t.match(plain(await page.locator(`tr[data-case-row="${anaCase.id}"]`).textContent()), /Médio.*Entrada e saída sem jogo|Ana Souza/, 'labels in Portuguese');
    // A player whose status a self-exclusion holds: its explanation has no API path.
    t.equal((await op.productionClient.post(`/players/${waitingLive}/self-exclusion`, { indefinite: true }, key())).status, 200);
    await page.goto(`${stack.adminUrl}/players?id=${waitingLive}`);
    const held = page.locator('[data-held-by]');
    await held.waitFor();
    t.notMatch(await held.textContent(), /\/admin\/|POST |docs\/|\.md/, 'no API path or file name in the explanation');
    t.ok(await fits(page), 'fits');
    await page.context().close();
  });

  t.test('6: the admin pages in Portuguese: no English label, no raw code, calendar days as the locale writes them', async (t) => {
    const text = async (page: Page, selector: string) => {
      await page.locator(selector).first().waitFor();
      return plain(await page.locator(selector).first().textContent());
    };
    // Yesterday's production file, as pt-BR writes a day (25/11/2026).
    const [y, m, d] = yesterday.split('-');
    for (const width of [1280, 390]) {
      const page = await signedIn(people.ada, width, 'pt');
      // Operators: the compliance profile, the keys and the forms.
      await page.goto(`${stack.adminUrl}/operators`);
      const operator = `article[data-operator="${op.operator.id}"]`;
      await page.locator(`${operator} tr[data-credential]`).first().waitFor();
      const opText = await text(page, operator);
      t.match(opText, /Ativo.*Perfil de compliance.*Chaves de API/, `${width}: the operator in Portuguese`);
      t.match(opText, /Trocar a chave de Sandbox/, `${width}: its buttons too`);
      t.notMatch(
        opText,
        /API keys|Compliance profile|Rate limit|Allowed IPs|Rotate|Revoke|Overlap|Environment|\bSave\b|\bsince\b/,
        `${width}: no English label`,
      );
      t.notMatch(opText, /\bactive\b|\bexpiring\b|\bsandbox\b|\bproduction\b/, `${width}: no raw code`);
      t.equal(await page.locator('form[aria-label="Novo operador"]').count(), 1, `${width}: the New operator form in Portuguese`);
      // Team: people and tokens.
      await page.goto(`${stack.adminUrl}/team`);
      await page.locator(`tr[data-user="${people.gil.email}"]`).waitFor();
      const team = await text(page, 'section[data-section=people]');
      t.match(team, /Pessoas.*Função.*Financeiro.*Desativar/, `${width}: the people in Portuguese`);
      t.notMatch(team, /People|Reset password|Disable|Two-factor|\bAdd\b|\bRole\b/, `${width}: no English label`);
      // Who confirmed each person is named as people are (a stand-in's label, `second-admin`, is a name, not a code).
      const withoutNames = team.replace(/[\w.-]+ \(substituto\)/g, '');
      t.notMatch(withoutNames, /\b(active|finance|compliance|admin|on|off)\b/, `${width}: no raw code`);
      const tokens = await text(page, 'section[data-section=tokens]');
      t.match(tokens, /Tokens de API.*Emitir/, `${width}: the tokens in Portuguese`);
      t.notMatch(tokens, /API tokens|Bearer tokens|\bIssue\b|No token yet|Last used/, `${width}: no English label`);
      // Providers: the admin's forms.
      await page.goto(`${stack.adminUrl}/providers`);
      const create = await text(page, 'form[aria-label="Novo provedor"]');
      t.match(create, /Novo provedor.*Tipo.*cassino.*Protocolo.*Criar/, `${width}: the New provider form in Portuguese`);
      t.notMatch(create, /New provider|Kind|\bProtocol\b|Create|sportsbook/, `${width}: no English label`);
      const card = 'article[data-provider=prv_sandbox]';
      await page.locator(`${card} details[open]`).waitFor();
      const head = await text(page, `${card} summary`);
      t.match(head, /cassino.*protocolo.*ativo.*desde/, `${width}: the provider's kind and status in Portuguese`);
      t.notMatch(head, /\bcasino\b|\benabled\b|\bsince\b/, `${width}: no raw code`);
      // Each section loads on its own: wait until each shows its table, or says it has none (on a phone tables
      // read as cards, their headers hidden: the table itself, which comes with the answer).
      for (const section of ['Chaves do provedor', 'Operadores atendidos', 'Jogos do provedor'])
        await page.locator(`${card} section[aria-label="${section}"]`).locator('table, p[data-empty]').first().waitFor({ state: 'attached' });
      const admin = plain(
        (
          await page
            .locator(
              `${card} section[aria-label="Chaves do provedor"], ${card} section[aria-label="Operadores atendidos"], ${card} section[aria-label="Jogos do provedor"]`,
            )
            .allTextContents()
        ).join(' '),
      );
      t.match(
        admin,
        /Chaves.*Emitir chave de Sandbox.*Operadores aos quais.*Oferecido.*Jogos.*Código do jogo/,
        `${width}: its keys, operators and games in Portuguese`,
      );
      t.notMatch(
        admin,
        /Keys|Issue|Operators its games|Offered|\bOffer\b|Withdraw|Game code|Category|Enabled|\byes\b|\bno\b|\bactive\b/,
        `${width}: no English label or raw code`,
      );
      t.equal(await page.locator(`${card} form[aria-label="Tempo limite do lançamento (ms)"]`).count(), 1, `${width}: the settings in Portuguese`);
      // A player's registration and marketing.
      await page.goto(`${stack.adminUrl}/players?id=${ana.id}`);
      const file = `article[data-player="${ana.id}"]`;
      await page.locator(`${file} [data-registration]`).waitFor();
      const profile = await text(page, `${file} dl.profile`);
      t.match(profile, /Gênero.*IP do cadastro.*Endereço.*Cadastro.*Marketing.*Termos aceitos/, `${width}: the registration in Portuguese`);
      t.notMatch(profile, /Gender|Sign-up IP|Address|Registration|Terms accepted/, `${width}: no English label`);
      const registration = plain(await page.locator(`${file} [data-registration]`).textContent());
      t.match(registration, /^(completo|incompleto|não exigido)/, `${width}: whether it is complete, in Portuguese`);
      t.notMatch(registration, /complete|missing|signupIp|refused|not required/, `${width}: no English, no raw code`);
      const marketing = plain(await page.locator(`${file} [data-marketing]`).textContent());
      t.match(marketing, /consentimento/, `${width}: marketing in Portuguese`);
      t.notMatch(marketing, /consent given|no consent|allowed|blocked|self_exclusion|\boff\b/, `${width}: no English, no raw code`);
      // Her responsible gaming: the limits, pause, self-exclusion and history as words.
      const rgSection = `${file} section[aria-label="Responsible gaming"]`;
      await page.locator(`${rgSection} td[data-kind]`).first().waitFor();
      const rgText = await text(page, rgSection);
      t.match(rgText, /Jogo responsável.*Pausa: nenhuma.*Autoexclusão: nenhuma.*Histórico.*limite/, `${width}: responsible gaming in Portuguese`);
      t.notMatch(rgText, /\bPause\b|Self-exclusion|\bnone\b|History|self_exclusion|\bteam\b|\bsystem\b/, `${width}: no English, no raw code`);
      // The regulator files: a calendar day as the locale writes it.
      await page.goto(`${stack.adminUrl}/reports`);
      const row = `tr[data-file="${op.production.brandId}/${yesterday}"]`;
      await page.locator(`${row} [data-brand]`).waitFor();
      t.equal(plain(await page.locator(`${row} td[data-date]`).textContent()), `${d}/${m}/${y}`, `${width}: the day as pt-BR writes it`);
      const fileRow = plain(await page.locator(row).textContent()).replace(/\S+\.csv/g, '');
      t.notMatch(fileRow, /\d{4}-\d{2}-\d{2}/, `${width}: no ISO day`);
      t.notMatch(fileRow, /\bties\b|not checked|unknown|\bprofile\b|\bbettors\b|status changes/, `${width}: no English label or raw code`);
      t.ok(await fits(page), `${width}: fits`);
      await page.context().close();
    }
  });

  t.test('7: the Team page at 390 px: every button reachable', async (t) => {
    const page = await signedIn(people.ada, 390);
    await page.goto(`${stack.adminUrl}/team`);
    await page.locator(`tr[data-user="${people.gil.email}"] button`, { hasText: 'Disable' }).waitFor();
    t.ok(await reachable(page, 'section[aria-label=People]'), "each person's Reset and Disable inside the screen");
    t.ok(await fits(page), 'fits');
    await page.context().close();
  });

  t.test('no script error, no unexpected refusal', async (t) => {
    t.same(problems, [], problems.join(' | ') || 'none');
  });
});
