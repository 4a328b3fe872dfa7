// A connector on the console's Providers page (issue #58 item 6, docs/connectors.md), in Chromium
// against the real processes: an admin of our team registers a Hub88 provider, sets its sandbox
// connector (Hub88's operator_id and Games API URL), uploads Hub88's public key, makes a key pair of
// ours and downloads its public key (the file is the public key the admin API answers, never a
// private one), and reads the connector's health once Hub88 has called (a good call and a badly
// signed one). At 1280 px and on a 390 px phone, with no request refused and no page error.
import t from 'tap';
import { chromium, type Browser, type Page } from 'playwright-core';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { signHub88 } from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import { startStack } from './support/stack.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSPHRASE = 'amber harbour steady violin forty';
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

t.test('a Hub88 connector on the Providers page', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const created = await stack.admin('POST', '/admin/users', { email: 'hugo.connectors@ourteam.example', role: 'admin' });
  t.equal(created.status, 201, 'an admin of our team');
  const hub88 = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  t.teardown(() => browser.close());
  const problems: string[] = [];
  let passwordSet = false;
  async function signedIn(width: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${width}: ${r.status()} ${r.url()}`);
    });
    page.on('pageerror', (e) => problems.push(`${width}: ${e.message}`));
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${stack.adminUrl}/`);
    await page.fill('input[name=email]', created.body.user.email);
    await page.fill('input[name=password]', passwordSet ? PASSPHRASE : created.body.password);
    await page.click('button[type=submit]');
    if (!passwordSet) {
      await page.locator('#setup-password').waitFor();
      await page.fill('#new-password', PASSPHRASE);
      await page.fill('#repeat-password', PASSPHRASE);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/setup'));
      passwordSet = true;
    }
    await page.locator('header .who').waitFor();
    await page.goto(`${stack.adminUrl}/providers`);
    await page.locator('form[aria-label="New provider"]').waitFor();
    return page;
  }
  let providerId = '';

  t.test('register with protocol hub88; settings; their key uploaded; ours made and downloaded; health', async (t) => {
    const page = await signedIn(1280);
    const form = page.locator('form[aria-label="New provider"]');
    await form.locator('input[name=name]').fill('Console Hub88');
    await form.locator('select[name=protocol]').selectOption('hub88');
    await form.getByRole('button', { name: 'Create' }).click();
    const card = page.locator('article[data-provider]', { hasText: 'Console Hub88' });
    await card.waitFor();
    t.equal(await card.locator('[data-protocol]').textContent(), 'hub88', 'the protocol shown');
    t.equal(await card.locator('section[aria-label="Provider keys"]').count(), 0, 'no /provider/v1 keys for a connector');
    const provider = ((await stack.admin('GET', '/admin/providers')).body.data as any[]).find((p) => p.name === 'Console Hub88');
    providerId = provider.id;
    t.equal(provider.protocol, 'hub88');

    const sandbox = card.locator('section[data-environment=sandbox]');
    t.equal(
      await sandbox.locator('[data-endpoint]').textContent(),
      `${stack.publicUrl}/connectors/hub88/${provider.id}/sandbox`,
      'the endpoint URL to hand Hub88',
    );
    const settings = sandbox.locator('form[aria-label="Connector settings"]');
    await settings.locator('input[name=operatorId]').fill('31');
    await settings.locator('input[name=apiBaseUrl]').fill('https://api.server1.ih.testenv.io');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await waitFor(
      async () =>
        (await stack.admin('GET', `/admin/providers/${provider.id}/connector`)).body.environments.find((e: any) => e.environment === 'sandbox').settings
          ?.operatorId === 31,
      { what: 'the settings saved' },
    );

    const upload = sandbox.locator('form[aria-label="Upload their public key"]');
    await upload.locator('textarea[name=publicKey]').fill(String(hub88.publicKey.export({ type: 'spki', format: 'pem' })));
    await upload.getByRole('button', { name: 'Upload their key' }).click();
    await sandbox.locator('tr[data-owner=theirs][data-status=active]').waitFor();

    await sandbox.locator('form[aria-label="New key pair of ours"]').getByRole('button', { name: 'New key pair of ours' }).click();
    const ours = sandbox.locator('tr[data-owner=ours][data-status=active]');
    await ours.waitFor();
    const href = (await ours.getByRole('link', { name: 'Download public key' }).getAttribute('href')) ?? '';
    const downloaded = decodeURIComponent(href.replace(/^data:application\/x-pem-file;charset=utf-8,/, ''));
    const connector = (await stack.admin('GET', `/admin/providers/${provider.id}/connector`)).body;
    const sandboxView = connector.environments.find((e: any) => e.environment === 'sandbox');
    t.same(sandboxView.settings, { operatorId: 31, apiBaseUrl: 'https://api.server1.ih.testenv.io' }, 'the settings saved');
    const ourKey = sandboxView.keys.find((k: any) => k.owner === 'ours');
    t.equal(downloaded, ourKey.publicKey, 'the file is our public key as the admin API has it');
    t.match(downloaded, /^-----BEGIN PUBLIC KEY-----/);
    t.notMatch(downloaded, /PRIVATE/, 'never a private key');

    // Hub88 calls: a balance with a token we never issued (answered, counted), and one badly signed.
    const body = JSON.stringify({ user: 'plr_unknown', token: 'pst_unknown', request_uuid: randomUUID() });
    const callHub88 = (signature: string) =>
      fetch(`${stack.publicUrl}/connectors/hub88/${provider.id}/sandbox/user/balance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub88-signature': signature },
        body,
      }).then((r) => r.json());
    t.match(await callHub88(signHub88(body, hub88.privateKey)), { status: 'RS_ERROR_INVALID_TOKEN' });
    t.match(await callHub88(signHub88(body, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey)), { status: 'RS_ERROR_INVALID_SIGNATURE' });
    // The gateways report their counts every few seconds: once the admin API has both, the page, reloaded, shows them.
    await waitFor(
      async () => {
        const v = (await stack.admin('GET', `/admin/providers/${provider.id}/connector`)).body;
        const counted = v.environments.find((e: any) => e.environment === 'sandbox').health.byStatus;
        return counted.RS_ERROR_INVALID_TOKEN === 1 && counted.RS_ERROR_INVALID_SIGNATURE === 1;
      },
      { what: "the connector's health report" },
    );
    await page.reload();
    const health = page.locator('article[data-provider]', { hasText: 'Console Hub88' }).locator('section[data-environment=sandbox] [data-health]');
    t.equal(await health.locator('tr[data-status=RS_ERROR_INVALID_TOKEN] td').last().textContent(), '1', 'refusals by status');
    t.equal(await health.locator('[data-error-rate]').textContent(), '50.0%', 'a bad signature is a fault; a token we do not know is a refusal');
    t.notMatch(await health.locator('[data-last-call]').textContent(), /—/, 'the last call');
    await page.context().close();
  });

  t.test('at 390 px', async (t) => {
    const page = await signedIn(390);
    const card = page.locator(`article[data-provider="${providerId}"]`);
    await card.locator('section[data-environment=sandbox] [data-health]').waitFor();
    const size = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth }));
    t.ok(size.page <= size.screen, `fits 390 px (page ${size.page} px)`);
    await page.context().close();
  });

  t.test('no request refused, no page error', async (t) => {
    t.same(problems, []);
  });
});
