// A br-spa player whose registration lacks the data Portaria 1.231/2024 art. 31 as amended asks for
// (issue #60 item 1) stakes nothing anywhere money is staked: our games refuse the session and a
// provider's bet through the provider wallet (and so every connector, which answers through it) is
// refused with 403 RG_BLOCKED `registration_incomplete` naming what is missing, moving no money; once
// the operator completes the data (PATCH /players/{playerId}) both are taken. The real players and
// wallet services on real Postgres and NATS; verifyLedger after.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import {
  BR_SPA_LIMITS,
  BR_SPA_REGISTRATION,
  adminScope,
  certifiedGame,
  gamesServicesWith,
  PUT_CERTIFICATE_SUBJECT,
  scopes,
  setComplianceProfile,
  startFakeProvider,
  startGamesStack,
} from '@bo/test-support';
import { WalletConfigSchema } from '../src/config.ts';
import { walletServiceWith } from '../src/service.ts';

const services = gamesServicesWith(() => ({ service: walletServiceWith(), config: WalletConfigSchema }));
const live = scopes.production;
const txId = (label: string) => `${label}-${randomBytes(6).toString('hex')}`;

t.test('registration incomplete: no session, no provider bet, until completed', async (t) => {
  const h = await startGamesStack(t, services);
  const fake = await startFakeProvider(t);
  const sub = h.wallet.nc.subscribe(`${h.prefix}.rpc.operators.status.get`, {
    callback: (_e, msg) => {
      msg.respond(JSON.stringify({ ok: true, status: 200, body: { status: 'active' } }));
    },
  });
  t.teardown(() => sub.unsubscribe());
  const admin = async (subject: string, params: Record<string, string>, body?: unknown) => {
    const r = await h.call(subject, adminScope, { params, ...(body === undefined ? {} : { body }) });
    if (!r.ok) throw new Error(`${subject}: ${JSON.stringify(r)}`);
    return r.body;
  };
  const provider = await admin('wallet.admin.providers.create', {}, { name: `Aggregator ${txId('p')}`, kind: 'casino', launchUrl: fake.url });
  const game = await admin('wallet.admin.providers.putGame', { id: provider.id, gameCode: 'sweet-fruits' }, { name: 'Sweet Fruits', category: 'slots' });
  await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: live.operatorId }, { enabled: true });
  // Under br-spa a casino game takes bets only with a valid certificate (issue #59 item 5).
  const certified = certifiedGame(provider.id, 'sweet-fruits');
  await admin(PUT_CERTIFICATE_SUBJECT, certified.params, certified.body);
  const pscope = { kind: 'provider' as const, providerId: provider.id, environment: 'production' as const };
  const bet = (token: string) =>
    h.call('wallet.provider.bet', pscope, {
      body: { transactionId: txId('bet'), token, roundId: txId('round'), gameCode: 'sweet-fruits', amount: '10.00', currency: 'BRL' },
    });
  const openOurGame = (playerId: string) => h.call('games.sessions.create', live, { params: { playerId }, body: { gameId: 'gm_dice_classic' } });
  const refusal = (r: any) => (r.ok ? `ok:${r.status}` : r.error.code === 'RG_BLOCKED' ? `${r.error.code}:${r.error.details.reason}` : r.error.code);

  // Registered while the operator was off, with its limits but without the rest of the data; a session
  // of the provider's game opened then.
  const legacy = await h.createPlayer(live, { kyc: 'aprovado', limits: BR_SPA_LIMITS, incomplete: true });
  const complete = await h.createPlayer(live, { kyc: 'aprovado', limits: BR_SPA_LIMITS });
  for (const p of [legacy, complete]) await h.credit(live, p, '100.00');
  const tokenOf = async (playerId: string) => {
    await h.openSession(t, live, playerId, game.id);
    return fake.requests.at(-1)!.body.token as string;
  };
  const legacyToken = await tokenOf(legacy);
  const completeToken = await tokenOf(complete);
  t.equal((await setComplianceProfile((s, sc, o) => h.call(s, sc, o), live.operatorId, 'br-spa')).ok, true, 'br-spa switched on');
  t.teardown(() => setComplianceProfile((s, sc, o) => h.call(s, sc, o), live.operatorId, 'off'));

  const refused = (await bet(legacyToken)) as any;
  t.equal(refusal(refused), 'RG_BLOCKED:registration_incomplete', 'the provider bet is refused');
  t.same(refused.error.details.missing, ['phone', 'gender', 'signupIp', 'address'], 'naming what is missing');
  t.equal(refusal(await openOurGame(legacy)), 'RG_BLOCKED:registration_incomplete', 'our game is not opened');
  t.equal(((await h.call('wallet.get', live, { params: { playerId: legacy } })) as any).body.available, '100.00', 'no money moved');
  t.equal(refusal(await bet(completeToken)), 'ok:200', 'a complete player bets');

  const patched = await h.call('players.update', live, { params: { playerId: legacy }, body: BR_SPA_REGISTRATION });
  t.match(patched, { ok: true, status: 200, body: { registration: { complete: true, missing: [] } } }, 'the operator completes the data');
  t.equal(refusal(await bet(legacyToken)), 'ok:200', 'then the bet is taken');
  t.equal(refusal(await openOurGame(legacy)), 'ok:201', 'and our game opened');
  const v = await h.verifyLedger();
  t.same({ ok: v.ok, mismatches: v.mismatches }, { ok: true, mismatches: [] }, 'verifyLedger holds');
});
