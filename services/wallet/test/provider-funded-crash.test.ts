// Issue #59 item 1: crash tests of the provider-funded money paths (free bets, their rounds' wins,
// promotional credits, jackpot wins): the wallet runs as a real child process and is killed at
// their crash points. Killed after a commit, the provider never hears of it: its retry with the same
// transactionId gets the first answer (replayed), never a second credit; killed before a free bet is
// recorded, nothing survives. Every test ends with verifyLedger (each provider transaction's ledger
// type and clearing account included).
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { WALLET_SUBJECTS } from '@bo/contracts';
import { walletProcess } from './support/child-wallet.ts';
import {
  adminScope,
  assertLedgerSound,
  createPlayer,
  errorOf,
  internalScope,
  LAUNCH_SECRET,
  ok,
  operatorScope,
  playersService,
  startFakeProvider,
  startStack,
} from '@bo/test-support';

const txId = (label: string) => `${label}-${randomBytes(6).toString('hex')}`;

t.test('provider-funded calls survive a wallet crash exactly once', async (t) => {
  const stack = await startStack(t, 'provfundcrash', [playersService]);
  const { call } = stack;
  const sql = new pg.Client({ connectionString: stack.databaseUrl });
  await sql.connect();
  t.teardown(() => sql.end());
  // The operators service's answer to the wallet's status question.
  const sub = stack.nc.subscribe(`${stack.prefix}.rpc.operators.status.get`, {
    callback: (_e, msg) => {
      msg.respond(JSON.stringify({ ok: true, status: 200, body: { status: 'active' } }));
    },
  });
  t.teardown(() => sub.unsubscribe());
  const fake = await startFakeProvider(t);
  const wallet = walletProcess(
    t,
    {
      DATABASE_URL: stack.databaseUrl,
      NATS_URL: stack.config.NATS_URL,
      NATS_PREFIX: stack.prefix,
      RPC_TIMEOUT_MS: 1500,
      GAME_LAUNCH_SECRET: LAUNCH_SECRET,
      PUBLIC_BASE_URL: 'http://games.test:3000',
    },
    async () => {
      const r = await call('wallet.admin.verifyLedger', { scope: adminScope, timeoutMs: 1000 });
      return r.ok || r.error.code !== 'SERVICE_UNAVAILABLE';
    },
  );
  await wallet.start();

  const brand = operatorScope('live', 'production');
  const admin = async (subject: string, params: Record<string, string>, body?: unknown) =>
    ok<any>(await call(subject, { scope: adminScope, params, ...(body === undefined ? {} : { body }) }));
  const provider = await admin('wallet.admin.providers.create', {}, { name: `Funded crash aggregator ${txId('p')}`, kind: 'casino', launchUrl: fake.url });
  const game = await admin('wallet.admin.providers.putGame', { id: provider.id, gameCode: 'fund-slot' }, { name: 'Fund Slot', category: 'slots' });
  await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: brand.operatorId }, { enabled: true });
  const pscope = { kind: 'provider' as const, providerId: provider.id, environment: 'production' as const };
  const p = (op: string, body: unknown, timeoutMs = 10_000) => call(`wallet.provider.${op}`, { scope: pscope, body, timeoutMs });

  const fundedSession = async (amount: string) => {
    const player = await createPlayer(call, brand, { kyc: 'aprovado' });
    ok(
      await call(WALLET_SUBJECTS.credit, {
        scope: internalScope(),
        body: { brandId: brand.brandId, playerId: player, currency: 'BRL', amount, depositId: `dep_${randomBytes(6).toString('hex')}` },
      }),
    );
    ok(await call('games.sessions.create', { scope: brand, params: { playerId: player }, body: { gameId: game.id } }));
    return { player, token: fake.requests.at(-1)!.body.token as string };
  };
  const rowsOf = async (transactionId: string) =>
    (
      await sql.query('select kind, moved, balance_after from wallet.provider_transactions where provider_id = $1 and transaction_id = $2', [
        provider.id,
        transactionId,
      ])
    ).rows;
  const ledgerOf = async (transactionId: string) =>
    (
      await sql.query(
        `select e.type, e.amount from wallet.ledger_transactions t join wallet.ledger_entries e on e.transaction_id = t.id
         where t.source = $1 and e.account_seq is not null`,
        [`provider:${provider.id}:${transactionId}`],
      )
    ).rows;
  const balanceOf = async (token: string) => ok<{ balance: string }>(await p('balance', { token })).balance;

  const crashAt = async (t: Test, point: string, op: string, body: unknown) => {
    const victim = await wallet.start({ CRASH_AT: point });
    t.equal(errorOf(await p(op, body, 3000))?.code, 'SERVICE_UNAVAILABLE', 'the provider never hears an answer');
    t.equal((await victim.exited).signal, 'SIGKILL', `the wallet died at ${point}`);
    await wallet.start();
  };

  t.test('killed before a free bet is recorded: nothing survives; killed after: the retry answers it; its win once', async (t) => {
    const { player, token } = await fundedSession('10.00');
    const fb = { transactionId: txId('fb'), token, roundId: txId('round'), gameCode: 'fund-slot', amount: '1.00', currency: 'BRL' };
    await crashAt(t, 'wallet.provider.freeBet.before-post', 'freeBet', fb);
    t.same(await rowsOf(fb.transactionId), [], 'nothing recorded');
    await crashAt(t, 'wallet.provider.freeBet.after-commit', 'freeBet', fb);
    t.same(await rowsOf(fb.transactionId), [{ kind: 'free_bet', moved: '0.00', balance_after: '10.00' }], 'recorded once, nothing moved');
    t.match(ok<any>(await p('freeBet', fb)), { kind: 'free_bet', moved: '0.00', balance: '10.00', replayed: true });
    const win = { transactionId: txId('win'), playerId: player, roundId: fb.roundId, amount: '4.00', currency: 'BRL' };
    await crashAt(t, 'wallet.provider.win.after-commit', 'win', win);
    t.match(ok<any>(await p('win', win)), { moved: '4.00', balance: '14.00', replayed: true });
    t.same(await ledgerOf(win.transactionId), [{ type: 'FREE_BET_WIN', amount: '4.00' }], 'one free-bet win');
    t.equal(await balanceOf(token), '14.00');
    await assertLedgerSound(t, stack);
  });

  t.test('killed after a promotional credit and a jackpot win commit: each retry answers it, one credit each', async (t) => {
    const { player, token } = await fundedSession('10.00');
    const promo = { transactionId: txId('promo'), playerId: player, amount: '5.00', currency: 'BRL', promotionType: 'tournament_prize', promotionId: 'tour' };
    await crashAt(t, 'wallet.provider.promoCredit.after-commit', 'promoCredit', promo);
    t.match(ok<any>(await p('promoCredit', promo)), { moved: '5.00', balance: '15.00', replayed: true });
    t.same(await ledgerOf(promo.transactionId), [{ type: 'PROMO_CREDIT', amount: '5.00' }], 'one promotional credit');
    const jackpot = { transactionId: txId('jp'), playerId: player, jackpotId: 'mega', amount: '20.00', currency: 'BRL' };
    await crashAt(t, 'wallet.provider.jackpotWin.after-commit', 'jackpotWin', jackpot);
    t.match(ok<any>(await p('jackpotWin', jackpot)), { moved: '20.00', balance: '35.00', replayed: true });
    t.same(await ledgerOf(jackpot.transactionId), [{ type: 'JACKPOT_WIN', amount: '20.00' }], 'one jackpot win');
    t.equal(await balanceOf(token), '35.00');
    await assertLedgerSound(t, stack);
  });
});
