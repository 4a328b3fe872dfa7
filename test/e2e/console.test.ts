// The team console in Chromium against the real processes: each role signs in with e-mail and
// password; compliance decides a KYC from the queue with a reason; finance runs four eyes (one
// person approves, the same person's pay is refused in the page and nothing moves, another person
// pays); support finds a player without knowing an id and is refused a finance action, in the page
// and at the API; admin sees operators, rotates a leaked key and revokes its replacement (each after
// a confirmation), deliveries, the audit log; a person turns on TOTP and changes their password on
// /account and signs in with a code. Everyone's first sign-in, with the one-time password `users
// create` printed, goes through /setup to choose their own password (and, for admin, whose role
// requires TOTP here, to turn it on) before any page opens; the one-time password is then refused,
// and an admin's reset (the CLI) issues another; compliance keeps the internal impediments list (add,
// find, remove after a confirmation), which support may not read. No page logs an error or breaks its
// Content-Security-Policy. CONSOLE_SCREENSHOTS=<dir> keeps a screenshot of each page (1280 px; the
// setup and account pages at 390 px too).
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { OperatorClient } from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import { ADMIN_TOKEN, startStack, type Stack, REGISTRATION_DATA } from './support/stack.ts';
import { launchChromium, notFailedLoad, submitSignIn, watchProblems } from './support/console-browser.ts';
import { confirmPerson } from './support/people.ts';

/** The audit log of a target once it has `rows` rows: a decision's row comes through its service's outbox, a moment after the answer. */
const auditOf = (stack: Stack, target: string, rows: number) =>
  waitFor(
    async () => {
      const r = await stack.admin('GET', `/admin/audit?target=${target}`);
      return r.body.data.length >= rows ? r : undefined;
    },
    { what: `the audit rows of ${target}` },
  );

const SHOTS = process.env.CONSOLE_SCREENSHOTS;
/** The password a person chooses at their first sign-in: long, not their e-mail, not a common one. */
const chosenPassword = (email: string) => `${email.split('@')[0]}-chose-this-passphrase-7`;
const key = () => ({ 'idempotency-key': `c-${Math.random().toString(36).slice(2, 12)}` });

