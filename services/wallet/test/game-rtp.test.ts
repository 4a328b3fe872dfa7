// Issue #59 item 6: RTP as measured, per game and month (Brasília): the settled casino rounds' stakes
// and wins beside the certified RTP, judged only over a large enough sample (GAME_RTP_SAMPLE: at
// least 10,000 stake-weighted rounds, outside when further than 4 standard errors from the certified
// RTP), and the gauge the alert reads. A month of real play through the provider wallet API (its
// figures tie to the calls), then a past month's history of settled rounds planted in the rounds'
// table (10,000 bets and wins through NATS would take minutes on a busy 2-core machine; the report
// reads only the rounds, and verifyLedger, which reads the transactions, still holds).
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { adminScope, gamesServicesWith, scopes, startFakeProvider, startGamesStack } from '@bo/test-support';
import { setRuleClockOffset } from '@bo/service-kit/testing';
import { WalletConfigSchema } from '../src/config.ts';
import { walletServiceWith } from '../src/service.ts';
import { gamesOutsideCertificate } from '../src/providers/handlers/game-register-metrics.ts';

const services = gamesServicesWith(() => ({ service: walletServiceWith(), config: WalletConfigSchema }));
const live = scopes.production;
const txId = (label: string) => `${label}-${randomBytes(6).toString('hex')}`;
const DAY = 86_400_000;
const brasilia = (ms: number, opts: Intl.DateTimeFormatOptions = {}) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', ...opts }).format(new Date(ms));
const day = (days: number) => brasilia(Date.now() + days * DAY);

