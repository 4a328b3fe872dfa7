// The console's privacy page in Chromium against the real processes (issue #69; docs/privacy.md):
// compliance reads the players' data requests the operator filed through its API (the open ones
// first, every one under "All", each type and status in the chosen language, the operator by name)
// and who read which player's personal data (a reveal marked, with who and which data), at 1280 and
// 390 px; support, whose role is not the page's, is not offered it. And an access file larger than
// one NATS message, streamed whole to the operator through the gateway.
import t from 'tap';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
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
  await t.test('a file larger than one NATS message: streamed whole through the gateway', async (t) => {
    const sent = await c.post(
      `/players/${playerId}/communications`,
      { channel: 'email', kind: 'impediment_notice', sentAt: new Date().toISOString(), summary: 'Sua conta está bloqueada: '.repeat(8), reference: 'msg-1' },
      key(),
    );
    t.equal(sent.status, 201, 'a communication recorded');
    // Copies of it, as years of messages would be: the file then passes 1 MB (the NATS server's max_payload).
    const db = new pg.Client({ connectionString: stack.db.url });
    await db.connect();
    t.teardown(() => db.end());
    await db.query(
      `insert into players.communications
       select (jsonb_populate_record(null::players.communications, to_jsonb(m) || jsonb_build_object('id', m.id || '_' || g))).*
         from players.communications m, generate_series(1, 4000) g where m.player_id = $1`,
      [playerId],
    );
    // Its own reference: the same body as the first access request, signed within the same second, is the
    // same signature under another Idempotency-Key (401 SIGNATURE_REUSED: a quiet clean-clone run got there).
    const big = await c.post(`/players/${playerId}/data-requests`, { type: 'access', reference: 'the-big-file' }, key());
    t.match(big, { status: 201, body: { status: 'answered' } }, 'answered');
    const file = await c.get(`/players/${playerId}/data-requests/${big.body.id}/file`);
    t.equal(file.status, 200);
    t.match(file.headers.get('content-type'), /^application\/json/, 'as JSON');
    t.ok(Buffer.byteLength(file.text) > 1_048_576, `${Buffer.byteLength(file.text)} bytes, more than one message`);
    t.equal(createHash('sha256').update(file.text).digest('hex'), big.body.answer.file.sha256, 'whole: the SHA-256 the answer names');
    const messages = file.body.categories.find((x: { category: string }) => x.category === 'communications').tables[0].rows;
    t.equal(messages.length, 4001, 'every message in it');
  });

  // A read of our team that reveals the CPF, recorded by the gateway.
  const revealed = await fetch(`${stack.adminUrl}/admin/players/${playerId}?reveal=cpf`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  t.equal(revealed.status, 200, 'a read that reveals the CPF');
  // Another player's file read (masked): the filter below must leave it out.
  const other = await c.post(
    '/players',
    { externalId: uniq('pv'), name: 'Otto Outro', email: 'otto@example.com', cpf: '111.444.777-35', birthDate: '1985-02-11' },
    key(),
  );
  t.equal(other.status, 201, 'another player');
  const otherId = other.body.id as string;
  const otherRead = await fetch(`${stack.adminUrl}/admin/players/${otherId}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  t.equal(otherRead.status, 200, "the other player's file read");

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
      t.equal(await row(deletion.body.id).locator('a[data-file]').count(), 0, 'a deletion has no file to download');
      if (width === 1280) {
        // The access answer's file, downloaded as the operator reads it, and the read recorded with every field revealed.
        const [download] = await Promise.all([page.waitForEvent('download'), row(access.body.id).locator('a[data-file]').click()]);
        const path = await download.path();
        t.equal(
          createHash('sha256')
            .update(await readFile(path))
            .digest('hex'),
          access.body.answer.file.sha256,
          'the file downloaded from the console is the answer: the SHA-256 it names',
        );
        await page.reload();
      }
      const reads = page.locator('section[data-section="reads"]');
      const reveal = reads.locator('tr[data-revealed="true"]', { hasText: 'GET /admin/players/:id' }).first();
      await reveal.waitFor();
      t.match(await reveal.innerText(), /CPF[\s\S]*GET \/admin\/players\/:id/, 'the reveal: which data, from which route');
      if (width === 1280) {
        const fileRead = reads.locator('tr[data-revealed="true"]', { hasText: 'GET /admin/players/:playerId/data-requests/:requestId/file' });
        await fileRead.waitFor();
        t.match(
          await fileRead.innerText(),
          /lara\.privacy@ourteam\.example[\s\S]*CPF, phone, address, sign-up IP\s+CPF, phone, address, sign-up IP/,
          'the download: her read, every field revealed',
        );
        // One player's reads, the player chosen by name (no id typed): the other player's read leaves the list.
        const playerRows = (id: string) => reads.locator(`tr[data-read][data-player="${id}"]`);
        await playerRows(otherId).first().waitFor();
        const picker = reads.locator('[data-picker="playerId"]');
        await picker.locator('input[type="search"]').fill('Rita Priv');
        await picker.locator(`button[data-choice="${playerId}"]`).click();
        await reads.getByRole('button', { name: 'Filter' }).click();
        await playerRows(otherId).first().waitFor({ state: 'detached' });
        const shown = await reads.locator('tr[data-read]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-player')));
        t.ok(shown.length > 0 && shown.every((id) => id === playerId), `only Rita's reads (${shown.length})`);
        // A link's ?playerId= is shown by the player's name, and filters.
        await page.goto(`${stack.adminUrl}/privacy?playerId=${otherId}`);
        await picker.locator(`[data-chosen="${otherId}"]`, { hasText: 'Otto Outro' }).waitFor();
        await playerRows(otherId).first().waitFor();
        const linked = await reads.locator('tr[data-read]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-player')));
        t.ok(
          linked.every((id) => id === otherId),
          "the link's player by name, and only his reads",
        );
        await page.goto(`${stack.adminUrl}/privacy`);
      }
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
