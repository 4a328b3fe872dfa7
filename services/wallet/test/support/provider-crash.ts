// The harness of the wallet's provider crash tests: a stack with the players service, the wallet as a
// real child process (child-wallet.ts's walletCrashStack) that a test starts with CRASH_AT=<point> and lets die there, an
// answer for the wallet's operator status question, a fake provider with one game enabled for a live
// brand, and the helpers the tests read the outcome with (a funded session, the provider transaction's
// rows and ledger entries, the balance). Each test passes its own database/prefix label, provider and game.
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { WALLET_SUBJECTS, type OperationReply } from '@bo/contracts';
import { walletCrashStack } from './child-wallet.ts';
import { adminScope, createPlayer, errorOf, internalScope, ok, operatorScope, startFakeProvider } from '@bo/test-support';

export const txId = (label: string) => `${label}-${randomBytes(6).toString('hex')}`;

export interface ProviderCrashOptions {
  /** The database/prefix label (startStack). */
  label: string;
  /** The provider's name (a unique suffix is added) and kind. */
  provider: { name: string; kind: 'casino' | 'sportsbook' };
  /** The provider's one game, enabled for the brand. */
  game: { gameCode: string; name: string; category: string };
}

export async function startProviderCrashHarness(t: Test, opts: ProviderCrashOptions) {
  const { stack, call, sql, wallet } = await walletCrashStack(t, opts.label);
  // The operators service's answer to the wallet's status question.
  const sub = stack.nc.subscribe(`${stack.prefix}.rpc.operators.status.get`, {
    callback: (_e, msg) => {
      msg.respond(JSON.stringify({ ok: true, status: 200, body: { status: 'active' } }));
    },
  });
  t.teardown(() => sub.unsubscribe());
  const fake = await startFakeProvider(t);
  await wallet.start();

  const brand = operatorScope('live', 'production');
  const admin = async (subject: string, params: Record<string, string>, body?: unknown) =>
    ok<any>(await call(subject, { scope: adminScope, params, ...(body === undefined ? {} : { body }) }));
  const provider = await admin(
    'wallet.admin.providers.create',
    {},
    { name: `${opts.provider.name} ${txId('p')}`, kind: opts.provider.kind, launchUrl: fake.url },
  );
  const game = await admin(
    'wallet.admin.providers.putGame',
    { id: provider.id, gameCode: opts.game.gameCode },
    { name: opts.game.name, category: opts.game.category },
  );
  await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: brand.operatorId }, { enabled: true });
  const pscope = { kind: 'provider' as const, providerId: provider.id, environment: 'production' as const };
  const p = (op: string, body: unknown, timeoutMs = 10_000) => call(`wallet.provider.${op}`, { scope: pscope, body, timeoutMs });

  /** A new player credited `amount`, with a game session: its token is the one the fake provider was launched with. */
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

  /** Starts the wallet to die at `point`, asks (`who` never hears an answer), sees it killed, starts it again. */
  const crashDuring = async (t: Test, point: string, ask: () => Promise<OperationReply>, who = 'the caller') => {
    const victim = await wallet.start({ CRASH_AT: point });
    t.equal(errorOf(await ask())?.code, 'SERVICE_UNAVAILABLE', `${who} never hears an answer`);
    t.equal((await victim.exited).signal, 'SIGKILL', `the wallet died at ${point}`);
    await wallet.start();
  };
  /** crashDuring a provider call `op` with `body`. */
  const crashAt = (t: Test, point: string, op: string, body: unknown) => crashDuring(t, point, () => p(op, body, 3000), 'the provider');

  return { stack, call, sql, wallet, brand, provider, p, fundedSession, rowsOf, ledgerOf, balanceOf, crashDuring, crashAt };
}
