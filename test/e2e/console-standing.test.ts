// The player page's older limits form in Chromium against the real processes (issue #56): from
// "Self-excluded until" a compliance officer can start a self-exclusion or move a running one's end
// later, never end or shorten one. An earlier date, a past one or an empty field is refused in the page
// with the API's 409 STANDING_HAS_OWN_FLOW naming the flow that ends it, and nothing changes; saving
// the form as it was opened (the date field holds the day, not the time) changes only what was
// edited; a later date lengthens a term; a date on a player nothing holds starts a real self-exclusion,
// autoexcluido, whose history names her (on a player our team suspended, the page says the suspension
// comes back when it ends); the Status never offers autoexcluido by hand.
import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { waitFor } from '@bo/service-kit/testing';
import { ADMIN_TOKEN, startStack, uniq } from './support/stack.ts';
import { choosePassword, launchChromium, submitSignIn, watchProblems } from './support/console-browser.ts';
import { confirmPerson } from './support/people.ts';

const key = () => ({ 'idempotency-key': uniq('k') });
const PASSPHRASE = 'copper meadow quiet lantern ninety';
const DAY = 86_400_000;
/** A day as the date field takes it (`YYYY-MM-DD`, UTC). */
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

t.test('the older limits form never ends or shortens a self-exclusion, in the browser', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Limits Form Bets');
  const c = op.sandboxClient;
  const register = async (name: string, cpf: string) => {
    const r = await c.post('/players', { externalId: uniq(name), name: `Player ${name}`, email: `${name}@example.com`, cpf, birthDate: '1990-05-17' }, key());
    if (r.status !== 201) throw new Error(`${name} not registered: ${JSON.stringify(r.body)}`);
    return r.body.id as string;
  };
  const indefinite = await register('lf-ind', '529.982.247-25');
  t.equal((await c.post(`/players/${indefinite}/self-exclusion`, { indefinite: true }, key())).status, 200, 'a self-exclusion without end');
  const term = await register('lf-term', '111.444.777-35');
  const termUntil = (await c.post(`/players/${term}/self-exclusion`, { months: 2 }, key())).body.selfExclusion.until as string;
  t.ok(termUntil, 'a two-month term');
  const free = await register('lf-free', '390.533.447-05');
  const suspended = await register('lf-susp', '246.813.579-28');
  t.equal((await stack.admin('POST', `/admin/players/${suspended}/status`, { status: 'suspenso' })).status, 200, 'a player our team suspended');

  const officer = await stack.admin('POST', '/admin/users', { email: 'lia.compliance@ourteam.example', role: 'compliance' });
  t.equal(officer.status, 201, 'a compliance officer');
  const browser = await launchChromium(t);
  const problems: string[] = [];
  const page: Page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  watchProblems(page, problems, {
    // The refusals this test provokes are the only 4xx expected.
    responses: (r) => !(r.status() === 409 && r.request().method() === 'PUT' && /\/admin\/players\/[^/]+\/limits$/.test(new URL(r.url()).pathname)),
    method: true,
    consoleErrors: (text) => !/409/.test(text),
  });
  await submitSignIn(page, stack.adminUrl, officer.body.user.email, officer.body.password);
  // The first sign-in's setup: her own password in place of the one-time one.
  await page.locator('#setup-password').or(page.locator('header .who')).first().waitFor();
  if (await page.locator('#setup-password').isVisible()) await choosePassword(page, PASSPHRASE);
  await page.locator('header .who').waitFor();
  // Issue #69: once she has set up her account, a second admin confirms her power before her first decision.
  await confirmPerson(stack.adminUrl, { authorization: `Bearer ${ADMIN_TOKEN}` }, officer.body.user.id);

  const fileOf = (id: string) => (stack.admin('GET', `/admin/players/${id}`) as Promise<{ body: any }>).then((r) => r.body);
  const seHistory = async (id: string) =>
    ((await stack.admin('GET', `/admin/players/${id}/responsible-gaming`)).body.history as Array<{ kind: string; by: string; actor: string | null }>)
      .filter((h) => h.kind.startsWith('self_exclusion'))
      .map((h) => `${h.kind} by ${h.by}${h.actor ? ` (${h.actor})` : ''}`);
  /** The player page, freshly opened: its limits form. */
  const limitsForm = async (id: string): Promise<Locator> => {
    await page.goto(`${stack.adminUrl}/players?id=${id}`);
    const form = page.locator(`article[data-player="${id}"] form[aria-label="Responsible-gaming limits"]`);
    await form.locator('input[name=selfExcludedUntil]').waitFor();
    return form;
  };
  /** Saves the form with this date (empty: none) and answers the refusal the page shows. */
  const refusedWith = async (id: string, date: string): Promise<string> => {
    const form = await limitsForm(id);
    await form.locator('input[name=selfExcludedUntil]').fill(date);
    await form.getByRole('button', { name: 'Save limits' }).click();
    await form.locator('.error').waitFor();
    return (await form.locator('.error').textContent()) ?? '';
  };

  t.test('a self-exclusion without end: no date ends or shortens it', async (t) => {
    const form = await limitsForm(indefinite);
    t.equal(await form.locator('input[name=selfExcludedUntil]').inputValue(), '', 'no end to show');
    t.match(await form.locator('[data-self-exclusion-note]').textContent(), /never ended or shortened here/, 'the form says what it may do');
    for (const [what, date] of [
      ['yesterday', day(Date.now() - DAY)],
      ['today', day(Date.now())],
      ['a date ahead', day(Date.now() + 60 * DAY)],
    ] as const) {
      t.match(
        await refusedWith(indefinite, date),
        /STANDING_HAS_OWN_FLOW[\s\S]*only compliance lifts it/,
        `${what}: the page shows the refusal, naming the lift`,
      );
    }
    const file = await fileOf(indefinite);
    t.same([file.player.status, file.limits.selfExcludedUntil], ['autoexcluido', null], 'still self-excluded without end');
    t.same(await seHistory(indefinite), ['self_exclusion by operator'], 'nothing ended it');
  });

  t.test('a fixed term: the form as opened keeps it, an earlier or empty date is refused, a later one lengthens it', async (t) => {
    const form = await limitsForm(term);
    t.equal(await form.locator('input[name=selfExcludedUntil]').inputValue(), termUntil.slice(0, 10), 'its end, as a day');
    // Typed as the language writes it (thousands marked), sent as the API takes it (issue #70).
    await form.locator('input[name=dailyDepositLimit]').fill('1,300.00');
    await form.getByRole('button', { name: 'Save limits' }).click();
    await waitFor(async () => (await fileOf(term)).limits.dailyDepositLimit === '1300.00', { what: 'the deposit limit saved' });
    t.equal((await fileOf(term)).limits.selfExcludedUntil, termUntil, 'saved as opened: the term unchanged, to the millisecond');

    t.match(await refusedWith(term, ''), /STANDING_HAS_OWN_FLOW[\s\S]*ends by itself/, 'an empty field: refused, naming its end');
    t.match(await refusedWith(term, day(Date.parse(termUntil) - 10 * DAY)), /STANDING_HAS_OWN_FLOW[\s\S]*ends by itself/, 'an earlier date: refused');
    t.match(await refusedWith(term, day(Date.now() - DAY)), /STANDING_HAS_OWN_FLOW/, 'a past date: refused');
    t.equal((await fileOf(term)).limits.selfExcludedUntil, termUntil, 'unchanged');

    const later = day(Date.parse(termUntil) + 30 * DAY);
    const again = await limitsForm(term);
    await again.locator('input[name=selfExcludedUntil]').fill(later);
    await again.getByRole('button', { name: 'Save limits' }).click();
    const history = page.locator(`article[data-player="${term}"] section[aria-label="Responsible gaming"] table`).last();
    // The console names a person without the API's `user:` and writes each end as a time, its instant in `datetime` (issue #70).
    const row = history.locator('tr', { hasText: /self-exclusion.*team \(lia\.compliance@ourteam\.example\)/ });
    await row.waitFor();
    t.same(
      await row.locator('time[datetime]').evaluateAll((ts) => ts.map((e) => e.getAttribute('datetime'))),
      [termUntil, `${later}T00:00:00.000Z`],
      'the page shows who lengthened it, from when to when',
    );
    const file = await fileOf(term);
    t.same([file.player.status, file.limits.selfExcludedUntil], ['autoexcluido', `${later}T00:00:00.000Z`], 'lengthened');
    t.same(await seHistory(term), ['self_exclusion by team (user:lia.compliance@ourteam.example)', 'self_exclusion by operator'], 'newest first');
  });

  t.test('a player nothing holds: no autoexcluido by hand; a date starts a self-exclusion', async (t) => {
    const form = await limitsForm(free);
    const status = page.locator(`article[data-player="${free}"] form[aria-label="Player status"]`);
    t.same(
      await status.locator('select[name=status] option').evaluateAll((os) => os.map((o: any) => o.value)),
      ['ativo', 'suspenso', 'bloqueado', 'encerrado'],
      'the Status offers no autoexcluido',
    );
    t.match(await form.locator('[data-self-exclusion-note]').textContent(), /A date starts a self-exclusion/);
    const until = day(Date.now() + 20 * DAY);
    await form.locator('input[name=selfExcludedUntil]').fill(until);
    await form.getByRole('button', { name: 'Save limits' }).click();
    await status.locator('p.muted[data-held-by="self_exclusion"]').waitFor();
    t.same(
      await status.locator('select[name=status] option').evaluateAll((os) => os.map((o: any) => o.value)),
      ['autoexcluido'],
      'then only the status the self-exclusion holds',
    );
    t.match(await status.locator('p.muted').textContent(), /ends by itself/, 'and the flow that ends it');
    const rg = page.locator(`article[data-player="${free}"] section[aria-label="Responsible gaming"]`);
    await rg.locator('tr', { hasText: /self-exclusion.*team \(lia\.compliance@ourteam\.example\)/ }).waitFor();
    t.match(await rg.textContent(), /Self-exclusion: since [\s\S]*until/, 'the responsible-gaming section shows it');
    const file = await fileOf(free);
    t.same([file.player.status, file.limits.selfExcludedUntil], ['autoexcluido', `${until}T00:00:00.000Z`]);
    t.same(await seHistory(free), ['self_exclusion by team (user:lia.compliance@ourteam.example)']);
  });

  t.test('a suspended player: a date starts a self-exclusion, and the page says the suspension comes back at its end', async (t) => {
    const form = await limitsForm(suspended);
    const status = page.locator(`article[data-player="${suspended}"] form[aria-label="Player status"]`);
    await form.locator('input[name=selfExcludedUntil]').fill(day(Date.now() + 20 * DAY));
    await form.getByRole('button', { name: 'Save limits' }).click();
    await status.locator('p.muted[data-held-by="self_exclusion"]').waitFor();
    t.match(
      await status.locator('p.muted').textContent(),
      /ends by itself[\s\S]*goes back to Suspended/,
      'the flow that ends it, and the status it gives back',
    );
    t.equal((await fileOf(suspended)).player.status, 'autoexcluido', 'self-excluded meanwhile');
  });

  t.test('no script error, no other failed request', async (t) => {
    t.same(problems, [], problems.join(' | ') || 'none');
  });
});
