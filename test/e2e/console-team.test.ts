// The console as our team works it (issue #42), in Chromium against the real processes, at 1280 px
// and on a 390 px phone: a signed-out visit logs no failed request; an admin manages the team on
// /team (a person added, their one-time password shown once and good for a sign-in; a password
// reset; a service token issued, shown once, working, then revoked; no personal token for someone
// else, issue #56: a person makes her own on /account, shown once there, and the admin sees and
// revokes it on /team; a person disabled); the two-factor setup draws the otpauth URI as a QR code,
// and once it is on a personal token takes a fresh code; and the withdrawal queue says why Pay
// cannot succeed before the click: an AML review holding the player's payouts, or four eyes for the
// person who approved.
import t, { type Test } from 'tap';
import qrcode from 'qrcode-generator';
import type { BrowserContext, Page } from 'playwright-core';
import { waitFor } from '@bo/service-kit/testing';
import { ADMIN_TOKEN, startStack, uniq, REGISTRATION_DATA } from './support/stack.ts';
import { activatedPerson, totpCode } from './support/people.ts';
import { launchChromium, phoneHeight, signIn as signInThroughForm, watchProblems } from './support/console-browser.ts';

const WIDTHS = [1280, 390] as const;
const key = () => ({ 'idempotency-key': uniq('k') });
// A passphrase of each person's own (the policy refuses one with the e-mail or its name part in it).
const CHOSEN = (email: string) => `quiet harbour lantern ${email.length} seventy-two`;
// What the page functions below use of the DOM (the tests are typed without the DOM's library).
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

/** The SVG path the console draws for `text` (account-forms.js QrCode), made here by the same library. */
function expectedQrPath(text: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  let d = '';
  const n = qr.getModuleCount();
  for (let row = 0; row < n; row++) for (let col = 0; col < n; col++) if (qr.isDark(row, col)) d += `M${col + 4} ${row + 4}h1v1h-1z`;
  return d;
}