t.test('team console in a browser', async (t) => {
  // Admin must use TOTP here (production's default is admin and finance).
  const stack = await startStack({ CONSOLE_TOTP_REQUIRED_ROLES: 'admin' });
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Console Bets');
  const c = op.sandboxClient;
  const newPlayer = async (externalId: string, email: string, cpf: string) =>
    (await c.post('/players', { externalId, name: `Player ${externalId}`, email, cpf, birthDate: '1990-05-17' }, key())).body.id as string;

  // A player waiting for KYC, and a funded, approved player who asked for a withdrawal.
  const waiting = await newPlayer('console-kyc', 'kyc@example.com', '529.982.247-25');
  await c.post(`/players/${waiting}/kyc/submissions`, { documentType: 'rg', reference: 's3://docs/rg-front' }, key());
  const payee = await newPlayer('console-payee', 'payee@example.com', '111.444.777-35');
  await c.post(`/players/${payee}/kyc/submissions`, { documentType: 'cnh', reference: 's3://docs/cnh' }, key());
  await c.post(`/sandbox/players/${payee}/kyc/decision`, { status: 'aprovado' });
  const deposit = await c.post(`/players/${payee}/deposits`, { amount: '100.00', currency: 'BRL', method: 'pix', externalReference: 'console-psp-1' }, key());
  await c.post(`/deposits/${deposit.body.id}/confirm`, {}, key());
  const withdrawal = (await c.post(`/players/${payee}/withdrawals`, { amount: '40.00', currency: 'BRL', method: 'pix', destination: 'pix-key-1' }, key())).body;
  t.equal(withdrawal.status, 'under_review');

  /** `oneTime`: the password is the one-time one, to replace at the next sign-in; `totp`: their authenticator. */
  const people: Record<string, { id: string; email: string; password: string; oneTime: boolean; totp?: TOTP }> = {};
  for (const [name, role] of [
    ['carla', 'compliance'],
    ['ana', 'finance'],
    ['bruno', 'finance'],
    ['sam', 'support'],
    ['root', 'admin'],
    ['rita', 'support'],
  ] as const) {
    const email = `${name}@ourteam.example`;
    const created = await stack.admin('POST', '/admin/users', { email, role });
    t.equal(created.status, 201, `${name} (${role}) has an account`);
    people[name] = { id: created.body.user.id, email, password: created.body.password, oneTime: true };
  }

  const browser = await launchChromium(t);
  const problems: string[] = [];
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  const shot = async (page: Page, name: string) => {
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  };
  /** At 1280 px, and at 390 px (a phone) as `<name>-390`. */
  const shots = async (page: Page, name: string) => {
    await shot(page, name);
    if (!SHOTS) return;
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, `${name}-390`);
    await page.setViewportSize({ width: 1280, height: 900 });
  };
  const shotsTaken = new Set<string>();
  const shotOnce = async (page: Page, name: string) => {
    if (shotsTaken.has(name)) return;
    shotsTaken.add(name);
    await shots(page, name);
  };

  /** Waits until a decided card leaves its list; if it stays, says what it shows (an error note, a status). */
  async function leaves(card: Locator): Promise<void> {
    try {
      await card.waitFor({ state: 'detached' });
    } catch (e) {
      const shown = await card.textContent({ timeout: 1000 }).catch(() => '(gone)');
      throw new Error(`the card stayed: ${shown}`, { cause: e });
    }
  }

  /**
   * The first sign-in's /setup, on the way to `landing`: the one-time password replaced by the
   * person's own, then TOTP turned on where the role requires it (here: admin).
   */
  async function setUp(page: Page, name: string, landing: string): Promise<void> {
    const person = people[name]!;
    await page.waitForURL(`${stack.adminUrl}/setup?next=${encodeURIComponent(landing)}`);
    await page.locator('#setup-password').waitFor();
    t.equal(await page.locator('header nav a').count(), 0, `${name}: no page to open before the setup is done`);
    await shotOnce(page, 'setup-password');
    t.equal(await page.locator('#current-password').count(), 0, `${name}: the setup does not ask the one-time password again`);
    await page.fill('#new-password', chosenPassword(person.email));
    await page.fill('#repeat-password', chosenPassword(person.email));
    await page.getByRole('button', { name: 'Change password' }).click();
    if (name === 'root') {
      await page.locator('#setup-second-factor').waitFor();
      await shotOnce(page, 'setup-second-factor');
      await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
      const secret = (await page.locator('#totp-secret').textContent())!;
      person.totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
      await page.fill('input[name=code]', person.totp.generate());
      await page.getByRole('button', { name: 'Turn on' }).click();
    }
    await page.waitForURL(`${stack.adminUrl}${landing}`);
    person.password = chosenPassword(person.email);
    person.oneTime = false;
    // Issue #69: a second admin confirms the person's power before their first decision.
    await confirmPerson(stack.adminUrl, { authorization: `Bearer ${ADMIN_TOKEN}` }, person.id);
  }

  /** A person in their own browser context, signed in through the form at `/` (through /setup the first time). */
  async function signIn(name: string, landing: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    // HTTP refusals the pages show (401 before sign-in, 403 of a refused action) log a "Failed to
    // load resource" line: those are checked where they happen; a script error, a CSP violation or
    // a missing page asset is a problem.
    watchProblems(page, problems, {
      label: name,
      responses: (r) => (r.status() === 404 && !r.url().endsWith('/favicon.ico')) || r.status() >= 500,
      consoleErrors: notFailedLoad,
    });
    await submitSignIn(page, stack.adminUrl, people[name]!.email, people[name]!.password);
    if (people[name]!.oneTime) await setUp(page, name, landing);
    await page.waitForURL(`${stack.adminUrl}${landing}`);
    await page.locator('header .who').waitFor();
    t.match(await page.locator('header .who').textContent(), people[name]!.email, `${name} is signed in and lands on ${landing}`);
    t.equal(await page.locator('#app > p').count(), 0, "the shell's placeholder is gone");
    return page;
  }

  t.test('compliance decides a KYC from the queue, with a reason', async (t) => {
    const page = await signIn('carla', '/kyc');
    // A sandbox player: the sandbox's queue (production's is the default, issue #61).
    await page.locator('.env-switch button[data-env=sandbox]').click();
    const card = page.locator(`article[data-player="${waiting}"]`);
    await card.waitFor();
    t.match(await card.textContent(), /console-kyc[\s\S]*Identity card \(RG\)[\s\S]*s3:\/\/docs\/rg-front/, 'the card shows externalId and the submission');
    t.match(await card.textContent(), /Not started → Under review/, 'and the history, in words');
    await shot(page, 'kyc');
    await card.locator('select[name=status]').selectOption('aprovado');
    await card.locator('input[name=reason]').fill('documents match the selfie');
    await card.locator('button[type=submit]').click();
    await leaves(card);
    const file = await stack.admin('GET', `/admin/players/${waiting}`);
    t.equal(file.body.kyc.status, 'aprovado');
    t.match(file.body.kyc.history[0], { status: 'aprovado', actor: 'user:carla@ourteam.example', reason: 'documents match the selfie' });
    const audit = await auditOf(stack, `player:${waiting}`, 1);
    t.match(audit.body.data[0], {
      actor: 'user:carla@ourteam.example',
      action: 'adminKycDecision',
      after: { kycStatus: 'aprovado', reason: 'documents match the selfie' },
    });
    await page.context().close();
  });

  t.test('four eyes: ana approves, her own Pay is disabled in the page and refused at the API, bruno pays', async (t) => {
    const ana = await signIn('ana', '/withdrawals');
    await ana.goto(`${stack.adminUrl}/withdrawals?environment=sandbox`);
    const card = ana.locator(`article[data-withdrawal="${withdrawal.id}"]`);
    await card.locator('.balance').waitFor();
    t.match((await card.locator('.balance').textContent())!.replace(/\u00a0/g, ' '), /R\$ 100,00[\s\S]*withdrawable R\$ 60,00/, 'balance beside the request');
    await shot(ana, 'withdrawals');
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.getByRole('button', { name: 'Yes, approve' }).click();
    await leaves(card);
    await ana.goto(`${stack.adminUrl}/withdrawals?status=approved&environment=sandbox`);
    const approved = ana.locator(`article[data-withdrawal="${withdrawal.id}"]`);
    await approved.getByText('Four eyes: you approved this withdrawal').waitFor();
    await approved.locator('.balance').waitFor(); // the details are in: the buttons no longer move (below)
    t.ok(await approved.getByRole('button', { name: 'Pay' }).isDisabled(), 'her Pay is disabled, the reason beside it');
    await shot(ana, 'withdrawals-four-eyes');
    // The API refuses her all the same (a page opened before, a script): her session, her CSRF token.
    const refused = await ana.evaluate(async (id) => {
      const s = (await (await fetch('/console/session')).json()) as { csrfToken: string };
      const r = await fetch(`/admin/withdrawals/${id}/decision`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': s.csrfToken, 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({ decision: 'pay' }),
      });
      return [r.status, ((await r.json()) as { error: { code: string } }).error.code];
    }, withdrawal.id);
    t.same(refused, [403, 'FOUR_EYES_REQUIRED'], 'and the API refuses her pay');
    t.equal((await stack.admin('GET', `/admin/withdrawals?playerId=${payee}`)).body.data[0].status, 'approved', 'nothing paid');
    t.equal((await c.get(`/players/${payee}/wallet`)).body.available, '100.00', 'nothing debited');
    await ana.context().close();

    const bruno = await signIn('bruno', '/withdrawals');
    await bruno.goto(`${stack.adminUrl}/withdrawals?status=approved&environment=sandbox`);
    const toPay = bruno.locator(`article[data-withdrawal="${withdrawal.id}"]`);
    t.match(await toPay.locator('p.muted').first().textContent(), /approved by ana@ourteam\.example/); // the person, without the API's user: prefix (issue #70)
    // The card's player details load after it and push the buttons down: a click while they
    // arrive can land beside the button (seen once in CI, on a loaded machine).
    await toPay.locator('.balance').waitFor();
    await toPay.getByRole('button', { name: 'Pay' }).click();
    await toPay.getByRole('button', { name: 'Yes, pay' }).click();
    await leaves(toPay);
    t.equal((await c.get(`/withdrawals/${withdrawal.id}`)).body.status, 'paid');
    t.equal((await c.get(`/players/${payee}/wallet`)).body.available, '60.00', 'paid once');
    const audit = await auditOf(stack, `withdrawal:${withdrawal.id}`, 2);
    t.same(
      audit.body.data.map((a: { actor: string; after: { status: string } }) => [a.actor, a.after.status]),
      [
        ['user:bruno@ourteam.example', 'paid'],
        ['user:ana@ourteam.example', 'approved'],
      ],
      'the audit names each person',
    );
    await bruno.context().close();
  });

  t.test("compliance reads a player's responsible gaming; an indefinite self-exclusion is not lifted before 30 days", async (t) => {
    const created = await c.post(
      '/players',
      {
        externalId: 'console-rg',
        name: 'Player console-rg',
        email: 'rg@example.com',
        cpf: '703.982.952-55',
        birthDate: '1990-05-17',
        ...REGISTRATION_DATA,
        limits: [
          { type: 'loss', period: 'day', value: '50.00' },
          { type: 'time', period: 'week', value: 300 },
        ],
      },
      key(),
    );
    t.equal(created.status, 201, 'limits collected at registration');
    const rg = created.body.id as string;
    t.equal((await c.post(`/players/${rg}/self-exclusion`, { indefinite: true }, key())).status, 200);
    const page = await signIn('carla', '/kyc');
    await page.goto(`${stack.adminUrl}/players?q=${rg}&id=${rg}`);
    const section = page.locator(`article[data-player="${rg}"] section[aria-label="Responsible gaming"]`);
    await section.locator('table').first().waitFor();
    const text = await section.textContent();
    t.match(text, /Loss\s*Day\s*R\$\s*50,00\s*R\$\s*0,00/, 'the loss limit and its usage, as money (issue #70)');
    t.match(text, /Time\s*Week\s*300 min/, 'the time limit');
    t.match(text, /without end/, 'the self-exclusion');
    t.match(text, /self-exclusion[\s\S]*without end[\s\S]*operator/, 'the history says who');
    // Day 0: no Lift button that would only be refused; the page says from when it can be lifted.
    const when = section.locator('[data-liftable-at]');
    await when.waitFor();
    t.equal(await section.getByRole('button', { name: 'Lift the indefinite self-exclusion' }).count(), 0, 'no Lift button before it can succeed');
    const liftableAt = Date.parse((await when.getAttribute('data-liftable-at'))!);
    t.ok(Math.abs(liftableAt - Date.now() - 30 * 86_400_000) < 3_600_000, 'liftable 30 days after it began');
    t.match(await when.textContent(), /may lift this indefinite self-exclusion from .* \(30 days after it began\)/, 'and says from when');
    const early = await stack.admin('POST', `/admin/players/${rg}/self-exclusion/lift`, { reason: 'asked by the player' });
    t.same([early.status, early.body.error?.code], [409, 'SELF_EXCLUSION_ACTIVE'], 'the API refuses it all the same');
    await shot(page, 'player-responsible-gaming');
    await page.context().close();
  });

  t.test("the player page's Status offers only what the generic change may set; a restriction names its flow; a stale page shows the refusal", async (t) => {
    const op2 = await stack.createOperator('Standing Console Bets');
    t.equal(
      (await stack.admin('PUT', `/admin/operators/${op2.operator.id}/compliance`, { profile: 'br-spa', reason: 'the operator is licensed in Brazil' })).status,
      200,
      'br-spa',
    );
    const limits = [
      { type: 'loss', period: 'day', value: '1000.00' },
      { type: 'time', period: 'day', value: 600 },
    ];
    const register = async (client: OperatorClient, externalId: string, cpf: string) => {
      const r = await client.post(
        '/players',
        { externalId, name: `Player ${externalId}`, email: `${externalId}@example.com`, cpf, birthDate: '1990-05-17', ...REGISTRATION_DATA, limits },
        key(),
      );
      if (r.status !== 201) throw new Error(`${externalId}: ${JSON.stringify(r.body)}`);
      return r.body.id as string;
    };
    const statusOf = async (id: string) => (await stack.admin('GET', `/admin/players/${id}`)).body.player.status as string;
    const selfExcluded = await register(op2.sandboxClient, 'st-se', '123.456.789-09');
    t.equal((await op2.sandboxClient.post(`/players/${selfExcluded}/self-exclusion`, { indefinite: true }, key())).status, 200);
    const frozen = await register(op2.sandboxClient, 'st-frozen', '987.654.321-00');
    // The entry before the first KYC event, which has the player screened against it.
    await op2.sandboxClient.post('/sandbox/screening-entries', { list: 'sanctions', cpf: '98765432100', name: 'Player st-frozen' }, key());
    await op2.sandboxClient.post(`/sandbox/players/${frozen}/kyc/decision`, { status: 'aprovado' });
    await waitFor(async () => (await statusOf(frozen)) === 'bloqueado', { what: 'the freeze' });
    const restricted = await register(op2.productionClient, 'st-imp', '246.813.579-28');
    const listed = await stack.admin('POST', '/admin/impediments', { cpf: '24681357928', category: 'athlete', note: 'a club player' }, 'carla');
    t.same(listed.body.restricted, [restricted], 'restricted by our list');
    // Off the list again (the impediments page's test starts from an empty list): that lifts nothing.
    t.equal((await stack.admin('DELETE', '/admin/impediments/24681357928', undefined, 'carla')).status, 200);
    const stale = await register(op2.sandboxClient, 'st-stale', '135.792.468-28');

    const page = await signIn('carla', '/kyc');
    const statusForm = async (id: string) => {
      await page.goto(`${stack.adminUrl}/players?q=${id}&id=${id}`);
      const form = page.locator(`article[data-player="${id}"] form[aria-label="Player status"]`);
      await form.locator('select[name=status]').waitFor();
      return form;
    };
    for (const [id, status, flow] of [
      [selfExcluded, 'autoexcluido', /only compliance lifts it/],
      [frozen, 'bloqueado', /sanctions case/],
      [restricted, 'restrito', /new registration/],
    ] as const) {
      const form = await statusForm(id);
      t.same(await form.locator('select[name=status] option').evaluateAll((os) => os.map((o: any) => o.value)), [status], `${status}: the only status offered`);
      t.match(await form.locator('p.muted').textContent(), flow, `${status}: the flow that ends it`);
      t.equal(await form.getByRole('button', { name: 'Save status' }).count(), 0, `${status}: nothing to save`);
      if (status === 'bloqueado') await shots(page, 'player-status-held');
    }

    const form = await statusForm(stale);
    t.same(
      await form.locator('select[name=status] option').evaluateAll((os) => os.map((o: any) => o.value)),
      ['ativo', 'suspenso', 'bloqueado', 'encerrado'],
      'nothing holds it: every status but restrito and autoexcluido (each only through its flow)',
    );
    // The player self-excludes while the page is open; the page's change is refused and says why.
    t.equal((await op2.sandboxClient.post(`/players/${stale}/self-exclusion`, { indefinite: true }, key())).status, 200);
    await form.locator('select[name=status]').selectOption('ativo');
    await form.getByRole('button', { name: 'Save status' }).click();
    await form.locator('.error').waitFor();
    t.match(await form.locator('.error').textContent(), /STANDING_HAS_OWN_FLOW[\s\S]*self-exclusion/, 'the page shows the refusal and its flow');
    t.equal(await statusOf(stale), 'autoexcluido', 'still self-excluded');
    await page.context().close();
  });

  t.test('compliance keeps the internal impediments list: adds a CPF, finds it, removes it after a confirmation', async (t) => {
    const page = await signIn('carla', '/kyc');
    await page.goto(`${stack.adminUrl}/impediments`);
    await page.locator('main p.empty').waitFor();
    const form = page.getByRole('form', { name: 'Add to the list' });
    await form.locator('input[name=cpf]').fill('390.533.447-05');
    await form.locator('select[name=category]').selectOption('sports_agent');
    await form.locator('input[name=note]').fill("Agent of a first-division club's players");
    await form.getByRole('button', { name: 'Add to the list' }).click();
    await form.locator('p.ok', { hasText: '39053344705 is on the list' }).waitFor();
    const row = page.locator('tr[data-cpf="39053344705"]');
    await row.waitFor();
    t.match(
      await row.textContent(),
      /Sports agent[\s\S]*Agent of a first-division club's players[\s\S]*carla@ourteam\.example/,
      'the entry, its category in Portuguese and English, with who filed it',
    );
    await shot(page, 'impediments');
    const find = page.getByRole('form', { name: 'Find a CPF' });
    await find.locator('input[name=cpf]').fill('111.444.777-35');
    await find.getByRole('button', { name: 'Find' }).click();
    await page.locator('main p.empty', { hasText: 'This CPF is not on the list.' }).waitFor();
    t.pass('a CPF not on the list is said so');
    await find.locator('input[name=cpf]').fill('390.533.447-05');
    await find.getByRole('button', { name: 'Find' }).click();
    page.once('dialog', (d) => void d.dismiss());
    await row.getByRole('button', { name: 'Remove' }).click();
    t.equal((await stack.admin('GET', '/admin/impediments?cpf=39053344705')).body.data.length, 1, 'dismissed: still listed');
    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.waitFor({ state: 'detached' });
    t.equal((await stack.admin('GET', '/admin/impediments?cpf=39053344705')).body.data.length, 0, 'removed');
    const audit = await auditOf(stack, 'impediment:39053344705', 2);
    t.same(
      audit.body.data.map((a: { actor: string; action: string }) => `${a.actor} ${a.action}`),
      ['user:carla@ourteam.example adminRemoveImpediment', 'user:carla@ourteam.example adminAddImpediment'],
      'both changes audited, naming her',
    );
    await page.context().close();
  });

  t.test('support finds a player without an id and is refused finance actions, in the page and at the API', async (t) => {
    const page = await signIn('sam', '/players');
    // A sandbox player: the sandbox's players (production's are the default, issue #61).
    await page.locator('.env-switch button[data-env=sandbox]').click();
    await page.fill('input[name=q]', '111.444.777-35');
    await page.click('form.search button[type=submit]');
    await page.getByRole('link', { name: 'Player console-payee' }).click();
    const file = page.locator(`article[data-player="${payee}"]`);
    await file.locator('.balance').waitFor();
    t.match(await file.textContent(), /payee@example\.com[\s\S]*Approved/, 'profile and KYC');
    t.match((await file.locator('.balance').textContent())!.replace(/\u00a0/g, ' '), /R\$ 60,00/, 'wallet');
    t.match(await file.textContent(), /console-psp-1[\s\S]*Confirmed/, 'deposits');
    t.match(await file.textContent(), new RegExp(`${withdrawal.id}[\\s\\S]*Paid`), 'withdrawals');
    t.equal(await file.locator('select[name=status]').isDisabled(), true, 'support reads the status but does not change it');
    await shot(page, 'players');

    await page.goto(`${stack.adminUrl}/ledger`);
    await page.getByRole('button', { name: 'Verify the ledger' }).click();
    await page.locator('.error').waitFor();
    t.match(await page.locator('.error').textContent(), /FORBIDDEN_ROLE/, 'the page shows the refusal');
    await page.goto(`${stack.adminUrl}/impediments`);
    await page.locator('main .error').first().waitFor();
    t.match(await page.locator('main .error').first().textContent(), /FORBIDDEN_ROLE/, 'the impediments list is compliance’s: the page shows the refusal');
    const atApi = await page.evaluate(async (id) => {
      const session = (await (await fetch('/console/session')).json()) as { csrfToken: string };
      const res = await fetch(`/admin/withdrawals/${id}/decision`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        body: JSON.stringify({ decision: 'reject' }),
      });
      return { status: res.status, code: ((await res.json()) as { error: { code: string } }).error.code };
    }, withdrawal.id);
    t.same(atApi, { status: 403, code: 'FORBIDDEN_ROLE' }, 'and the admin API refuses it');
    await page.context().close();
  });

  t.test('admin: operators, deliveries, the audit log by actor', async (t) => {
    const page = await signIn('root', '/operators');
    const card = page.locator(`article[data-operator="${op.operator.id}"]`);
    await card.waitFor();
    t.match(await card.textContent(), /Console Bets[\s\S]*Active/);
    await card.locator('input[name=minAmount]').waitFor();
    t.equal(await card.locator('input[name=minAmount]').inputValue(), '0.00', 'four eyes on every withdrawal by default');
    const keys = card.locator('table.keys tbody tr');
    await keys.first().waitFor();
    t.equal(await keys.count(), 2, 'a key per environment');
    const listed = (await card.locator('table.keys').textContent())!;
    t.ok(listed.includes(`${op.sandbox.key.slice(0, 12)}…`) && listed.includes(`${op.production.key.slice(0, 12)}…`), 'each key by its prefix');
    t.notOk((await card.textContent())!.includes(op.sandbox.secret) || listed.includes(op.sandbox.key), 'never a secret or a whole key');
    await shot(page, 'operators');

    // A leaked sandbox key: rotated with no overlap after a confirmation, the new secret shown once.
    await card.locator('input[name=overlapMinutes]').fill('0');
    page.once('dialog', (d) => void d.accept());
    await card.getByRole('button', { name: 'Rotate sandbox key' }).click();
    const issued = card.locator('.secrets');
    await issued.waitFor();
    const newKey = (await issued.locator('code').first().textContent())!;
    const newSecret = (await issued.locator('code.secret').textContent())!;
    t.match(newSecret, /^sk_test_/, 'the new secret is shown');
    await card.locator('tr[data-status="expired"]').waitFor();
    t.equal((await c.get('/me')).status, 401, 'the replaced key is refused');
    const fresh = new OperatorClient({ baseUrl: `${stack.publicUrl}/api/v1`, key: newKey, secret: newSecret });
    t.equal((await fresh.get('/me')).status, 200, 'the new key works');
    // Revoke: a dismissed confirmation does nothing; an accepted one revokes at once.
    const row = card.locator('tr[data-status="active"]', { hasText: newKey.slice(0, 12) });
    page.once('dialog', (d) => void d.dismiss());
    await row.getByRole('button', { name: 'Revoke' }).click();
    t.equal((await fresh.get('/me')).status, 200, 'dismissed: still in force');
    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: 'Revoke' }).click();
    await card.locator('tr[data-status="revoked"]').waitFor();
    t.equal((await fresh.get('/me')).status, 401, 'revoked: refused');
    await page.goto(`${stack.adminUrl}/webhooks?operatorId=${op.operator.id}`);
    await page.locator('main p.empty, main table').first().waitFor();
    await shot(page, 'webhooks');
    await page.goto(`${stack.adminUrl}/audit?actor=user:bruno@ourteam.example`);
    await page.locator('table.audit').waitFor();
    t.same(
      await page.locator('table.audit tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action'))),
      ['adminWithdrawalDecision', 'consoleChangePassword', 'consoleSignIn'],
      "the audit log filtered by one person's actions: the pay, the first sign-in and its new password",
    );
    t.same(
      await page.locator('table.audit tbody tr td:nth-child(3)').allTextContents(),
      ['Withdrawal decision', 'Password changed', 'Console sign-in'],
      'each action in words, not its code name',
    );
    t.match(
      await page.locator('table.audit tbody tr[data-action="adminWithdrawalDecision"] li[data-field="status"]').textContent(),
      /^Status: Approved → Paid$/,
      'what the decision changed: the status, from before to after, in words',
    );
    await shot(page, 'audit');
    // Pages of 25, newest first: 30 changes of one operator's rate limit fill more than one.
    for (let i = 1; i <= 30; i++) await stack.admin('PUT', `/admin/operators/${op.operator.id}/rate-limit`, { perMinute: 600 + i });
    await waitFor(
      async () =>
        (await stack.admin('GET', `/admin/audit?target=operator:${op.operator.id}&action=adminSetRateLimit&limit=200`)).body.data.length === 30 || undefined,
      { what: 'the 30 rows' },
    );
    await page.goto(`${stack.adminUrl}/audit?target=operator:${op.operator.id}&action=adminSetRateLimit`);
    const perMinute = () =>
      page
        .locator('table.audit tbody li[data-field="rateLimitPerMinute"]')
        .evaluateAll((items) => items.map((li) => li.textContent?.split('→').at(-1)?.trim()));
    await waitFor(async () => (await page.locator('table.audit tbody tr').count()) === 25 || undefined, { what: 'the first page of 25' });
    const first = await perMinute();
    t.equal(first[0], '630', 'the newest first');
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.locator('table.audit tbody tr').first().locator('li[data-field="rateLimitPerMinute"]', { hasText: '605' }).waitFor();
    t.same(await perMinute(), ['605', '604', '603', '602', '601'], 'the next page: the five older ones, none twice');
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.locator('table.audit tbody tr').first().locator('li[data-field="rateLimitPerMinute"]', { hasText: '630' }).waitFor();
    t.equal((await perMinute()).length, 25, 'back to the first page');
    await page.context().close();
  });

  t.test('a person turns on two-factor sign-in and changes the password on /account, then signs in with both', async (t) => {
    const page = await signIn('carla', '/kyc');
    await page.goto(`${stack.adminUrl}/account`);
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await page.locator('#totp-secret').textContent())!;
    const app = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
    await page.fill('input[name=code]', app.generate());
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.locator('#second-factor', { hasText: 'on' }).waitFor();
    const form = page.getByRole('form', { name: 'Change password' });
    await form.locator('#current-password').fill('not-my-password-at-all');
    await form.locator('#new-password').fill('carla-second-passphrase-8');
    await form.locator('#repeat-password').fill('carla-second-passphrase-8');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.locator('.error', { hasText: 'Current password: is not your current password.' }).waitFor();
    t.pass('the current password is required');
    await form.locator('#current-password').fill(people.carla!.password);
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.locator('#password-changed').waitFor();
    people.carla!.password = 'carla-second-passphrase-8';
    await shots(page, 'account');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${stack.adminUrl}/`);
    await page.fill('input[name=email]', people.carla!.email);
    await page.fill('input[name=password]', people.carla!.password);
    await page.click('button[type=submit]');
    await page.locator('#totp').waitFor();
    t.match(await page.locator('#status').textContent(), /6-digit code/, 'the right password asks for the code');
    await page.fill('#totp', app.generate({ timestamp: Date.now() + 30_000 }));
    await page.click('button[type=submit]');
    await page.waitForURL(`${stack.adminUrl}/kyc`);
    t.pass('signed in with password and code');
    await page.context().close();
  });

  t.test('a one-time password signs in once; an admin reset (the CLI) issues another', async (t) => {
    const rita = people.rita!;
    const oneTime = rita.password;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    watchProblems(page, problems, { label: 'rita', responses: false });
    const submit = (password: string) => submitSignIn(page, stack.adminUrl, rita.email, password);
    await submit(oneTime);
    await page.waitForURL(`${stack.adminUrl}/setup?next=${encodeURIComponent('/players')}`);
    const form = page.getByRole('form', { name: 'Change password' });
    await form.locator('#new-password').fill('password1234');
    await form.locator('#repeat-password').fill('password1234');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.locator('.error', { hasText: 'most common passwords' }).waitFor();
    t.pass('a common password is refused, with the reason');
    t.equal(await page.evaluate(async () => (await fetch('/admin/operators')).status), 403, 'the admin API refuses the session meanwhile');
    await form.locator('#new-password').fill(chosenPassword(rita.email));
    await form.locator('#repeat-password').fill(chosenPassword(rita.email));
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL(`${stack.adminUrl}/players`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${stack.adminUrl}/`);

    await submit(oneTime);
    await page.locator('#status', { hasText: 'Wrong e-mail or password' }).waitFor();
    t.pass('the one-time password is refused once replaced');

    const quiet = spawnSync(process.execPath, [path.resolve(import.meta.dirname, '../../scripts/admin-cli.ts'), 'users', 'reset-password', rita.id], {
      env: { ...process.env, ADMIN_URL: stack.adminUrl, ADMIN_TOKEN },
      encoding: 'utf8',
    });
    t.equal(quiet.status, 0, quiet.stderr);
    t.match(
      (JSON.parse(quiet.stdout) as { password: string }).password,
      /^\(not printed: .*Team page.*--show-password/,
      'without --show-password the CLI leaves the one-time password out of the terminal and says where to get one',
    );
    const cli = spawnSync(
      process.execPath,
      [path.resolve(import.meta.dirname, '../../scripts/admin-cli.ts'), 'users', 'reset-password', '--show-password', rita.id],
      {
        env: { ...process.env, ADMIN_URL: stack.adminUrl, ADMIN_TOKEN },
        encoding: 'utf8',
      },
    );
    t.equal(cli.status, 0, cli.stderr);
    const reset = JSON.parse(cli.stdout) as { password: string };
    t.match(reset.password, /^[A-Za-z0-9_-]{24}$/, 'the CLI prints a new one-time password');
    await submit(chosenPassword(rita.email));
    await page.locator('#status', { hasText: 'Wrong e-mail or password' }).waitFor();
    t.pass('the chosen password is gone after the reset');
    await submit(reset.password);
    await page.waitForURL(/\/setup\?next=/);
    await page.locator('#setup-password').waitFor();
    t.pass('the new one-time password leads to /setup again');
    await context.close();

    const audit = await stack.admin('GET', `/admin/audit?target=team_member:${rita.id}&limit=100`);
    t.same(
      audit.body.data.map((a: { action: string }) => a.action).reverse(),
      [
        'adminCreateUser',
        'consoleSignIn',
        'consoleChangePassword',
        'consoleSignInFailed',
        'adminResetPassword',
        'adminResetPassword',
        'consoleSignInFailed',
        'consoleSignIn',
      ],
      'each step is in the audit log',
    );
  });

  t.test('no page logged an error or broke its Content-Security-Policy', async (t) => {
    t.same(problems, []);
  });
});
