// Issue #59 through the real gateway and services, driven by the provider simulator
// (packages/provider-sim, native protocol): casino sessions also play free bets (sent twice), a
// promotional credit and a jackpot win (each sent twice) and a bet carrying a jackpot contribution;
// then the provider reads its day back (GET /provider/v1/transactions), writes its daily statement
// with one difference of each kind planted, and our team's reconciliation finds exactly those. The
// month statement of the simulated play ties to the clearing account to the cent; the ledger verifies.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { AdminSide, runSimulation, startLaunchServer, type ExpireSession, type SimProvider } from '@bo/provider-sim';
import pg from 'pg';
import { ADMIN_TOKEN, startStack } from './support/stack.ts';

const NO_RETRY = { deadlineMs: 0 };

t.test('the simulator funds free bets, promotions and jackpots, and its planted statement differences are found exactly', async (t) => {
  const stack = await startStack({ RPC_TIMEOUT_MS: '15000' });
  const db = new pg.Client({ connectionString: stack.db.url });
  await db.connect();
  const launch = await startLaunchServer();
  t.teardown(async () => {
    await launch.close();
    await db.end();
    await stack.close();
  });
  const op = await stack.createOperator('Provider Funded Sim');
  const admin = new AdminSide({ url: stack.adminUrl, token: ADMIN_TOKEN, retry: NO_RETRY });
  const casino: SimProvider = await admin.registerProvider({
    name: `Simulated funded casino ${randomBytes(3).toString('hex')}`,
    kind: 'casino',
    launchUrl: launch.url,
    operatorId: op.operator.id,
    environment: 'sandbox',
  });
  const expireSession: ExpireSession = async (s) => {
    const r = await db.query(
      `update wallet.provider_sessions set created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' where game_session_id = $1`,
      [s.launch.sessionId],
    );
    return r.rowCount === 1;
  };
  const summary = await runSimulation({
    gatewayUrl: stack.publicUrl,
    operator: op.sandbox,
    admin: { url: stack.adminUrl, token: ADMIN_TOKEN },
    providers: [casino],
    launch,
    sessions: 2,
    concurrency: 2,
    rounds: 1,
    funds: '100.00',
    sportsEvery: 3,
    retryDeadlineMs: 60_000,
    timeoutMs: 15_000,
    expireSession,
    maxExpiryWaitMs: 0,
    providerFunded: true,
    statement: true,
  });
  t.same(summary.problems, [], 'every answer as the scenarios expect, every balance as the simulator counted');
  t.same(summary.ledger, { verified: true, ok: true, mismatches: 0 }, 'the ledger verifies (each provider-funded kind included)');
  t.same(
    { freeBets: summary.counts.freeBets, promoCredits: summary.counts.promoCredits, jackpotWins: summary.counts.jackpotWins },
    { freeBets: 2, promoCredits: 2, jackpotWins: 2 },
    'each provider-funded transaction once per session',
  );
  t.ok(summary.statement?.exact, `the planted differences found exactly: ${JSON.stringify(summary.statement)}`);
  t.same(Object.fromEntries(Object.entries(summary.statement!.found).map(([k, v]) => [k, v.length])), {
    ours_only: 1,
    theirs_only: 1,
    amount_differs: 1,
    status_differs: 1,
  });
  // The month of the simulated play, per brand: ties to the clearing account (this provider's only month).
  const month = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit' }).format(new Date()).slice(0, 7);
  const statement = await admin.call('GET', `/admin/providers/${casino.providerId}/statements/${month}`, undefined, 200);
  t.equal(statement.ties, true, 'the month statement ties to the ledger');
  for (const b of statement.brands) {
    const { rows } = await db.query('select available::text from wallet.account_balances where id = $1', [
      `acct:provider_clearing:${b.brandId}:${casino.providerId}:${b.currency}`,
    ]);
    t.equal(rows[0]?.available, b.ledgerNet, `brand ${b.brandId}: the clearing account holds the month to the cent`);
    t.match(b, {
      freeBets: { count: 2, amount: '2.00' },
      jackpotContributions: { count: 2, amount: '0.20' },
      jackpotWins: { count: 2, amount: '50.00' },
      promoCredits: { count: 2, amount: '10.00' },
    });
  }
});