t.test('RTP as measured beside the certified RTP', async (t) => {
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
  const games: Record<string, { id: string }> = {};
  for (const code of ['coin-flip', 'fair-slot', 'new-slot'])
    games[code] = await admin('wallet.admin.providers.putGame', { id: provider.id, gameCode: code }, { name: code, category: 'slots' });
  await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: live.operatorId }, { enabled: true });
  // A double-or-nothing game's return per unit stake has a standard deviation of about 1: the laboratory's volatility.
  for (const code of ['coin-flip', 'fair-slot'])
    await admin(
      'wallet.admin.providers.putCertificate',
      { id: provider.id, gameCode: code, certificateNumber: `GLI-${code}` },
      { laboratory: 'GLI', certifiedRtp: '96.00', volatility: '1.00', version: '1.0', issuedOn: day(-90), validUntil: day(365) },
    );
  const pscope = { kind: 'provider' as const, providerId: provider.id, environment: 'production' as const };
  const p = (op: string, body: unknown) => h.call(`wallet.provider.${op}`, pscope, { body }) as Promise<any>;
  const thisMonth = brasilia(Date.now()).slice(0, 7);
  const lastMonth = brasilia(Date.parse(`${thisMonth}-01T12:00:00-03:00`) - 2 * DAY).slice(0, 7);
  const rtp = (month: string) => admin('wallet.admin.providers.rtp', { id: provider.id }, undefined, { month });

  t.test("this month's real play: its stakes and wins, too few rounds to judge", async (t) => {
    const player = await h.createPlayer(live, { kyc: 'aprovado' });
    await h.credit(live, player, '1000.00');
    await h.openSession(t, live, player, games['coin-flip']!.id);
    const token = fake.requests.at(-1)!.body.token as string;
    // 10 rounds of 10.00: 4 won 19.20, 6 lost; one more round still open, one voided (its bet rolled back): neither counts.
    for (let i = 0; i < 10; i++) {
      const roundId = txId('round');
      if (!(await p('bet', { transactionId: txId('bet'), token, roundId, gameCode: 'coin-flip', amount: '10.00', currency: 'BRL' })).ok) t.fail('bet');
      const amount = i < 4 ? '19.20' : '0.00';
      if (!(await p('win', { transactionId: txId('win'), playerId: player, roundId, amount, currency: 'BRL', roundClosed: true })).ok) t.fail('win');
    }
    await p('bet', { transactionId: txId('bet'), token, roundId: txId('open'), gameCode: 'coin-flip', amount: '5.00', currency: 'BRL' });
    const voided = { transactionId: txId('bet'), token, roundId: txId('void'), gameCode: 'coin-flip', amount: '7.00', currency: 'BRL' };
    await p('bet', voided);
    t.equal((await p('rollback', { transactionId: txId('rb'), playerId: player, betTransactionId: voided.transactionId, roundId: voided.roundId })).ok, true);

    const report = await rtp(thisMonth);
    t.match(report, { providerId: provider.id, month: thisMonth, timeZone: 'America/Sao_Paulo', sample: { minEffectiveRounds: 10000, z: 4 } });
    const coin = report.data.find((g: any) => g.gameCode === 'coin-flip');
    t.same(
      coin,
      {
        gameId: games['coin-flip']!.id,
        gameCode: 'coin-flip',
        name: 'coin-flip',
        currency: 'BRL',
        rounds: 10,
        stakes: '100.00',
        wins: '76.80',
        measuredRtp: '76.80',
        certifiedRtp: '96.00',
        effectiveRounds: 10,
        tolerance: null,
        judged: false,
        outside: null,
      },
      'the settled rounds only; 10 rounds are not a sample to judge by',
    );
    t.match(
      report.data.find((g: any) => g.gameCode === 'new-slot'),
      { currency: null, rounds: 0, stakes: '0.00', measuredRtp: null, certifiedRtp: null, judged: false },
      'a game without play or certificate is listed',
    );
    const v = await h.verifyLedger();
    t.same({ ok: v.ok, mismatches: v.mismatches }, { ok: true, mismatches: [] }, 'verifyLedger holds');
  });

  t.test('last month: a large enough sample judged against the certificate; the drifting game counted for the alert', async (t) => {
    t.equal(await gamesOutsideCertificate(h.wallet.sql, new Date()), 0, 'nothing judged outside yet');
    const plant = (gameCode: string, rounds: number, wonEvery: number, win: string) =>
      h.sql(
        `insert into wallet.provider_rounds (provider_id, round_id, kind, operator_id, brand_id, environment, player_id, currency, game_id,
                                             status, bets, wins, staked, won, opened_at, closed_at)
         select ?, ? || '-' || i, 'casino', ?, ?, 'production', 'plr_history', 'BRL', ?, 'settled', 1, 1, 1.00,
                case when i % ? = 0 then ?::numeric else 0 end, ?::timestamptz, ?::timestamptz
         from generate_series(1, ?) i`,
        [
          provider.id,
          `history-${gameCode}`,
          live.operatorId,
          live.brandId,
          games[gameCode]!.id,
          wonEvery,
          win,
          `${lastMonth}-15T12:00:00-03:00`,
          `${lastMonth}-15T12:00:05-03:00`,
          rounds,
        ],
      );
    // 12,000 rounds of 1.00: coin-flip paid 1.60 every other round (RTP 80%), fair-slot 1.92 every other (96%).
    await plant('coin-flip', 12_000, 2, '1.60');
    await plant('fair-slot', 12_000, 2, '1.92');
    const report = await rtp(lastMonth);
    const by = Object.fromEntries(report.data.map((g: any) => [g.gameCode, g]));
    // 4 × 1.00 / √12000 = 3.65 percentage points.
    t.match(by['coin-flip'], { rounds: 12000, stakes: '12000.00', wins: '9600.00', measuredRtp: '80.00', certifiedRtp: '96.00', effectiveRounds: 12000 });
    t.match(by['coin-flip'], { tolerance: '3.65', judged: true, outside: true }, '16 points below its certificate: outside');
    t.match(by['fair-slot'], { measuredRtp: '96.00', tolerance: '3.65', judged: true, outside: false }, 'as certified: within');
    t.equal(await gamesOutsideCertificate(h.wallet.sql, new Date()), 1, 'one game outside, this month or last');
    const scrape = await h.wallet.metrics.metrics();
    t.match(scrape, /bo_game_rtp_outside_certificate\{service="wallet"\} 1\b/, 'the gauge the alert reads');
  });
});
