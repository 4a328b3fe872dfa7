// The console's browser tests share one way to start Chromium, to note what goes wrong in a page
// (a failed request, a script error, an error in the browser console) and to sign a person in
// through the form, choosing their own password at the first sign-in (/setup). What differs between
// the files (locale, a phone's height, downloads, dialogs, which failures a test provokes on purpose,
// how a problem is labelled) is passed as options, so each file still says it.
import { chromium, type Browser, type BrowserContextOptions, type Page, type Response } from 'playwright-core';
import { timedPhase } from '@bo/service-kit/testing';
// The launch every browser test shares (the e2e workspace does not depend on test-support: taken by path, like people.ts).
import { CHROMIUM_LAUNCH, chromiumLaunchIn } from '../../../packages/test-support/src/chromium.ts';
import { confirmPerson, totpCode } from './people.ts';
import { ADMIN_TOKEN } from './stack.ts';

/** A tap test, or anything else that runs a function when it ends. */
interface Teardown {
  teardown(fn: () => unknown): void;
}

/** Chromium for this test: its start noted as the 'chromium' phase (`npm run test:timings`), closed when the test ends. */
export async function launchChromium(t: Teardown, lang?: string): Promise<Browser> {
  const browser = await timedPhase('chromium', () => chromium.launch(lang ? chromiumLaunchIn(lang) : CHROMIUM_LAUNCH));
  t.teardown(() => browser.close());
  return browser;
}

export interface WatchOptions {
  /** Starts each problem's line (`<label>: …`), to say which page it came from; no prefix without it. */
  label?: string;
  /** Which failed responses (status 400 and up) are problems: all of them unless a test provokes some; false: none watched. */
  responses?: boolean | ((r: Response) => boolean);
  /** A failed response's line names the request's method too. */
  method?: boolean;
  /** Which errors in the browser console are problems: none watched unless asked; true: all of them. */
  consoleErrors?: boolean | ((text: string) => boolean);
}

/**
 * For `consoleErrors`: all but the line Chromium logs for a refused request ("Failed to load resource: …
 * 404"), which the response (or the test that provoked it) speaks for.
 */
export const notFailedLoad = (text: string) => !text.startsWith('Failed to load resource');

/** Notes in `problems` what goes wrong in `page`: failed responses, uncaught script errors and, when asked, console errors. */
export function watchProblems(page: Page, problems: string[], options: WatchOptions = {}): void {
  const { label, responses = true, method = false, consoleErrors = false } = options;
  const note = (text: string) => problems.push(label === undefined ? text : `${label}: ${text}`);
  if (responses) {
    page.on('response', (r) => {
      if (r.status() >= 400 && (responses === true || responses(r))) note(`${r.status()} ${method ? `${r.request().method()} ` : ''}${r.url()}`);
    });
  }
  page.on('pageerror', (e) => note(e.message));
  if (consoleErrors) {
    page.on('console', (m) => {
      if (m.type() === 'error' && (consoleErrors === true || consoleErrors(m.text()))) note(m.text());
    });
  }
}

/** A console account as POST /admin/users answers it (`{ user: { email }, password }`) or as activatedPerson gives it. */
/** `totpSecret`: a person who signs in with a code from their authenticator too (activatedPerson's). */
export type Person = ({ email: string; password: string } | { user: { email: string }; password: string }) & { totpSecret?: string };
const emailOf = (who: Person) => ('user' in who ? who.user.email : who.email);

