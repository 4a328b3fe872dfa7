// Issue #60 item 3: crash tests of the integrity holds' money moves: the wallet runs as a real child
// process and is killed at their crash points. Killed after a held win commits, the provider never
// hears of it: its retry with the same transactionId gets the first answer (replayed), never a second
// hold or a credit to the player. Killed inside a release's transaction before its commit, nothing
// moved and the hold is still held: the release asked again moves the prize once. Every test ends
// with verifyLedger (the integrity checks included).
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { WALLET_SUBJECTS, type AdminScope, type OperationReply } from '@bo/contracts';
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
const person = (name: string): AdminScope => ({ ...adminScope, actor: name, personId: `per_${name}` });
const SLIP = {
  sport: 'football',
  event: 'Bahia x Vitória',
  market: 'match_result',
  selection: 'Bahia',
  odds: '2.10',
  eventStartsAt: '2030-01-01T19:00:00.000Z',
};

t.test('integrity holds survive a wallet crash exactly once', async (t) => {
  const stack = await startStack(t, 'integritycrash', [playersService]);
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
  const provider = await admin('wallet.admin.providers.create', {}, { name: `Integrity crash book ${txId('p')}`, kind: 'sportsbook', launchUrl: fake.url });
  const game = await admin('wallet.admin.providers.putGame', { id: provider.id, gameCode: 'sportsbook' }, { name: 'Sportsbook', category: 'sports' });
  await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: brand.operatorId }, { enabled: true });
  const pscope = { kind: 'provider' as const, providerId: provider.id, environment: 'production' as const };
  const p = (op: string, body: unknown, timeoutMs = 10_000) => call(`wallet.provider.${op}`, { scope: pscope, body, timeoutMs });
  const integrity = (by: AdminScope, op: string, body: unknown, params: Record<string, string> = {}, timeoutMs = 10_000) =>
    call(`wallet.admin.integrity.${op}`, { scope: by, params, body, timeoutMs });

  /** A player with 100.00 who bet 10.00 on a slip that compliance (alice) holds. */
  const heldSlip = async () => {
    const player = await createPlayer(call, brand, { kyc: 'aprovado' });
    ok(
      await call(WALLET_SUBJECTS.credit, {
        scope: internalScope(),
        body: { brandId: brand.brandId, playerId: player, currency: 'BRL', amount: '100.00', depositId: `dep_${randomBytes(6).toString('hex')}` },
      }),
    );
    ok(await call('games.sessions.create', { scope: brand, params: { playerId: player }, body: { gameId: game.id } }));
    const token = fake.requests.at(-1)!.body.token as string;
    const roundId = txId('slip');
    ok(await p('bet', { transactionId: txId('bet'), token, roundId, gameCode: 'sportsbook', amount: '10.00', currency: 'BRL', slip: SLIP }));
    const hold = ok<any>(await integrity(person('alice'), 'place', { providerId: provider.id, roundId, reason: 'linked accounts on one selection' }));
    return { player, token, roundId, hold };
  };
  const balanceOf = async (token: string) => ok<{ balance: string }>(await p('balance', { token })).balance;
  const heldWins = async (holdId: string) =>
    (await sql.query('select amount::text from wallet.integrity_held_wins where hold_id = $1', [holdId])).rows.map((r) => r.amount);
  const statusOf = async (holdId: string) => (await sql.query('select status from wallet.integrity_holds where id = $1', [holdId])).rows[0]?.status;
  const releases = async (holdId: string) =>
    Number((await sql.query(`select count(*) from wallet.ledger_transactions where type = 'INTEGRITY_RELEASE' and reference_id = $1`, [holdId])).rows[0].count);

  const crashAt = async (t: Test, point: string, ask: () => Promise<OperationReply>) => {
    const victim = await wallet.start({ CRASH_AT: point });
    t.equal(errorOf(await ask())?.code, 'SERVICE_UNAVAILABLE', 'the caller never hears an answer');
    t.equal((await victim.exited).signal, 'SIGKILL', `the wallet died at ${point}`);
    await wallet.start();
  };

  t.test('killed after a held win commits: the retry answers it; held once, the player never credited', async (t) => {
    const { player, token, roundId, hold } = await heldSlip();
    const win = { transactionId: txId('win'), playerId: player, roundId, amount: '25.00', currency: 'BRL', outcome: 'won' };
    await crashAt(t, 'wallet.integrity.heldWin.after-commit', () => p('win', win, 3000));
    t.match(ok<any>(await p('win', win)), { moved: '0.00', balance: '90.00', replayed: true });
    t.same(await heldWins(hold.id), ['25.00'], 'held once');
    t.equal(await balanceOf(token), '90.00', 'the player not credited');
    await assertLedgerSound(t, stack);
  });

  t.test('killed inside a release before its commit: nothing moved, still held; released again: credited once', async (t) => {
    const { player, token, roundId, hold } = await heldSlip();
    ok(await p('win', { transactionId: txId('win'), playerId: player, roundId, amount: '30.00', currency: 'BRL', outcome: 'won' }));
    const release = () => integrity(person('bob'), 'release', { reason: 'alert closed by the monitor' }, { id: hold.id }, 3000);
    await crashAt(t, 'wallet.integrity.released.before-commit', release);
    t.equal(await statusOf(hold.id), 'held', 'still held');
    t.equal(await releases(hold.id), 0, 'nothing moved');
    t.equal(await balanceOf(token), '90.00');
    t.match(ok<any>(await release()), { status: 'released', heldAmount: '30.00' });
    t.match(ok<any>(await release()), { status: 'released' }, 'asked again by the same person: its answer');
    t.equal(await releases(hold.id), 1, 'one release');
    t.equal(await balanceOf(token), '120.00', 'credited once');
    await assertLedgerSound(t, stack);
  });
});
