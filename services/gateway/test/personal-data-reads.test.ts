// Who read what (issue #69 item 3): a player's CPF, phone, address and sign-up IP are masked in every
// admin answer that carries them (a player's file, a search, a deposit's payer) unless the request
// reveals them (`?reveal=`), and every such read is recorded before it is answered (who, which
// player, which fields and which revealed, the operation and its route), as is every read of a
// regulator; compliance reads the log (GET /admin/personal-data-reads), by player and by person.
import t from 'tap';
import { activatedPerson } from '@bo/test-support';
import { startHarness, ADMIN_TOKEN } from './support/harness.ts';
import { fakeService } from './support/fake-service.ts';
import { maskCpf, maskIp, maskPersonalData, maskPhone } from '../src/admin/personal-data.ts';

const ANA = {
  id: 'plr_ana',
  name: 'Ana Souza',
  cpf: '123.456.789-09',
  phone: '+5511987654321',
  signupIp: '203.0.113.7',
  address: { street: 'Av. Paulista', number: '1000', district: 'Bela Vista', city: 'São Paulo', state: 'SP', postalCode: '01310-100' },
};
const BIA = { id: 'plr_bia', name: 'Bia Lima', cpf: '98765432100', phone: '+5521912345678', signupIp: '2001:db8::1', address: null };

t.test('the masks', async (t) => {
  t.equal(maskCpf('123.456.789-09'), '***.456.789-**');
  t.equal(maskCpf('12345678909'), '***.456.789-**');
  t.equal(maskPhone('+5511987654321'), '+*********4321');
  t.equal(maskIp('203.0.113.7'), '203.0.*.*');
  t.equal(maskIp('2001:db8::1'), '2001:db8:*');
});

t.test("a payout's destination that is the player's CPF or phone", async (t) => {
  const queue = () => ({
    data: [
      { id: 'wd_1', playerId: 'plr_ana', method: 'pix', destination: '11144477735' },
      { id: 'wd_2', playerId: 'plr_bia', method: 'pix', destination: '+5521912345678' },
      { id: 'wd_3', playerId: 'plr_ana', method: 'ted', destination: '341/0001/12345-6/111.444.777-35' },
      { id: 'wd_4', playerId: 'plr_bia', method: 'pix', destination: 'bia@example.com' },
      { id: 'wd_5', playerId: 'plr_bia', method: 'pix', destination: '123e4567-e89b-12d3-a456-426614174000' },
    ],
  });
  const masked = queue();
  const reads = maskPersonalData('adminListWithdrawalQueue', masked, new Set());
  t.same(
    masked.data.map((w) => w.destination),
    ['***.444.777-**', '+*********5678', '341/0001/12345-6/***.444.777-**', 'bia@example.com', '123e4567-e89b-12d3-a456-426614174000'],
    'a CPF key, a phone key and a TED holder masked as the fields they are; an e-mail or random key as given',
  );
  t.same(
    reads,
    [
      { playerId: 'plr_ana', fields: ['cpf'], revealed: [] },
      { playerId: 'plr_bia', fields: ['phone'], revealed: [] },
    ],
    'recorded as reads of those fields of the player the withdrawal is of',
  );
  const whole = queue();
  t.same(maskPersonalData('adminListWithdrawalQueue', whole, new Set(['cpf'])), [
    { playerId: 'plr_ana', fields: ['cpf'], revealed: ['cpf'] },
    { playerId: 'plr_bia', fields: ['phone'], revealed: [] },
  ]);
  t.same(
    whole.data.map((w) => w.destination).slice(0, 3),
    ['11144477735', '+*********5678', '341/0001/12345-6/111.444.777-35'],
    '?reveal=cpf shows the CPF keys whole, not the phone',
  );
});

