// A provider's keys are per environment (docs/providers.md): a sandbox key (pk_test_…) must never
// move a production player's money, nor a production key a sandbox player's. The gateway puts the
// key's environment in the provider scope; the wallet answers a session token or a round of the
// other environment as unknown. Also found by the provider simulator through the whole stack: a
// brand's second provider, and a player with limits in sandbox (the guarded bet). Real Postgres and
// NATS, the real players service.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { adminScope, gamesServicesWith, operatorScope, scopes, startFakeProvider, startGamesStack } from '@bo/test-support';
import { WalletConfigSchema } from '../src/config.ts';
import { walletServiceWith } from '../src/service.ts';

const services = gamesServicesWith(() => ({ service: walletServiceWith(), config: WalletConfigSchema }));
const live = scopes.production;
const txId = (label: string) => `${label}-${randomBytes(6).toString('hex')}`;
const code = (r: any) => (r.ok ? `ok:${r.status}` : r.error.code);

t.test('a key of one environment reaches no session or round of the other', async (t) => {
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
  const game = await admin('wallet.admin.providers.putGame', { id: provider.id, gameCode: 'env-fruits' }, { name: 'Env Fruits', category: 'slots' });
  await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: live.operatorId }, { enabled: true });
  const as = (environment: 'sandbox' | 'production') => (op: string, body: unknown) =>
    h.call(`wallet.provider.${op}`, { kind: 'provider' as const, providerId: provider.id, environment }, { body });
  const [production, sandbox] = [as('production'), as('sandbox')];

  const player = await h.createPlayer(live, { kyc: 'aprovado' });
  await h.credit(live, player, '100.00');
  await h.openSession(t, live, player, game.id);
  const token = fake.requests.at(-1)!.body.token as string;
  const bet = { transactionId: txId('bet'), token, roundId: txId('round'), gameCode: 'env-fruits', amount: '10.00', currency: 'BRL' };

  t.equal(code(await sandbox('authenticate', { token })), 'SESSION_TOKEN_INVALID', 'a sandbox key does not know a production session');
  t.equal(code(await sandbox('balance', { token })), 'SESSION_TOKEN_INVALID');
  t.equal(code(await sandbox('bet', bet)), 'SESSION_TOKEN_INVALID', 'nor bets on it');
  t.match(((await production('bet', { ...bet, transactionId: txId('bet') })) as any).body, { moved: '-10.00', balance: '90.00' }, 'the production key does');

  const win = { transactionId: txId('win'), playerId: player, roundId: bet.roundId, amount: '50.00', currency: 'BRL' };
  t.equal(code(await sandbox('win', win)), 'ROUND_NOT_FOUND', 'a sandbox key pays no production round');
  t.equal(code(await sandbox('correction', { ...win, transactionId: txId('c'), amount: '5.00', reason: 'x' })), 'ROUND_NOT_FOUND', 'nor corrects one');
  const betId = ((await h.sql(`select transaction_id from wallet.provider_transactions where round_id = ?`, [bet.roundId])) as any)[0].transaction_id;
  t.equal(
    code(await sandbox('rollback', { transactionId: txId('rb'), playerId: player, betTransactionId: betId, roundId: bet.roundId })),
    'ROUND_NOT_FOUND',
    'nor rolls one back',
  );
  t.match(((await production('balance', { token })) as any).body, { balance: '90.00' }, 'nothing moved');
  t.match(((await production('win', win)) as any).body, { moved: '50.00', balance: '140.00' }, 'the production key settles it');
  const v = await h.verifyLedger();
  t.equal(v.ok, true, 'the ledger verifies');

  t.test('a sandbox session bets with the sandbox key', async (t) => {
    const sb = operatorScope('sb', 'sandbox');
    await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: sb.operatorId }, { enabled: true });
    const id = await h.createPlayer(sb, { kyc: 'aprovado' });
    await h.credit(sb, id, '50.00');
    await h.openSession(t, sb, id, game.id);
    const tk = fake.requests.at(-1)!.body.token as string;
    const r = (await sandbox('bet', { ...bet, transactionId: txId('bet'), roundId: txId('round'), token: tk })) as any;
    t.match(r, { ok: true, body: { moved: '-10.00', balance: '40.00' } }, JSON.stringify(r.error ?? ''));
  });

  t.test('a second provider bets on the same brand: each has its own clearing account', async (t) => {
    const second = await admin('wallet.admin.providers.create', {}, { name: `Sportsbook ${txId('p')}`, kind: 'sportsbook', launchUrl: fake.url });
    const sgame = await admin('wallet.admin.providers.putGame', { id: second.id, gameCode: 'env-sports' }, { name: 'Env Sports', category: 'sports' });
    await admin('wallet.admin.providers.setOperator', { id: second.id, operatorId: live.operatorId }, { enabled: true });
    const id = await h.createPlayer(live, { kyc: 'aprovado' });
    await h.credit(live, id, '50.00');
    await h.openSession(t, live, id, sgame.id);
    const tk = fake.requests.at(-1)!.body.token as string;
    const r = (await h.call(
      'wallet.provider.bet',
      { kind: 'provider', providerId: second.id, environment: 'production' },
      {
        body: { transactionId: txId('bet'), token: tk, roundId: txId('slip'), gameCode: 'env-sports', amount: '10.00', currency: 'BRL' },
      },
    )) as any;
    t.match(r, { ok: true, body: { moved: '-10.00', balance: '40.00' } }, JSON.stringify(r.error ?? ''));
    const accounts = await h.sql(`select id from wallet.accounts where kind = 'provider_clearing' and brand_id = ? order by id`, [live.brandId]);
    t.equal(accounts.length, 2, 'two clearing accounts in the brand, one per provider');
  });

  t.test('a player with loss and time limits bets (the guarded path)', async (t) => {
    const created = (await h.call('players.create', live, {
      body: {
        externalId: txId('lim'),
        name: 'Ana Souza',
        email: 'ana@example.com',
        cpf: '529.982.247-25',
        birthDate: '1990-05-17',
        limits: [
          { type: 'loss', period: 'day', value: '1000.00' },
          { type: 'time', period: 'day', value: 1440 },
        ],
      },
    })) as any;
    t.ok(created.ok, JSON.stringify(created.error ?? ''));
    const id = created.body.id as string;
    await admin('players.admin.kycDecision', { id }, { status: 'aprovado' });
    await h.credit(live, id, '50.00');
    await h.openSession(t, live, id, game.id);
    const tk = fake.requests.at(-1)!.body.token as string;
    const r = (await production('bet', { ...bet, transactionId: txId('bet'), roundId: txId('round'), token: tk })) as any;
    t.match(r, { ok: true, body: { moved: '-10.00', balance: '40.00' } }, JSON.stringify(r.error ?? ''));
  });
});
