// The provider wallet API (issue #44) through the real gateway and services, driven by the
// provider simulator (packages/provider-sim): a casino aggregator and a sportsbook play sandbox
// players' sessions with timeouts and retries, rollbacks, duplicates and calls out of order, wins
// after the session ended, open sports bets settled later and corrected. Then, from the database:
// every provider transaction once, with its one ledger transaction; balances as the simulator
// counted; the ledger verifies. And the edge: a wrong secret, an unknown key and a revoked key are
// refused; a disabled provider's bets are refused while its wins still settle.
import t from 'tap';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { once } from 'node:events';
import path from 'node:path';
import { waitFor } from '@bo/service-kit/testing';
import {
  AdminSide,
  Book,
  duplicates,
  OperatorSide,
  PlayerSession,
  ProviderClient,
  runSimulation,
  startLaunchServer,
  type ExpireSession,
  type SimProvider,
} from '@bo/provider-sim';
import { ADMIN_TOKEN, startStack } from './support/stack.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NO_RETRY = { deadlineMs: 0 };
// Two casino sessions and a sportsbook's (every third), three at a time.
const [SESSIONS, ROUNDS] = [3, 2];

t.test('providers play on the wallet through the gateway, each transaction exactly once', async (t) => {
  // A generous RPC timeout: on a machine shared with other suites a service may answer slowly (a 503 is not what this tests).
  const stack = await startStack({ RPC_TIMEOUT_MS: '15000' });
  const db = new pg.Client({ connectionString: stack.db.url });
  await db.connect();
  const launch = await startLaunchServer();
  t.teardown(async () => {
    await launch.close();
    await db.end();
    await stack.close();
  });
  const op = await stack.createOperator('Provider Wallet Bets');
  const admin = new AdminSide({ url: stack.adminUrl, token: ADMIN_TOKEN, retry: NO_RETRY });
  const register = (kind: 'casino' | 'sportsbook') =>
    admin.registerProvider({
      name: `Simulated ${kind} ${randomBytes(3).toString('hex')}`,
      kind,
      launchUrl: launch.url,
      operatorId: op.operator.id,
      environment: 'sandbox',
    });
  const casino: SimProvider = await register('casino');
  const sportsbook: SimProvider = await register('sportsbook');
  t.match(casino.key, /^pk_test_/, 'a sandbox key');

  // A session ends when its expiry passes: the test moves it to the past instead of waiting.
  const expireSession: ExpireSession = async (s) => {
    const r = await db.query(
      `update wallet.provider_sessions set created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' where game_session_id = $1`,
      [s.launch.sessionId],
    );
    return r.rowCount === 1;
  };

  t.test('the simulator’s scenarios', async (t) => {
    const summary = await runSimulation({
      gatewayUrl: stack.publicUrl,
      operator: op.sandbox,
      admin: { url: stack.adminUrl, token: ADMIN_TOKEN },
      providers: [casino, sportsbook],
      launch,
      sessions: SESSIONS,
      concurrency: 3,
      rounds: ROUNDS,
      funds: '100.00',
      sportsEvery: 3,
      retryDeadlineMs: 60_000,
      timeoutMs: 15_000,
      expireSession,
      maxExpiryWaitMs: 0,
    });
    t.same(summary.problems, [], 'every answer was what the scenario expected, every balance what the simulator counted');
    if (summary.problems.length) for (const c of ['wallet', 'gateway'] as const) console.error(`--- ${c}\n${(stack.logs.get(c) ?? []).slice(-40).join('\n')}`);
    t.same(summary.skipped, [], 'no scenario skipped');
    const [C, S, R] = [2, 1, ROUNDS];
    t.same(summary.sessions, { casino: C, sportsbook: S });
    t.same(summary.ledger, { verified: true, ok: true, mismatches: 0 }, 'the ledger verifies');
    // A casino session: R rounds, the bet and win retried, a bet rolled back after a lost answer, a rollback before its
    // bet, a bet in three copies and its win twice, a round of two bets and two wins, a bet and its win after the end.
    // A sportsbook session: four open bets, settled (won, lost, void, cashout), two corrections.
    t.same(
      { bets: summary.counts.bets, wins: summary.counts.wins, rollbacks: summary.counts.rollbacks, corrections: summary.counts.corrections },
      { bets: C * (R + 6) + S * 4, wins: C * (R + 5) + S * 4, rollbacks: C * 2, corrections: S * 2 },
      'each transaction counted once',
    );
    t.same(
      summary.counts.refusals,
      { BET_ROLLED_BACK: C, ROUND_CLOSED: C * 3 + S, SESSION_TOKEN_EXPIRED: C, ROUND_NOT_SETTLED: S },
      'refused exactly where the scenarios expect it',
    );
    // Replays: per casino session the bet and win sent again (2), the rollback again and the late bet (2), two copies of a
    // bet and the win again (3); per sportsbook session the credit correction again.
    t.equal(summary.counts.replays, C * 7 + S, 'every retry and duplicate answered as a replay');
    t.equal(summary.counts.lostAnswers, C * 3);

    // Exactly once, from the database: each accepted transaction id has one row, and one ledger
    // transaction when it moved money; there is nothing else of these providers.
    const providerIds = [casino.providerId, sportsbook.providerId];
    const rows = await db.query<{ provider_id: string; transaction_id: string; n: number; kind: string; moved: string; never_received: boolean }>(
      `select provider_id, transaction_id, kind, moved::text, never_received, count(*) over (partition by provider_id, transaction_id)::int as n
       from wallet.provider_transactions where provider_id = any($1)`,
      [providerIds],
    );
    const accepted = new Map(summary.transactions.map((a) => [`${a.providerId}:${a.answer.transactionId}`, a.answer]));
    const kept = rows.rows.filter((r) => !r.never_received);
    t.equal(kept.length, accepted.size, 'one row per accepted transaction');
    t.ok(
      kept.every((r) => r.n === 1 && accepted.get(`${r.provider_id}:${r.transaction_id}`)?.moved === r.moved),
      'each accepted once, moving what its answer said',
    );
    t.equal(rows.rows.filter((r) => r.never_received).length, 2, 'the bets rolled back before they arrived are kept as never received');
    const ledger = await db.query<{ source: string; n: number }>(
      `select source, count(*)::int as n from wallet.ledger_transactions where source like 'provider:%' and split_part(source, ':', 2) = any($1) group by source`,
      [providerIds],
    );
    const moving = [...accepted].filter(([, a]) => a.moved !== '0.00').map(([k]) => `provider:${k}`);
    t.same(ledger.rows.map((r) => r.source).sort(), moving.sort(), 'one ledger transaction per transaction that moved money, and none other');
    t.ok(
      ledger.rows.every((r) => r.n === 1),
      'each exactly once',
    );

    // Each player's wallet on the operator API: the deposit and everything the provider moved.
    for (const [playerId, b] of Object.entries(summary.balances)) {
      const w = await op.sandboxClient.get(`/players/${playerId}/wallet`);
      t.equal(w.body.available, b.expected, `${playerId}: the wallet is what the simulator counted`);
    }
  });

  t.test('npm run provider-sim: the CLI registers its providers and plays', async (t) => {
    const child = spawn(
      process.execPath,
      [
        path.join(ROOT, 'packages/provider-sim/src/cli.ts'),
        ...['--gateway', stack.publicUrl, '--admin', stack.adminUrl, '--admin-token', ADMIN_TOKEN],
        ...['--operator-key', op.sandbox.key, '--operator-secret', op.sandbox.secret],
        ...['--sessions', '3', '--rounds', '1', '--timeout-ms', '15000', '--json'],
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const [exitCode] = await once(child, 'exit');
    t.equal(exitCode, 0, 'exits 0: every answer as expected, the ledger verified');
    const summary = JSON.parse(out);
    t.same(summary.problems, []);
    t.same(summary.sessions, { casino: 2, sportsbook: 1 });
    t.same(summary.ledger, { verified: true, ok: true, mismatches: 0 });
    t.equal(summary.skipped.length, 2, 'a session of 30 minutes does not end during the run: its scenario is listed as skipped');
    t.equal(summary.providers.length, 2, 'a casino and a sportsbook registered');
  });

  /** A funded sandbox player with a session of the casino's first game, played by hand (through `baseUrl`: the gateway, or a proxy to it). */
  const handSession = async (funds = '50.00', baseUrl = stack.publicUrl) => {
    const book = new Book();
    const operator = new OperatorSide({ baseUrl: stack.publicUrl, ...op.sandbox, retry: NO_RETRY });
    const playerId = await operator.fundedPlayer('hand', funds);
    book.fund(playerId, funds);
    const { sessionId } = await operator.openSession(playerId, casino.games[0]!.id);
    const client = new ProviderClient({ baseUrl, key: casino.key, secret: casino.secret, timeoutMs: 15_000 });
    const s = new PlayerSession({ book, provider: casino, game: casino.games[0]!, launch: launch.launches.get(sessionId)!, client, retry: NO_RETRY });
    return { s, client, book };
  };
  const code = (r: { status: number; body: any }) => `${r.status} ${r.body?.error?.code ?? ''}`.trim();

  t.test('signatures: a wrong secret and an unknown key are refused', async (t) => {
    const { s, client } = await handSession();
    const body = { token: s.launch.token };
    t.equal(code(await client.call('balance', body)), '200', 'signed with the secret');
    t.equal(code(await client.call('balance', body, { secret: 'not-the-secret' })), '401 INVALID_SIGNATURE');
    t.equal(code(await client.call('balance', body, { key: `pk_test_${randomBytes(16).toString('hex')}` })), '401 INVALID_CREDENTIALS');
    t.equal(code(await client.call('bets', s.betBody('1.00'), { secret: 'not-the-secret' })), '401 INVALID_SIGNATURE', 'a bet too, moving nothing');
    t.equal(code(await client.call('balance', body)), '200');
    t.equal((await client.call('balance', body)).body.balance, '50.00');
  });

  t.test('a revoked key is refused at once', async (t) => {
    const { s } = await handSession();
    const second = await admin.call('POST', `/admin/providers/${casino.providerId}/credentials`, { environment: 'sandbox' }, 201);
    const client = new ProviderClient({ baseUrl: stack.publicUrl, key: second.key, secret: second.secret });
    t.equal(code(await client.call('balance', { token: s.launch.token })), '200', 'the new key works');
    await admin.call('POST', `/admin/providers/${casino.providerId}/credentials/${second.credential.id}/revoke`, undefined, 200);
    // The revocation reaches the gateway's key cache as a broadcast: a moment on a busy machine.
    await waitFor(async () => (await client.call('balance', { token: s.launch.token })).status === 401, { what: 'the revoked key refused' });
    t.equal(code(await client.call('bets', s.betBody('1.00'))), '401 INVALID_CREDENTIALS', 'revoked: refused');
    t.equal(code(await client.call('balance', { token: s.launch.token }, { key: casino.key, secret: casino.secret })), '200', 'the other key still works');
  });

  t.test('a production key reaches no sandbox session or round', async (t) => {
    const { s } = await handSession();
    const bet = s.betBody('5.00');
    await s.send('bets', bet);
    const issued = await admin.call('POST', `/admin/providers/${casino.providerId}/credentials`, { environment: 'production' }, 201);
    t.match(issued.key, /^pk_live_/);
    const live = new ProviderClient({ baseUrl: stack.publicUrl, key: issued.key, secret: issued.secret });
    t.equal(code(await live.call('balance', { token: s.launch.token })), '401 SESSION_TOKEN_INVALID');
    t.equal(code(await live.call('bets', s.betBody('1.00'))), '401 SESSION_TOKEN_INVALID');
    t.equal(code(await live.call('wins', s.winBody(bet.roundId, '100.00'))), '404 ROUND_NOT_FOUND');
    t.equal((await op.sandboxClient.get(`/players/${s.playerId}/wallet`)).body.available, '45.00', 'nothing moved');
  });

  t.test('copies of a bet at once: the applying copy read after a replay of it is no problem, one debit', async (t) => {
    // The chaos run's "a repeat answered {…"replayed":false…}, the first was {…"replayed":true…}" (the
    // duplicates scenario: three copies at once): copies in flight together are answered in no set order, so
    // the copy that applied (replayed: false) can be read after a copy that replayed it. A proxy holds the
    // applying copy's answer until the simulator has entered a replay: that order, every time.
    const holder: { book?: Book } = {};
    const proxy = await holdingProxy(stack.publicUrl, async (body) => {
      if (body?.kind !== 'bet' || body.replayed !== false) return;
      await waitFor(async () => holder.book?.accepted.has(`${casino.providerId}:${body.transactionId}`), { what: 'a replay of the bet read first' });
    });
    t.teardown(proxy.close);
    const { s, book } = await handSession('50.00', proxy.url);
    holder.book = book;
    await duplicates(s);
    const bets = [...book.accepted.values()].filter((a) => a.answer.kind === 'bet');
    t.equal(bets.length, 1, 'one bet');
    t.equal(bets[0]?.answer.replayed, true, 'the first answer the simulator read was a replay (the order of the chaos run)');
    t.same(book.problems, [], 'the applying copy read last is the same answer, not a second one');
    t.same({ bets: book.counts.bets, wins: book.counts.wins, replays: book.counts.replays }, { bets: 1, wins: 1, replays: 3 });
    const source = `provider:${casino.providerId}:${bets[0]?.answer.transactionId}`;
    const ledger = await db.query('select count(*)::int as n from wallet.ledger_transactions where source = $1', [source]);
    t.equal(ledger.rows[0].n, 1, 'one ledger debit');
    t.equal((await op.sandboxClient.get(`/players/${s.playerId}/wallet`)).body.available, '49.00', 'the stake taken once');
  });

  t.test('twenty copies of every money call at once, in rounds of one bet and of two, each answered as the first (issue #66 items 5, 7, 8)', async (t) => {
    const { s, client } = await handSession('100.00');
    const ids: string[] = [];
    const money = /^-?\d+\.\d{2}$/;
    /** Twenty copies of one call at once: each 200, each the first answer (replayed aside), one applied; its moved and balance as expected. */
    const twenty = async (op: Parameters<typeof client.call>[0], body: { transactionId: string }, moved: string, balance: string, what: string) => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => client.call(op, body)));
      const applied = answers.filter((a) => a.status === 200 && a.body.replayed === false);
      const distinct = new Set(answers.map((a) => `${a.status} ${JSON.stringify({ ...a.body, replayed: false })}`));
      t.same(
        { statuses: [...new Set(answers.map((a) => a.status))], distinct: distinct.size, applied: applied.length },
        { statuses: [200], distinct: 1, applied: 1 },
        `${what}: twenty copies, one applied, each answered as the first`,
      );
      t.match(applied[0]?.body, { moved, balance }, `${what}: moved ${moved}, the balance ${balance}`);
      t.ok(money.test(applied[0]?.body.moved) && money.test(applied[0]?.body.balance), `${what}: amounts in two decimals`);
      ids.push(body.transactionId);
    };
    // A round of one bet, won big; corrected.
    const one = s.betBody('0.5');
    await twenty('bets', one, '-0.50', '99.50', 'a bet of "0.5"');
    await twenty('wins', s.winBody(one.roundId, '63727092.34'), '63727092.34', '63727191.84', 'a win of 63,727,092.34');
    const correction = {
      transactionId: `cor-${randomBytes(6).toString('hex')}`,
      playerId: s.playerId,
      roundId: one.roundId,
      amount: '-63727000.00',
      currency: 'BRL',
      reason: 'resettled',
    };
    await twenty('corrections', correction, '-63727000.00', '191.84', 'a correction');
    // A round of two bets: the first rolled back, the round then won.
    const first = s.betBody('10.00');
    const second = s.betBody('5.00', { roundId: first.roundId });
    await twenty('bets', first, '-10.00', '181.84', 'the first bet of a round of two');
    await twenty('bets', second, '-5.00', '176.84', 'the second bet');
    await twenty('rollbacks', s.rollbackBody(first), '10.00', '186.84', 'a rollback of the first bet');
    await twenty('wins', s.winBody(first.roundId, '3.00'), '3.00', '189.84', 'the win of the round');
    // A round of one bet, rolled back.
    const lone = s.betBody('2.00');
    await twenty('bets', lone, '-2.00', '187.84', 'a bet');
    await twenty('rollbacks', s.rollbackBody(lone), '2.00', '189.84', 'its rollback');
    t.equal((await op.sandboxClient.get(`/players/${s.playerId}/wallet`)).body.available, '189.84', 'each call moved money once');
    const ledger = await db.query('select source, count(*)::int as n from wallet.ledger_transactions where source = any($1::text[]) group by source', [
      ids.map((x) => `provider:${casino.providerId}:${x}`),
    ]);
    const bySource = (a: { source: string }, b: { source: string }) => (a.source < b.source ? -1 : 1);
    t.same(
      ledger.rows.sort(bySource),
      ids.map((x) => ({ source: `provider:${casino.providerId}:${x}`, n: 1 })).sort(bySource),
      'one ledger transaction per call',
    );
  });

  t.test('a disabled provider takes no bets; its wins and rollbacks still settle', async (t) => {
    const { s, book } = await handSession();
    const open = s.betBody('5.00');
    const other = s.betBody('2.00');
    await s.send('bets', open);
    await s.send('bets', other);
    await admin.call('PUT', `/admin/providers/${casino.providerId}`, { status: 'disabled' }, 200);
    t.teardown(() => admin.call('PUT', `/admin/providers/${casino.providerId}`, { status: 'enabled' }, 200));
    await s.send('bets', s.betBody('1.00'), ['PROVIDER_DISABLED']);
    await s.send('wins', s.winBody(open.roundId, '12.00'));
    await s.send('rollbacks', s.rollbackBody(other));
    t.same(book.problems, [], 'refused and settled as expected');
    t.same(book.counts.refusals, { PROVIDER_DISABLED: 1 });
    t.equal(book.expected(s.playerId), '57.00', '50.00 − 5.00 + 12.00; the rolled back bet refunded');
    t.equal((await op.sandboxClient.get(`/players/${s.playerId}/wallet`)).body.available, '57.00');
    const v = await stack.admin('GET', '/admin/ledger/verify');
    t.equal(v.body.ok, true, 'the ledger verifies');
  });
});

/**
 * An HTTP proxy to `target` that passes each request on and its answer back, after `hold` (given the
 * answer's JSON body) resolves: a network that delivers some answers late.
 */
async function holdingProxy(target: string, hold: (body: any) => Promise<void>): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
    const text = await answer.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    await hold(body).catch(() => undefined);
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(text);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}