t.test('console: team, QR code, holds before the click, signed-out visits', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const browser = await launchChromium(t);
  const problems: string[] = [];

  async function newPage(width: number): Promise<Page> {
    const context: BrowserContext = await browser.newContext({ viewport: { width, height: phoneHeight(width) } });
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${width} ${page.url()}: ${m.text()}`);
    });
    watchProblems(page, problems, { label: `${width}`, method: true });
    return page;
  }

  /** Signs in through the form; a one-time password goes through /setup first. */
  const signIn = (page: Page, email: string, password: string, oneTime: boolean) =>
    signInThroughForm(page, stack.adminUrl, { email, password, chosen: oneTime ? CHOSEN(email) : undefined });

  const person = async (email: string, role: string) => {
    const created = await stack.admin('POST', '/admin/users', { email, role });
    t.equal(created.status, 201, `${email} (${role})`);
    return created.body as { user: { id: string; email: string }; password: string };
  };
  const admin = await person('team-admin@ourteam.example', 'admin');
  const ana = await person('ana.finance@ourteam.example', 'finance');
  const bia = await person('bia.finance@ourteam.example', 'finance');
  /** People who chose their own password already: their next sign-in skips /setup. */
  const setUp = new Set<string>();
  const signInPerson = async (page: Page, who: { user: { email: string }; password: string }) => {
    const first = !setUp.has(who.user.email);
    await signIn(page, who.user.email, first ? who.password : CHOSEN(who.user.email), first);
    setUp.add(who.user.email);
  };
  const fits = async (page: Page) => page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth }));

  /** Ana makes her own personal token on her Account page at `width`: its secret, shown once there. */
  async function ownToken(t: Test, width: number, name: string): Promise<string> {
    const page = await newPage(width);
    await signInPerson(page, ana);
    await page.goto(`${stack.adminUrl}/account`);
    const form = page.locator('form[aria-label="Make a personal token"]');
    t.equal(await form.locator('input[name=totp]').count(), 0, 'no two-factor sign-in: no code asked');
    await form.locator('input[name=name]').fill(name);
    await form.getByRole('button', { name: 'Make token' }).click();
    const secret = (await page.locator('[data-shown-once=token] code.secret').textContent()) ?? '';
    t.match(secret, /^bo_tok_/, 'her token, shown once on her own page');
    await page.locator(`section[aria-label="Your API tokens"] tr[data-token="${name}"][data-status=active]`, { hasText: 'finance' }).waitFor();
    const wide = await fits(page);
    t.ok(wide.page <= wide.screen, `the account page fits ${width} px (page ${wide.page} px, screen ${wide.screen} px)`);
    await page.context().close();
    return secret;
  }

  t.test('a signed-out visit logs no failed request', async (t) => {
    const before = problems.length;
    const page = await newPage(1280);
    await page.goto(`${stack.adminUrl}/`);
    await page.locator('#sign-in').waitFor();
    await page.goto(`${stack.adminUrl}/withdrawals`);
    await page.waitForURL(/\/\?next=%2Fwithdrawals/);
    await page.locator('#sign-in').waitFor();
    t.same(problems.slice(before), [], 'no 4xx, no error in the browser console');
    await page.context().close();
  });

  let adminSetUp = false;
  for (const width of WIDTHS) {
    t.test(`an admin manages the team at ${width} px`, async (t) => {
      const page = await newPage(width);
      await signIn(page, admin.user.email, adminSetUp ? CHOSEN(admin.user.email) : admin.password, !adminSetUp);
      adminSetUp = true;
      page.on('dialog', (d) => void d.accept());
      await page.goto(`${stack.adminUrl}/team`);
      await page.locator('nav a[aria-current=page]', { hasText: 'Team' }).waitFor();

      // A person added: the one-time password shown once, in the page, and good for a sign-in.
      const email = `new.${width}@ourteam.example`;
      const add = page.locator('form[aria-label="Add a person"]');
      await add.locator('input[name=email]').fill(email);
      await add.locator('select[name=role]').selectOption('support');
      await add.getByRole('button', { name: 'Add' }).click();
      const shown = page.locator('[data-shown-once=password] code.secret');
      await shown.waitFor();
      const oneTime = (await shown.textContent()) ?? '';
      await page.locator(`tr[data-user="${email}"][data-status=active]`).waitFor();
      const signInWith = (password: string) =>
        fetch(`${stack.adminUrl}/console/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password }),
        });
      t.equal((await signInWith(oneTime)).status, 200, 'the one-time password shown in the page signs its person in');

      // A password reset from the page: a new one-time password, shown once.
      await page.locator(`tr[data-user="${email}"]`).getByRole('button', { name: 'Reset password' }).click();
      await page.locator('[data-shown-once=password]', { hasText: `new one-time password of ${email}` }).waitFor();
      const reset = (await shown.textContent()) ?? '';
      t.not(reset, oneTime, 'another one-time password');
      t.equal((await signInWith(reset)).status, 200, 'the reset one signs in');

      // A service token issued, shown once, working on the admin API; revoked, refused.
      const name = `bot-${width}`;
      const issue = page.locator('form[aria-label="Issue a service token"]');
      await issue.locator('input[name=name]').fill(name);
      await issue.locator('select[name=role]').selectOption('support');
      await issue.getByRole('button', { name: 'Issue' }).click();
      const secret = (await page.locator('[data-shown-once=token] code.secret').textContent()) ?? '';
      const asToken = () => fetch(`${stack.adminUrl}/admin/operators`, { headers: { authorization: `Bearer ${secret}` } });
      t.equal((await asToken()).status, 200, "the token's secret works on the admin API");
      // A service token takes no decision; a personal one acts as its person and may.
      const decide = (bearer: string) =>
        fetch(`${stack.adminUrl}/admin/withdrawals/wd_nonexistent/decision`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify({ decision: 'approve' }),
        }).then(async (r) => ((await r.json()) as { error?: { code: string } }).error?.code);
      t.equal(await decide(secret), 'FORBIDDEN_ROLE', 'a support service token decides nothing');
      // No personal token for someone else (issue #56): Ana makes hers on her own Account page.
      t.equal(await issue.locator('select[name=owner]').count(), 0, 'the team page offers no personal token for another person');
      const personal = `ana-${width}`;
      const mine = await ownToken(t, width, personal);
      await page.reload();
      await page.locator(`tr[data-token="${personal}"]`, { hasText: ana.user.email }).waitFor();
      t.not(mine, secret, 'another secret, shown once');
      t.match(await page.locator(`tr[data-token="${personal}"]`).textContent(), /finance/, "with its person's role");
      t.equal(await decide(mine), 'WITHDRAWAL_NOT_FOUND', "the personal token acts as its person: a finance decision goes through to the withdrawal's lookup");
      await page.locator(`tr[data-token="${personal}"]`).getByRole('button', { name: 'Revoke' }).click();
      await page.locator(`tr[data-token="${personal}"][data-status=revoked]`).waitFor();
      await page.locator(`tr[data-token="${name}"]`).getByRole('button', { name: 'Revoke' }).click();
      await page.locator(`tr[data-token="${name}"][data-status=revoked]`).waitFor();
      t.equal((await asToken()).status, 401, 'revoked: refused');

      // An inspector (issue #69): a role the page offers; set up, she waits for two admins' confirmations
      // (ADMIN_TOKEN added her), and this admin's Confirm gives one of them.
      t.equal(await add.locator('select[name=role] option[value=regulator]').count(), 1, 'the regulator role is offered');
      const inspector = await activatedPerson(
        stack.adminUrl,
        { authorization: `Bearer ${ADMIN_TOKEN}` },
        { email: `insp.${width}@fazenda.example`, role: 'regulator', token: false, confirm: false },
      );
      const needed = ((await stack.admin('GET', '/admin/users')).body.data as { email: string; confirmationsNeeded: number }[]).find(
        (u) => u.email === inspector.email,
      )!.confirmationsNeeded;
      await page.reload();
      const row = page.locator(`tr[data-user="${inspector.email}"]`);
      await row.getByText(`awaits confirmation (${needed})`).waitFor();
      await row.getByRole('button', { name: 'Confirm' }).click();
      // The last confirmation needed gives her power and names who gave it; an earlier one leaves one fewer to give.
      await row.getByText(needed === 1 ? `confirmed by ${admin.user.email}` : `awaits confirmation (${needed - 1})`).waitFor();
      t.match(await row.textContent(), /Regulator \(read-only\)/, 'a confirmation given from the page, the role named');

      // Disabled: sign-ins refused.
      await page.locator(`tr[data-user="${email}"]`).getByRole('button', { name: 'Disable' }).click();
      await page.locator(`tr[data-user="${email}"][data-status=disabled]`).waitFor();
      t.equal((await signInWith(reset)).status, 401, 'a disabled person cannot sign in');

      const wide = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth }));
      t.ok(wide.page <= wide.screen, `the team page fits ${width} px (page ${wide.page} px, screen ${wide.screen} px)`);
      await page.context().close();
    });
  }

  t.test('turning br-spa off takes two people on /operators, and compliance is told on every page (issue #56)', async (t) => {
    const op = await stack.createOperator('Team Rules');
    const id = op.operator.id;
    t.equal((await stack.admin('PUT', `/admin/operators/${id}/compliance`, { profile: 'br-spa', reason: 'licensed in Brazil' })).status, 200);
    const carla = await person('carla.compliance@ourteam.example', 'compliance');

    // The admin asks, at 1280 px: a reason, a confirmation, then the change waits for a second person.
    const page = await newPage(1280);
    await signIn(page, admin.user.email, CHOSEN(admin.user.email), false);
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${stack.adminUrl}/operators#${id}`);
    const card = page.locator(`article[data-operator="${id}"] section[aria-label="Compliance profile"]`);
    await card.locator('[data-profile=br-spa]').waitFor();
    const form = card.locator('form[aria-label="Change the compliance profile"]');
    await form.locator('select[name=profile]').selectOption('off');
    await form.locator('input[name=reason]').fill('the operator left Brazil');
    await form.getByRole('button', { name: 'Save' }).click();
    const pending = card.locator('.notice[data-change]');
    await pending.waitFor();
    t.match(
      await pending.textContent(),
      /requested by team-admin@ourteam\.example .*the operator left Brazil.*waits for a second person/s,
      'who asked, why, and that it waits',
    );
    t.equal(await card.locator('[data-profile=br-spa]').count(), 1, 'the rules are still on');
    await pending.locator('input[name=decisionReason]').fill('I asked for it');
    t.ok(await pending.getByRole('button', { name: 'Confirm' }).isDisabled(), 'four eyes: her own request cannot be confirmed by her');
    t.match(await pending.locator('[data-reason=four-eyes]').textContent(), /another person confirms/);
    await page.reload();
    // The notice names the operator (its id on hover: issue #70).
    await page.locator(`aside.notices p[data-status=pending]:has([title="${id}"])`).waitFor();
    t.pass('the notice is on her pages too');
    const wide = await fits(page);
    t.ok(wide.page <= wide.screen, `the operators page fits 1280 px (page ${wide.page} px)`);
    await page.context().close();

    // Compliance, at 390 px: the notice on her first page, and the confirmation with her reason.
    const phone = await newPage(390);
    phone.on('dialog', (d) => void d.accept());
    await signIn(phone, carla.user.email, carla.password, true);
    const notice = phone.locator(`aside.notices p[data-status=pending]:has([title="${id}"])`);
    await notice.waitFor();
    t.match(await notice.textContent(), /Br-spa rules off requested.*the operator left Brazil/s, 'compliance is told before she looks for it');
    await notice.getByRole('link').click();
    const hers = phone.locator(`article[data-operator="${id}"] section[aria-label="Compliance profile"] .notice[data-change]`);
    await hers.waitFor();
    await hers.locator('input[name=decisionReason]').fill('checked with legal');
    await hers.getByRole('button', { name: 'Confirm' }).click();
    await phone.locator(`article[data-operator="${id}"] [data-profile=off]`).waitFor();
    t.equal((await stack.admin('GET', `/admin/operators/${id}/compliance`)).body.profile, 'off', 'a second person turned the rules off');
    await phone.reload();
    await phone.locator(`aside.notices p[data-status=confirmed]:has([title="${id}"])`).waitFor();
    t.match(
      await phone.locator(`aside.notices p[data-status=confirmed]:has([title="${id}"])`).textContent(),
      /turned off.*confirmed by carla\.compliance@ourteam\.example \(“checked with legal”\)/s,
      'the notice says who turned them off, and why',
    );
    const narrow = await fits(phone);
    t.ok(narrow.page <= narrow.screen, `the operators page fits 390 px (page ${narrow.page} px)`);
    await phone.context().close();
    const rows = await waitFor(
      async () => {
        const audit = (await stack.admin('GET', `/admin/audit?target=operator:${id}`)).body.data as { action: string; actor: string }[];
        const profile = audit.filter((r) => /Compliance/.test(r.action));
        return profile.length >= 3 ? profile : undefined;
      },
      { what: "the profile's audit rows" },
    );
    t.same(
      rows.map((r) => [r.action, r.actor]),
      [
        ['adminConfirmComplianceChange', 'user:carla.compliance@ourteam.example'],
        ['adminRequestComplianceChange', 'user:team-admin@ourteam.example'],
        ['adminSetCompliance', 'admin'],
      ],
      'each step audited, naming its person',
    );
  });

  t.test('the two-factor setup shows the otpauth URI as a QR code', async (t) => {
    const page = await newPage(390);
    await signIn(page, admin.user.email, CHOSEN(admin.user.email), false);
    await page.goto(`${stack.adminUrl}/account`);
    t.equal(await page.locator('form[aria-label="Make a personal token"] input[name=totp]').count(), 0, 'no code asked before two-factor sign-in is on');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const qr = page.locator('svg.qr');
    await qr.waitFor();
    const uri = (await page.getByRole('link', { name: 'Open in an authenticator app' }).getAttribute('href')) ?? '';
    t.match(uri, /^otpauth:\/\/totp\//);
    t.equal(await qr.locator('path').getAttribute('d'), expectedQrPath(uri), 'the QR code encodes the otpauth URI, drawn in the page');
    const box = await qr.boundingBox();
    t.ok(box && box.width >= 150 && box.width <= 390, `large enough to scan and within the phone (${box?.width} px)`);
    // Turned on: from now on a personal token takes a fresh code from the app (issue #56).
    const secret = (await page.locator('#totp-secret').textContent()) ?? '';
    await page.locator('form[aria-label="Confirm two-factor"] input[name=code]').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.locator('#second-factor', { hasText: 'on' }).waitFor();
    const make = page.locator('form[aria-label="Make a personal token"]');
    await make.locator('input[name=name]').fill('admin-phone');
    await make.locator('input[name=totp]').fill(totpCode(secret, Date.now() + 30_000));
    await make.getByRole('button', { name: 'Make token' }).click();
    const own = (await page.locator('[data-shown-once=token] code.secret').textContent()) ?? '';
    const asOwn = await fetch(`${stack.adminUrl}/admin/account/tokens`, { headers: { authorization: `Bearer ${own}` } });
    t.same(
      ((await asOwn.json()) as { data: { name: string }[] }).data.map((tk) => tk.name),
      ['admin-phone'],
      'a fresh code made her own token, which is hers',
    );
    const wide = await fits(page);
    t.ok(wide.page <= wide.screen, `the account page with its tokens fits 390 px (page ${wide.page} px)`);
    await page.context().close();
  });

  t.test('the review queue says why Pay cannot succeed, before the click', async (t) => {
    const op = await stack.createOperator('Team Holds');
    t.equal(
      (await stack.admin('PUT', `/admin/operators/${op.operator.id}/compliance`, { profile: 'br-spa', reason: 'the operator is licensed in Brazil' })).status,
      200,
      'br-spa',
    );
    const c = op.sandboxClient;
    const player = await c.post(
      '/players',
      {
        externalId: uniq('held'),
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
    t.equal((await c.post(`/deposits/${dep.body.id}/confirm`, { payer: { cpf: '52998224725' } }, key())).status, 200);
    const held = await c.post(`/players/${id}/withdrawals`, { amount: '1900.00', currency: 'BRL', method: 'pix', destination: '52998224725' }, key());
    t.equal(held.status, 201);
    // The second withdrawal is small and of an `off` operator's player: no hold, four eyes only.
    const plain = await stack.createOperator('Team Plain');
    const pc = plain.sandboxClient;
    const other = await pc.post(
      '/players',
      { externalId: uniq('plain'), name: 'Lia Reis', email: 'lia@example.com', cpf: '111.444.777-35', birthDate: '1990-01-01' },
      key(),
    );
    const otherId = other.body.id as string;
    await pc.post(`/players/${otherId}/kyc/submissions`, { documentType: 'rg', reference: 's3://docs/lia' }, key());
    await pc.post(`/sandbox/players/${otherId}/kyc/decision`, { status: 'aprovado' });
    const dep2 = await pc.post(`/players/${otherId}/deposits`, { amount: '50.00', currency: 'BRL', method: 'pix', externalReference: uniq('psp') }, key());
    await pc.post(`/deposits/${dep2.body.id}/confirm`, {}, key());
    const free = await pc.post(`/players/${otherId}/withdrawals`, { amount: '20.00', currency: 'BRL', method: 'pix', destination: 'lia-key' }, key());
    t.equal(free.status, 201);
    await waitFor(
      async () => {
        const r = await stack.admin('GET', `/admin/aml/cases?playerId=${id}`);
        return r.status === 200 && r.body.data.some((x: { risk: string }) => x.risk === 'high') ? true : undefined;
      },
      { what: "the player's high AML case" },
    );

    const page = await newPage(390);
    await signInPerson(page, ana);
    // Sandbox withdrawals: the sandbox's queue (production's is the default, issue #61).
    await page.goto(`${stack.adminUrl}/withdrawals?environment=sandbox`);
    const heldCard = page.locator(`article[data-withdrawal="${held.body.id}"]`);
    const freeCard = page.locator(`article[data-withdrawal="${free.body.id}"]`);
    await heldCard.locator('[data-hold=aml]', { hasText: 'AML review' }).waitFor();
    t.pass('the queue shows the AML hold on the withdrawal');
    t.match(
      await heldCard.locator('[data-clock]').textContent(),
      /^1 h \d\d min left$/,
      "a br-spa withdrawal's payout deadline (the prize clock), with the time left",
    );
    t.equal(await freeCard.locator('[data-clock]').count(), 0, 'none under the profile off');
    // Each decision after a confirmation naming the amount and the player (issue #61).
    await heldCard.getByRole('button', { name: 'Approve' }).click();
    await heldCard.getByRole('button', { name: 'Yes, approve' }).click();
    await heldCard.waitFor({ state: 'detached' });
    await freeCard.getByRole('button', { name: 'Approve' }).click();
    await freeCard.getByRole('button', { name: 'Yes, approve' }).click();
    await freeCard.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Approved', exact: true }).click();
    const heldPay = heldCard.getByRole('button', { name: 'Pay' });
    await heldPay.waitFor();
    t.ok(await heldPay.isDisabled(), 'held: Pay is disabled');
    t.match(await heldCard.locator('p.note').textContent(), /^AML review: /, 'with the reason beside it');
    const mine = freeCard.getByRole('button', { name: 'Pay' });
    t.ok(await mine.isDisabled(), "four eyes: the approver's own Pay is disabled");
    t.match(await freeCard.locator('p.note').textContent(), /^Four eyes: you approved/, 'with the reason');
    const wide = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth }));
    t.ok(wide.page <= wide.screen, `the queue fits 390 px (page ${wide.page} px)`);
    await page.context().close();

    // Another person of finance may pay the free one; the held one stays disabled for everyone.
    const second = await newPage(1280);
    await signIn(second, bia.user.email, bia.password, true);
    await second.goto(`${stack.adminUrl}/withdrawals?status=approved&environment=sandbox`);
    const biaFree = second.locator(`article[data-withdrawal="${free.body.id}"]`).getByRole('button', { name: 'Pay' });
    await biaFree.waitFor();
    t.ok(await biaFree.isEnabled(), 'another person may pay it');
    t.ok(await second.locator(`article[data-withdrawal="${held.body.id}"]`).getByRole('button', { name: 'Pay' }).isDisabled(), 'the hold holds for her too');
    await biaFree.click();
    await second.locator(`article[data-withdrawal="${free.body.id}"]`).getByRole('button', { name: 'Yes, pay' }).click();
    await second.locator(`article[data-withdrawal="${free.body.id}"]`).waitFor({ state: 'detached' });
    const paid = await pc.get(`/withdrawals/${free.body.id}`);
    t.equal(paid.body.status, 'paid', 'and it is paid');
    await second.context().close();
  });

  t.test('no page logged a failed request or a script error', async (t) => {
    t.same(problems, [], `none${problems.length ? `: ${problems.join(' | ')}` : ''}`);
  });
});