t.test("our team's reads of personal data", async (t) => {
  const h = await startHarness({});
  const file = await fakeService(h, 'players.admin.get');
  file.respond = async () => ({ ok: true, status: 200, body: { player: { ...ANA, address: { ...ANA.address } }, kyc: { submissions: [] } } });
  const search = await fakeService(h, 'players.admin.search');
  search.respond = async () => ({ ok: true, status: 200, body: { data: [{ ...ANA, address: { ...ANA.address } }, { ...BIA }] } });
  const deposits = await fakeService(h, 'payments.admin.deposits');
  deposits.respond = async () => ({
    ok: true,
    status: 200,
    body: { data: [{ id: 'dep_1', playerId: 'plr_ana', amount: '10.00', payer: { cpf: '11144477735', name: 'Someone Else' } }] },
  });
  // An access request's file: one chunk of JSON, or refused for a request without one.
  const accessFile = await fakeService(h, 'players.admin.dataRequests.download');
  accessFile.respond = async (req) =>
    req.params.requestId === 'dsr_deletion'
      ? { ok: false, error: { code: 'DATA_REQUEST_NO_FILE', message: 'No file.' } }
      : {
          ok: true,
          status: 200,
          body: {
            filename: 'personal-data-dsr_1.json',
            contentType: 'application/json; charset=utf-8',
            chunk: JSON.stringify({ player: ANA }),
            nextCursor: null,
          },
        };
  t.teardown(async () => {
    for (const f of [file, search, deposits, accessFile]) await f.close();
    await h.close();
  });
  const url = h.gateways[0]!.adminUrl;
  const root = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const sam = await activatedPerson(url, root, { email: 'sam@ourteam.example', role: 'support', token: false });
  const clara = await activatedPerson(url, root, { email: 'clara@ourteam.example', role: 'compliance', token: false });
  const get = (who: { cookie: string }) => async (p: string) => {
    const res = await fetch(`${url}${p}`, { headers: { cookie: who.cookie } });
    return { status: res.status, body: (await res.json()) as any };
  };
  const log = async (q: string) => (await get(clara)(`/admin/personal-data-reads?${q}`)).body.data as any[];

  t.test("a player's page is masked by default, and the read recorded", async (t) => {
    const page = await get(sam)('/admin/players/plr_ana');
    t.equal(page.status, 200);
    t.match(page.body.player, {
      name: 'Ana Souza',
      cpf: '***.456.789-**',
      phone: '+*********4321',
      signupIp: '203.0.*.*',
      address: { street: '***', number: '***', district: '***', city: 'São Paulo', state: 'SP', postalCode: '***' },
    });
    t.notMatch(JSON.stringify(page.body), /123\.456\.789-09|987654321|Paulista|203\.0\.113\.7/, 'nothing whole');
    const [row] = await log(`playerId=plr_ana&actorId=${sam.id}`);
    t.match(row, {
      actor: `user:${sam.email}`,
      actorId: sam.id,
      role: 'support',
      playerId: 'plr_ana',
      revealed: [],
      operation: 'adminGetPlayer',
      route: 'GET /admin/players/:id',
      at: /Z$/,
    });
    t.same([...row.fields].sort(), ['address', 'cpf', 'phone', 'signupIp']);
  });

  t.test('a deliberate reveal shows what it names, and is recorded as such', async (t) => {
    const page = await get(sam)('/admin/players/plr_ana?reveal=cpf,phone');
    t.match(page.body.player, { cpf: '123.456.789-09', phone: '+5511987654321', signupIp: '203.0.*.*', address: { street: '***' } });
    t.equal(file.calls.at(-1)?.query.reveal, undefined, 'the gateway keeps ?reveal= to itself');
    const [row] = await log('revealed=true');
    t.match(row, { actorId: sam.id, playerId: 'plr_ana' });
    t.same([...row.revealed].sort(), ['cpf', 'phone']);
    t.match((await get(sam)('/admin/players/plr_ana?reveal=all')).body.player, { signupIp: '203.0.113.7', address: { street: 'Av. Paulista' } });
    const bad = await get(sam)('/admin/players/plr_ana?reveal=password');
    t.same([bad.status, bad.body.error.code, bad.body.error.details.issues[0].path], [422, 'VALIDATION_ERROR', '/reveal']);
  });

  t.test('a list: one row per player it showed, in one insert; a payer read as its player', async (t) => {
    const found = await get(sam)('/admin/players?q=Souza');
    t.same(
      found.body.data.map((p: { cpf: string }) => p.cpf),
      ['***.456.789-**', '***.654.321-**'],
    );
    const rows = (await log(`actorId=${sam.id}`)).filter((r) => r.operation === 'adminSearchPlayers');
    t.same(rows.map((r) => r.playerId).sort(), ['plr_ana', 'plr_bia']);
    t.equal(new Set(rows.map((r) => r.requestId)).size, 1, 'from one request');
    t.same(rows.find((r) => r.playerId === 'plr_bia').fields.sort(), ['cpf', 'phone', 'signupIp'], 'an address of none is no read');
    const dep = await get(clara)('/admin/deposits?playerId=plr_ana');
    t.equal(dep.body.data[0].payer.cpf, '***.444.777-**', "a deposit's payer is masked too");
    t.match(await log(`actorId=${clara.id}&playerId=plr_ana`), [{ operation: 'adminListDeposits', fields: ['cpf'] }]);
  });

  t.test("an access request's file: whole, for compliance only, recorded as a read of every field revealed once answered", async (t) => {
    const path = (id: string) => `/admin/players/plr_ana/data-requests/${id}/file`;
    const got = await get(clara)(path('dsr_1'));
    t.equal(got.status, 200);
    t.equal(got.body.player.cpf, '123.456.789-09', 'the file is the answer the operator reads: nothing masked');
    const [row] = (await log(`actorId=${clara.id}&playerId=plr_ana`)).filter((r) => r.operation === 'adminGetDataRequestFile');
    t.match(row, { role: 'compliance', route: 'GET /admin/players/:playerId/data-requests/:requestId/file' });
    t.same(
      [row.fields.sort(), row.revealed.sort()],
      [
        ['address', 'cpf', 'phone', 'signupIp'],
        ['address', 'cpf', 'phone', 'signupIp'],
      ],
      'every field, revealed',
    );
    const before = (await log(`actorId=${clara.id}&playerId=plr_ana`)).length;
    const refused = await get(clara)(path('dsr_deletion'));
    t.same([refused.status, refused.body.error.code], [409, 'DATA_REQUEST_NO_FILE']);
    t.equal((await log(`actorId=${clara.id}&playerId=plr_ana`)).length, before, 'a refused download read nothing: nothing recorded');
    const support = await get(sam)(path('dsr_1'));
    t.same([support.status, support.body.error.code], [403, 'FORBIDDEN_ROLE'], "support lists the requests, and does not read a player's file");
  });

  t.test('compliance reads the log; support does not', async (t) => {
    const refused = await get(sam)('/admin/personal-data-reads');
    t.same([refused.status, refused.body.error.code], [403, 'FORBIDDEN_ROLE']);
    const all = await get(clara)('/admin/personal-data-reads?limit=2');
    t.equal(all.body.data.length, 2);
    t.equal(all.body.hasMore, true);
    const next = await get(clara)(`/admin/personal-data-reads?limit=2&startingAfter=${all.body.data[1].id}`);
    t.notSame(next.body.data[0].id, all.body.data[1].id, 'the next page follows');
  });

  t.test('every read of a regulator is recorded, and visible to compliance', async (t) => {
    const inspector = await activatedPerson(url, root, { email: 'fiscal@spa.example', role: 'regulator', token: false, confirm: false });
    t.equal((await get(inspector)('/admin/operators')).status, 200);
    t.equal((await get(inspector)('/admin/players/plr_ana')).body.player.cpf, '***.456.789-**', 'masked for the regulator too');
    const rows = await log(`actorId=${inspector.id}`);
    t.match(rows, [
      { role: 'regulator', operation: 'adminGetPlayer', playerId: 'plr_ana' },
      { role: 'regulator', operation: 'adminListOperators', playerId: null, fields: [], route: 'GET /admin/operators' },
    ]);
    t.equal((await get(inspector)('/admin/personal-data-reads')).status, 200, 'the regulator reads the log too');
  });
});
