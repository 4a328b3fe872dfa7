// Issue #59 item 5: the game register and certified games only under br-spa. Our team records a
// game's certificate (laboratory, number, certified RTP, version, issued and valid-until dates, the
// regulator's reference: audited in the change's transaction); a br-spa production bet on a casino
// game with no certificate valid at the bet's time is refused GAME_NOT_CERTIFIED and moves nothing,
// whether the session was just read or kept by the wallet; the register tells each game's state
// (valid, expiring within 30 days, expired, missing), the metrics count them, and the daily
// regulator file's lines name the certificate. The real players and wallet services on real
// Postgres and NATS; verifyLedger after.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { adminScope, BR_SPA_LIMITS, gamesServicesWith, scopes, setComplianceProfile, startFakeProvider, startGamesStack } from '@bo/test-support';
import { setRuleClockOffset } from '@bo/service-kit/testing';
import { WalletConfigSchema } from '../src/config.ts';
import { walletServiceWith } from '../src/service.ts';

const services = gamesServicesWith(() => ({ service: walletServiceWith(), config: WalletConfigSchema }));
const live = scopes.production;
const internal = { kind: 'internal' as const, service: 'compliance' };
const txId = (label: string) => `${label}-${randomBytes(6).toString('hex')}`;
const code = (r: any) => (r.ok ? `ok:${r.status}` : r.error.code);
const DAY = 86_400_000;
/** A calendar day in Brasília, `days` from today. */
const day = (days: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + days * DAY));

