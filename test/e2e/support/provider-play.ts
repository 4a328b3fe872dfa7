// Providers' play beside a workload (npm run chaos, issue #44): a casino aggregator and a
// sportsbook registered for the operator's sandbox, and the provider simulator's sessions played in
// batches until the end time, every call retried with its transaction id until it is answered;
// then, from the database, every provider transaction accepted exactly once with its one ledger
// transaction, and nothing else of these providers in the ledger.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { AdminSide, runSimulation, startLaunchServer, type Accepted, type ExpireSession, type SimulationSummary } from '@bo/provider-sim';
import { ADMIN_TOKEN, type Stack } from './stack.ts';

export interface ProviderPlay {
  sessions: number;
  counts: SimulationSummary['counts'];
  transactions: number;
  problems: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One statement on a fresh connection, again until it runs (Postgres may be restarting). */
async function query<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[], deadlineMs = 120_000): Promise<pg.QueryResult<R>> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const c = new pg.Client({ connectionString: url });
    try {
      await c.connect();
      return await c.query<R>(text, values);
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await sleep(500);
    } finally {
      await c.end().catch(() => undefined);
    }
  }
}

/** Plays until `endAt`; resolves once every batch ended and the database was checked. */
export async function runProviderPlay(
  s: Stack,
  op: { operatorId: string; sandbox: { key: string; secret: string } },
  endAt: number,
  opts: { batch?: number; concurrency?: number } = {},
): Promise<ProviderPlay> {
  const retry = { deadlineMs: 180_000 };
  const admin = new AdminSide({ url: s.adminUrl, token: ADMIN_TOKEN, retry });
  const launch = await startLaunchServer();
  try {
    const providers = [];
    for (const kind of ['casino', 'sportsbook'] as const)
      providers.push(
        await admin.registerProvider({
          name: `Chaos ${kind} ${randomBytes(3).toString('hex')}`,
          kind,
          launchUrl: launch.url,
          operatorId: op.operatorId,
          environment: 'sandbox',
        }),
      );
    const expireSession: ExpireSession = async (session) =>
      (
        await query(
          s.db.url,
          `update wallet.provider_sessions set created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' where game_session_id = $1`,
          [session.launch.sessionId],
        )
      ).rowCount === 1;
    const problems: string[] = [];
    const accepted: Accepted[] = [];
    let sessions = 0;
    let counts: SimulationSummary['counts'] | undefined;
    while (Date.now() < endAt) {
      const summary = await runSimulation({
        gatewayUrl: s.publicUrl,
        operator: op.sandbox,
        providers,
        launch,
        sessions: opts.batch ?? 3,
        concurrency: opts.concurrency ?? 3,
        rounds: 3,
        funds: '100.00',
        sportsEvery: 3,
        retryDeadlineMs: retry.deadlineMs,
        timeoutMs: 3000,
        expireSession,
        maxExpiryWaitMs: 0,
      });
      sessions += summary.sessions.casino + summary.sessions.sportsbook;
      problems.push(...summary.problems);
      accepted.push(...summary.transactions);
      counts = mergeCounts(counts, summary.counts);
    }

    // Exactly once, from the database.
    const providerIds = providers.map((p) => p.providerId);
    const rows = await query<{ key: string; n: number; moved: string }>(
      s.db.url,
      `select provider_id || ':' || transaction_id as key, count(*)::int as n, min(moved::text) as moved
       from wallet.provider_transactions where provider_id = any($1) and not never_received group by 1`,
      [providerIds],
    );
    const ledger = await query<{ key: string; n: number }>(
      s.db.url,
      `select substr(source, 10) as key, count(*)::int as n from wallet.ledger_transactions
       where source like 'provider:%' and split_part(source, ':', 2) = any($1) group by 1`,
      [providerIds],
    );
    const inTable = new Map(rows.rows.map((r) => [r.key, r]));
    const inLedger = new Map(ledger.rows.map((r) => [r.key, r.n]));
    for (const a of accepted) {
      const key = `${a.providerId}:${a.answer.transactionId}`;
      const row = inTable.get(key);
      if (!row || row.n !== 1 || row.moved !== a.answer.moved)
        problems.push(`provider transaction ${key}: ${row ? `${row.n} rows moving ${row.moved}` : 'no row'}, answered ${a.answer.moved}`);
      const posted = inLedger.get(key) ?? 0;
      if (posted !== (a.answer.moved === '0.00' ? 0 : 1)) problems.push(`provider transaction ${key} (moved ${a.answer.moved}): ${posted} ledger transactions`);
    }
    const acceptedKeys = new Set(accepted.map((a) => `${a.providerId}:${a.answer.transactionId}`));
    for (const key of inTable.keys()) if (!acceptedKeys.has(key)) problems.push(`provider transaction ${key} is in the wallet but was never answered`);
    for (const key of inLedger.keys()) if (!acceptedKeys.has(key)) problems.push(`ledger transaction provider:${key} was never answered`);
    for (const [k, n] of Object.entries(counts?.serverErrors ?? {}))
      if (!k.startsWith('503 ') || k.includes('no Retry-After')) problems.push(`provider API answered ${n} × ${k}: an outage must be a 503 with Retry-After`);
    return { sessions, counts: counts!, transactions: accepted.length, problems };
  } finally {
    await launch.close();
  }
}

function mergeCounts(a: SimulationSummary['counts'] | undefined, b: SimulationSummary['counts']): SimulationSummary['counts'] {
  if (!a) return structuredClone(b);
  const add = (x: Record<string, number>, y: Record<string, number>) => {
    for (const [k, n] of Object.entries(y)) x[k] = (x[k] ?? 0) + n;
    return x;
  };
  return {
    bets: a.bets + b.bets,
    wins: a.wins + b.wins,
    rollbacks: a.rollbacks + b.rollbacks,
    corrections: a.corrections + b.corrections,
    freeBets: a.freeBets + b.freeBets,
    promoCredits: a.promoCredits + b.promoCredits,
    jackpotWins: a.jackpotWins + b.jackpotWins,
    replays: a.replays + b.replays,
    retries: a.retries + b.retries,
    lostAnswers: a.lostAnswers + b.lostAnswers,
    refusals: add(a.refusals, b.refusals),
    serverErrors: add(a.serverErrors, b.serverErrors),
  };
}
