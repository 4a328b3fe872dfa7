// A connector on the console's Providers page (issue #58 item 6, docs/connectors.md), in Chromium
// against the real processes: an admin of our team registers a Hub88 provider, sets its sandbox
// connector (Hub88's operator_id and Games API URL), uploads Hub88's public key, makes a key pair of
// ours and downloads its public key (the file is the public key the admin API answers, never a
// private one), and reads the connector's health once Hub88 has called (a good call and a badly
// signed one); then an Evolution provider: its casino key and host, its API token kept (shown by
// fingerprint only, never the value) and its health once Evolution has called (a sid we never issued,
// a wrong token); then a Betsy sportsbook: its frame page, its partner secret kept the same way, and its
// health (a token we never issued, a bad signature). At 1280 px and on a 390 px phone, with no request
// refused and no page error.
import t from 'tap';
import type { Page } from 'playwright-core';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { betsySignature, signHub88 } from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import { startStack } from './support/stack.ts';
import { consoleBrowser } from './support/console-browser.ts';

const PASSPHRASE = 'amber harbour steady violin forty';
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

t.test('a Hub88 connector on the Providers page', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const created = await stack.admin('POST', '/admin/users', { email: 'hugo.connectors@ourteam.example', role: 'admin' });
  t.equal(created.status, 201, 'an admin of our team');
  const hub88 = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const browser = await consoleBrowser(t, stack.adminUrl, { passphrase: PASSPHRASE, acceptDialogs: true });
  const { problems } = browser;
  async function signedIn(width: number): Promise<Page> {
    const page = await browser.signedIn(created.body, width);
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

  let evolutionId = '';
  t.test('register with protocol evolution; its settings; its API token kept, shown by fingerprint only; health', async (t) => {
    const page = await signedIn(1280);
    const form = page.locator('form[aria-label="New provider"]');
    await form.locator('input[name=name]').fill('Console Evolution');
    await form.locator('select[name=protocol]').selectOption('evolution');
    await form.getByRole('button', { name: 'Create' }).click();
    const card = page.locator('article[data-provider]', { hasText: 'Console Evolution' });
    await card.waitFor();
    t.equal(await card.locator('[data-protocol]').textContent(), 'evolution', 'the protocol shown');
    const provider = ((await stack.admin('GET', '/admin/providers')).body.data as any[]).find((p) => p.name === 'Console Evolution');
    evolutionId = provider.id;
    const sandbox = card.locator('section[data-environment=sandbox]');
    t.equal(
      await sandbox.locator('[data-endpoint]').textContent(),
      `${stack.publicUrl}/connectors/evolution/${provider.id}/sandbox`,
      'the endpoint URL to hand Evolution',
    );
    t.equal(await sandbox.locator('form[aria-label="Upload their public key"]').count(), 0, 'no key pairs for Evolution: it sends a token');
    const settings = sandbox.locator('form[aria-label="Connector settings"]');
    await settings.locator('input[name=casinoKey]').fill('consolecasino');
    await settings.locator('input[name=apiBaseUrl]').fill('https://consolecasino.uat1.evo-test.com');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await waitFor(
      async () =>
        (await stack.admin('GET', `/admin/providers/${provider.id}/connector`)).body.environments.find((e: any) => e.environment === 'sandbox').settings
          ?.casinoKey === 'consolecasino',
      { what: 'the Evolution settings saved' },
    );
    const token = `at_${randomUUID().replaceAll('-', '')}`;
    const keep = sandbox.locator('form[aria-label="Keep their secret"]');
    await keep.locator('select[name=name]').selectOption('authToken');
    await keep.locator('input[name=value]').fill(token);
    await keep.getByRole('button', { name: 'Keep secret' }).click();
    const row = sandbox.locator('tr[data-name=authToken][data-status=active]');
    await row.waitFor();
    const view = (await stack.admin('GET', `/admin/providers/${provider.id}/connector`)).body.environments.find((e: any) => e.environment === 'sandbox');
    t.equal(await row.locator('td[data-label=Fingerprint] code').textContent(), view.secrets[0].fingerprint, 'the fingerprint the admin API has');
    t.notOk((await page.content()).includes(token), 'the token is never shown back');

    // Evolution calls: a balance of a sid we never issued (answered, counted), and one with another token.
    const callEvolution = (authToken: string) =>
      fetch(`${stack.publicUrl}/connectors/evolution/${provider.id}/sandbox/balance?authToken=${authToken}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sid: 'pst_unknown', userId: 'plr_unknown', currency: 'BRL', uuid: randomUUID() }),
      }).then((r) => r.json());
    t.match(await callEvolution(token), { status: 'INVALID_SID' });
    t.match(await callEvolution('at_not-theirs'), { status: 'INVALID_TOKEN_ID' });
    await waitFor(
      async () => {
        const v = (await stack.admin('GET', `/admin/providers/${provider.id}/connector`)).body;
        const counted = v.environments.find((e: any) => e.environment === 'sandbox').health.byStatus;
        return counted.INVALID_SID === 1 && counted.INVALID_TOKEN_ID === 1;
      },
      { what: "the Evolution connector's health report" },
    );
    await page.reload();
    const health = page.locator('article[data-provider]', { hasText: 'Console Evolution' }).locator('section[data-environment=sandbox] [data-health]');
    t.equal(await health.locator('tr[data-status=INVALID_SID] td').last().textContent(), '1', 'refusals by status');
    t.equal(await health.locator('[data-error-rate]').textContent(), '50.0%', 'a wrong token is a fault; a sid we do not know is a refusal');
    await page.context().close();
  });

  let betsyId = '';
  t.test('register with protocol betsy; its frame page; its partner secret kept, shown by fingerprint only; health', async (t) => {
    const page = await signedIn(1280);
    const form = page.locator('form[aria-label="New provider"]');
    await form.locator('input[name=name]').fill('Console Betsy');
    await form.locator('select[name=kind]').selectOption('sportsbook');
    await form.locator('select[name=protocol]').selectOption('betsy');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.locator('article[data-provider]', { hasText: 'Console Betsy' }).waitFor();
    const provider = ((await stack.admin('GET', '/admin/providers')).body.data as any[]).find((p) => p.name === 'Console Betsy');
    betsyId = provider.id;
    // More providers than the page opens at once: this one picked.
    await page.goto(`${stack.adminUrl}/providers?provider=${provider.id}`);
    const card = page.locator(`article[data-provider="${provider.id}"]`);
    await card.locator('section[data-environment=sandbox]').waitFor();
    t.equal(await card.locator('[data-protocol]').textContent(), 'betsy', 'the protocol shown');
    const sandbox = card.locator('section[data-environment=sandbox]');
    t.equal(
      await sandbox.locator('[data-endpoint]').textContent(),
      `${stack.publicUrl}/connectors/betsy/${provider.id}/sandbox`,
      'the PARTNER_API_URL to hand Betsy',
    );
    t.equal(await sandbox.locator('form[aria-label="Upload their public key"]').count(), 0, 'no key pairs for Betsy: it signs with a shared secret');
    const settings = sandbox.locator('form[aria-label="Connector settings"]');
    await settings.locator('input[name=frameUrl]').fill('https://sports.console.example/frame');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await waitFor(
      async () =>
        (await stack.admin('GET', `/admin/providers/${provider.id}/connector`)).body.environments.find((e: any) => e.environment === 'sandbox').settings
          ?.frameUrl === 'https://sports.console.example/frame',
      { what: 'the Betsy settings saved' },
    );
    const secret = `ps_${randomUUID().replaceAll('-', '')}`;
    const keep = sandbox.locator('form[aria-label="Keep their secret"]');
    await keep.locator('select[name=name]').selectOption('partnerSecret');
    await keep.locator('input[name=value]').fill(secret);
    await keep.getByRole('button', { name: 'Keep secret' }).click();
    await sandbox.locator('tr[data-name=partnerSecret][data-status=active]').waitFor();
    t.notOk((await page.content()).includes(secret), 'the secret is never shown back');

    // Betsy calls: the profile of a token we never issued (answered, counted), and one signed with another secret.
    const callBetsy = (key: string) => {
      const body = JSON.stringify({ token: 'pst_unknown', requestId: randomUUID() });
      return fetch(`${stack.publicUrl}/connectors/betsy/${provider.id}/sandbox/user/profile`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sign-jws': betsySignature(body, key) },
        body,
      }).then((r) => r.json());
    };
    t.match(await callBetsy(secret), { code: 3 });
    t.match(await callBetsy('not-their-secret'), { code: 1 });
    await waitFor(
      async () => {
        const v = (await stack.admin('GET', `/admin/providers/${provider.id}/connector`)).body;
        const counted = v.environments.find((e: any) => e.environment === 'sandbox').health.byStatus;
        return counted.CODE_3 === 1 && counted.CODE_1 === 1;
      },
      { what: "the Betsy connector's health report" },
    );
    await page.reload();
    const health = page.locator(`article[data-provider="${provider.id}"]`).locator('section[data-environment=sandbox] [data-health]');
    t.equal(await health.locator('tr[data-status=CODE_3] td').last().textContent(), '1', 'refusals by code');
    t.equal(await health.locator('[data-error-rate]').textContent(), '50.0%', 'a bad signature is a fault; a token we do not know is a refusal');
    await page.context().close();
  });

  t.test('at 390 px', async (t) => {
    const page = await signedIn(390);
    // More providers than the page opens at once: each picked in turn.
    for (const id of [providerId, evolutionId, betsyId]) {
      await page.goto(`${stack.adminUrl}/providers?provider=${id}`);
      await page.locator(`article[data-provider="${id}"] section[data-environment=sandbox] [data-health]`).waitFor();
    }
    const size = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth }));
    t.ok(size.page <= size.screen, `fits 390 px (page ${size.page} px)`);
    await page.context().close();
  });

  t.test('no request refused, no page error', async (t) => {
    t.same(problems, []);
  });
});