t.test('the game register: certified games only under br-spa', async (t) => {
  setRuleClockOffset(0);
  const h = await startGamesStack(t, services);
  const fake = await startFakeProvider(t);
  const sub = h.wallet.nc.subscribe(`${h.prefix}.rpc.operators.status.get`, {
    callback: (_e, msg) => {
      msg.respond(JSON.stringify({ ok: true, status: 200, body: { status: 'active' } }));
    },
  });
  t.teardown(() => sub.unsubscribe());
  const admin = async (subject: string, params: Record<string, string>, body?: unknown, query?: Record<string, unknown>) => {
    const r = await h.call(subject, adminScope, { params, ...(body === undefined ? {} : { body }), ...(query ? { query } : {}) });
    if (!r.ok) throw new Error(`${subject}: ${JSON.stringify(r)}`);
    return r.body;
  };
  const provider = await admin('wallet.admin.providers.create', {}, { name: `Aggregator ${txId('p')}`, kind: 'casino', launchUrl: fake.url });
  const codes = ['sweet-fruits', 'old-slot', 'new-slot', 'soon-slot'];
  const games: Record<string, { id: string }> = {};
  for (const c of codes) games[c] = await admin('wallet.admin.providers.putGame', { id: provider.id, gameCode: c }, { name: c, category: 'slots' });
  await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: live.operatorId }, { enabled: true });
  const pscope = { kind: 'provider' as const, providerId: provider.id, environment: 'production' as const };
  const bet = (token: string, gameCode: string) =>
    h.call('wallet.provider.bet', pscope, { body: { transactionId: txId('bet'), token, roundId: txId('round'), gameCode, amount: '10.00', currency: 'BRL' } });
  const certify = (gameCode: string, number: string, body: Record<string, unknown>) =>
    h.call('wallet.admin.providers.putCertificate', adminScope, { params: { id: provider.id, gameCode, certificateNumber: number }, body });
  const certificate = { laboratory: 'GLI', certifiedRtp: '96.50', version: '1.2.0', regulatorReference: 'SPA-CERT-2031-0001' };
  const available = async (playerId: string) => ((await h.call('wallet.get', live, { params: { playerId } })) as any).body.available;

  t.equal((await setComplianceProfile((s, sc, o) => h.call(s, sc, o), live.operatorId, 'br-spa')).ok, true, 'br-spa switched on');
  t.teardown(() => setComplianceProfile((s, sc, o) => h.call(s, sc, o), live.operatorId, 'off'));
  const player = await h.createPlayer(live, { kyc: 'aprovado', limits: BR_SPA_LIMITS });
  await h.credit(live, player, '100.00');
  await h.openSession(t, live, player, games['sweet-fruits']!.id);
  const token = fake.requests.at(-1)!.body.token as string;

  t.test('a certificate is recorded by its number, checked, and audited', async (t) => {
    t.equal(
      code(await certify('sweet-fruits', 'GLI-1', { ...certificate, issuedOn: day(0), validUntil: day(-1) })),
      'VALIDATION_ERROR',
      'valid until before its issue',
    );
    t.equal(code(await certify('no-such-game', 'GLI-1', { ...certificate, issuedOn: day(-1), validUntil: day(1) })), 'GAME_NOT_FOUND');
    t.equal(
      code(await certify('sweet-fruits', 'GLI-1', { ...certificate, certifiedRtp: '101', issuedOn: day(-1), validUntil: day(1) })),
      'VALIDATION_ERROR',
      'an RTP over 100',
    );
    t.equal(
      (
        (await h.call('wallet.admin.providers.putCertificate', adminScope, {
          params: { id: 'prv_nope', gameCode: 'x', certificateNumber: 'y' },
          body: { ...certificate, issuedOn: day(-1), validUntil: day(1) },
        })) as any
      ).error?.code,
      'PROVIDER_NOT_FOUND',
    );
  });

  t.test('br-spa: a bet on a game without a valid certificate is refused and moves nothing; once certified it is taken', async (t) => {
    const refused = (await bet(token, 'sweet-fruits')) as any;
    t.match(refused, { ok: false, error: { code: 'GAME_NOT_CERTIFIED', details: { gameCode: 'sweet-fruits' } } }, 'no certificate: refused');
    t.equal(await available(player), '100.00', 'nothing moved');

    const recorded = (await certify('sweet-fruits', 'GLI-BR-0001', { ...certificate, volatility: '7.5', issuedOn: day(-365), validUntil: day(400) })) as any;
    t.match(recorded, {
      ok: true,
      body: {
        id: /^gcr_/,
        providerId: provider.id,
        gameCode: 'sweet-fruits',
        laboratory: 'GLI',
        certificateNumber: 'GLI-BR-0001',
        certifiedRtp: '96.50',
        volatility: '7.50',
        version: '1.2.0',
        issuedOn: day(-365),
        validUntil: day(400),
        regulatorReference: 'SPA-CERT-2031-0001',
      },
    });
    const [audit] = await h.sql<{ data: any }>(
      `select payload::jsonb -> 'data' as data from wallet.outbox where subject_type = 'audit.recorded' and payload::jsonb -> 'data' ->> 'action' = 'adminPutGameCertificate' order by seq limit 1`,
    );
    t.match(audit?.data, { target: `provider:${provider.id}`, before: null, after: { certificateNumber: 'GLI-BR-0001' } }, 'audited in its transaction');
    t.equal(code(await bet(token, 'sweet-fruits')), 'ok:200', 'certified: taken');

    // The session is now kept by the wallet: the certificate ending (a correction of its dates) is seen by the bet's own statement.
    t.equal(
      code(await certify('sweet-fruits', 'GLI-BR-0001', { ...certificate, issuedOn: day(-365), validUntil: day(-1) })),
      'ok:200',
      'its end corrected to yesterday',
    );
    t.equal(code(await bet(token, 'sweet-fruits')), 'GAME_NOT_CERTIFIED', 'ended: refused, the session kept or not');
    t.equal(
      code(await certify('sweet-fruits', 'GLI-BR-0002', { ...certificate, version: '1.3.0', issuedOn: day(0), validUntil: day(400) })),
      'ok:200',
      'renewed',
    );
    t.equal(code(await bet(token, 'sweet-fruits')), 'ok:200', 'taken again');

    t.equal(code(await certify('old-slot', 'BMM-7', { ...certificate, laboratory: 'BMM', issuedOn: day(-400), validUntil: day(-2) })), 'ok:200');
    t.equal(code(await bet(token, 'old-slot')), 'GAME_NOT_CERTIFIED', 'a game whose certificate ended');
    t.equal(code(await bet(token, 'new-slot')), 'GAME_NOT_CERTIFIED', 'a game never certified');
    t.equal(await available(player), '80.00', 'only the two bets taken moved money');
  });

  t.test('the register: each game by its certificate now; the metrics count them', async (t) => {
    t.equal(code(await certify('soon-slot', 'EC-3', { ...certificate, laboratory: 'eCOGRA', issuedOn: day(-300), validUntil: day(10) })), 'ok:200');
    const register = await admin('wallet.admin.providers.gameRegister', { id: provider.id });
    const by = Object.fromEntries(register.data.map((g: any) => [g.gameCode, g]));
    t.match(by['sweet-fruits'], { state: 'valid', daysLeft: 400, current: { certificateNumber: 'GLI-BR-0002' } }, 'valid');
    t.same(
      by['sweet-fruits'].certificates.map((c: any) => c.certificateNumber),
      ['GLI-BR-0002', 'GLI-BR-0001'],
      'its certificates, newest end first',
    );
    t.match(by['soon-slot'], { state: 'expiring', daysLeft: 10 }, 'ending within 30 days: the console warns');
    t.match(by['old-slot'], { state: 'expired', daysLeft: null, current: { certificateNumber: 'BMM-7' } }, 'expired');
    t.match(by['new-slot'], { state: 'missing', daysLeft: null, current: null, certificates: [] }, 'never certified');
    const warnings = await admin('wallet.admin.gameCertificates.warnings', {});
    t.same(
      warnings.data.map((w: any) => [w.gameCode, w.state, w.daysLeft, w.certificateNumber]),
      [
        ['old-slot', 'expired', null, 'BMM-7'],
        ['soon-slot', 'expiring', 10, 'EC-3'],
      ],
      "the console's warning across providers: ended, then ending within 30 days",
    );
    const scrape = await h.wallet.metrics.metrics();
    const gauge = (state: string) => Number(new RegExp(`bo_game_certificates\\{state="${state}",service="wallet"\\} (\\d+)`).exec(scrape)?.[1]);
    t.same(
      { valid: gauge('valid'), expiring: gauge('expiring'), expired: gauge('expired'), missing: gauge('missing') },
      { valid: 1, expiring: 1, expired: 1, missing: 1 },
      'bo_game_certificates by state (the alert fires on expired)',
    );
  });

  t.test("the daily regulator file's lines name the certificate valid at their time", async (t) => {
    t.equal((await setComplianceProfile((s, sc, o) => h.call(s, sc, o), live.operatorId, 'off')).ok, true, 'br-spa off');
    t.equal(code(await bet(token, 'new-slot')), 'ok:200', "outside Brazil's rules an uncertified game takes bets");
    const from = new Date(Date.now() - DAY).toISOString();
    const to = new Date(Date.now() + DAY).toISOString();
    const lines = (await h.call('wallet.regulator.providerMoves', internal, { body: { brandId: live.brandId, from, to, limit: 1000 } })) as any;
    const bets = lines.body.data.filter((l: any) => l.playerId === player && l.kind === 'bet');
    t.same(
      bets.map((l: any) => [l.gameCode, l.certificate?.certificateNumber ?? null]),
      [
        ['sweet-fruits', 'GLI-BR-0002'],
        ['sweet-fruits', 'GLI-BR-0002'],
        ['new-slot', null],
      ],
      "each bet with its game's certificate valid then as the register has it (GLI-BR-0001 corrected to end yesterday), or none",
    );
    t.match(bets[1].certificate, { laboratory: 'GLI', version: '1.3.0', certifiedRtp: '96.50', regulatorReference: 'SPA-CERT-2031-0001' });
    const v = await h.verifyLedger();
    t.same({ ok: v.ok, mismatches: v.mismatches }, { ok: true, mismatches: [] }, 'verifyLedger holds');
  });
});