/** Fills the sign-in form at `/` and submits it; what follows (/setup, a page, a refusal) is the caller's to wait for. */
export async function submitSignIn(page: Page, adminUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${adminUrl}/`);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
}

/** The first sign-in's /setup: the one-time password replaced by `chosen` before any page opens. */
export async function choosePassword(page: Page, chosen: string): Promise<void> {
  await page.locator('#setup-password').waitFor();
  await page.fill('#new-password', chosen);
  await page.fill('#repeat-password', chosen);
  await page.locator('#setup-password').getByRole('button', { name: 'Change password' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/setup'));
}

const TOTP_STEP_MS = 30_000;
/** The last time step whose code a sign-in here used, per secret: the server takes each step once. */
const usedSteps = new Map<string, number>();

/**
 * A code the server takes (one step either side of its clock, each step once): the step after the last
 * one used, counting the current one as used (the person's activation may have spent it). When the next
 * step is spent too, the code waits for the clock's step to move on: TOTP's own time, nothing else to wait for.
 */
async function unusedTotpCode(secret: string): Promise<string> {
  for (;;) {
    const current = Math.floor(Date.now() / TOTP_STEP_MS);
    const step = Math.max(usedSteps.get(secret) ?? current, current) + 1;
    if (step <= current + 1) {
      usedSteps.set(secret, step);
      return totpCode(secret, step * TOTP_STEP_MS);
    }
    await new Promise((r) => setTimeout(r, (current + 1) * TOTP_STEP_MS - Date.now() + 50));
  }
}

/**
 * Signs in through the form and waits for the signed-in header. With `chosen`, the password is a
 * one-time one: /setup replaces it by `chosen` first.
 */
export async function signIn(page: Page, adminUrl: string, who: { email: string; password: string; chosen?: string; totpSecret?: string }): Promise<void> {
  await submitSignIn(page, adminUrl, who.email, who.password);
  if (who.totpSecret) {
    // The password was right: the form asks for the code (its 401 TOTP_REQUIRED is the question, not a problem).
    await page.locator('input[name=totp]').waitFor();
    await page.fill('input[name=totp]', await unusedTotpCode(who.totpSecret));
    await page.click('button[type=submit]');
  }
  if (who.chosen !== undefined) await choosePassword(page, who.chosen);
  await page.locator('header .who').waitFor();
  if (who.chosen !== undefined) await confirmOnceSetUp(adminUrl, who.email);
}

/**
 * Issue #69: a person decides only once a second admin confirmed them, after they set up their
 * account. A person set up through the form here is confirmed then by a second (stand-in) admin, as
 * activatedPerson does; one whose role still owes TOTP is left to the test.
 */
async function confirmOnceSetUp(adminUrl: string, email: string): Promise<void> {
  const root = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const res = await fetch(`${adminUrl}/admin/users`, { headers: root });
  if (res.status !== 200) throw new Error(`the team's list: ${res.status} ${await res.text()}`);
  const { data } = (await res.json()) as { data: { id: string; email: string; activated?: boolean; confirmedAt?: string | null }[] };
  const person = data.find((u) => u.email.toLowerCase() === email.toLowerCase());
  if (person?.activated && !person.confirmedAt) await confirmPerson(adminUrl, root, person.id);
}

/** For `height`: a 390 px phone as tall as one (390 × 844), where a test looks at what fits on its screen. */
export const phoneHeight = (width: number) => (width === 390 ? 844 : 900);

export interface ConsoleBrowserOptions {
  /** The password each person chooses at their first sign-in; without it, people come with their own already (activatedPerson). */
  passphrase?: string;
  /** Every context's options besides the viewport: locale, acceptDownloads. */
  context?: Omit<BrowserContextOptions, 'viewport'>;
  /** The browser's own language (pt-BR, en-US): its date and number inputs follow it (chromiumLaunchIn); en-US unless said. */
  browserLanguage?: string;
  /** The viewport's height at a width: 900 unless a file checks a real phone (390 × 844). */
  height?: (width: number) => number;
  /** Say yes to every confirm() the console asks (a change that stops something asks first). */
  acceptDialogs?: boolean;
  /** What counts as a problem (see WatchOptions); a problem's label is the page's width unless `label` makes it from the person's e-mail too. */
  watch?: Omit<WatchOptions, 'label'> & { label?: (email: string, width: number) => string };
  /** Anything else a file listens to on each page, set before the sign-in. */
  onPage?: (page: Page) => void;
}

export interface ConsoleBrowser {
  /** What went wrong on any page opened by signedIn: a test at the end expects none. */
  problems: string[];
  /** A page of its own (a new context) at `width`, its person signed in; `watch` adjusts what counts as a problem on it. */
  signedIn(who: Person, width: number, watch?: WatchOptions): Promise<Page>;
}

/** Chromium for the console, and people signed in to it, each page watched for problems. */
export async function consoleBrowser(t: Teardown, adminUrl: string, options: ConsoleBrowserOptions = {}): Promise<ConsoleBrowser> {
  const browser = await launchChromium(t, options.browserLanguage);
  const problems: string[] = [];
  /** Who chose their own password already: their next sign-in skips /setup. */
  const setUp = new Set<string>();
  const { passphrase, height = () => 900, watch: { label = (_email: string, width: number) => `${width}`, ...watch } = {} } = options;
  async function signedIn(who: Person, width: number, override: WatchOptions = {}): Promise<Page> {
    const context = await browser.newContext({ ...options.context, viewport: { width, height: height(width) } });
    const page = await context.newPage();
    const email = emailOf(who);
    const watching = { ...watch, ...override };
    const { responses = true } = watching;
    // A sign-in with a code first answers 401 TOTP_REQUIRED, the form's question for the code.
    const asksCode = (r: Response) =>
      who.totpSecret !== undefined && r.status() === 401 && r.request().method() === 'POST' && new URL(r.url()).pathname === '/console/session';
    watchProblems(page, problems, {
      ...watching,
      label: label(email, width),
      responses: responses && ((r) => !asksCode(r) && (responses === true || responses(r))),
    });
    if (options.acceptDialogs) page.on('dialog', (d) => void d.accept());
    options.onPage?.(page);
    if (passphrase === undefined) await signIn(page, adminUrl, { email, password: who.password, totpSecret: who.totpSecret });
    else if (setUp.has(email)) await signIn(page, adminUrl, { email, password: passphrase });
    else {
      await signIn(page, adminUrl, { email, password: who.password, chosen: passphrase });
      setUp.add(email);
    }
    return page;
  }
  return { problems, signedIn };
}
