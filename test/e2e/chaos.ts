// `npm run chaos`: a bounded money workload with client retries while every process is killed
// (SIGKILL) and restarted, and a private nats-server and a private Postgres are restarted. Then it
// checks what must hold whatever happened: the ledger verifies, every confirmed deposit was credited
// exactly once, no withdrawal was paid twice, balances match what the clients were told, every
// event reached the operator's webhook receiver, malformed requests (a body not in UTF-8, a
// query not validly percent-encoded) were refused with 422 throughout, and every decision our team
// made (approve and pay by two people, KYC, AML rules, on the admin API with personal tokens) and
// every other admin change it made (a provider's game enabled or not, offered or withdrawn, the
// provider enabled or disabled, during the faults; the operator set up; the suspended-play probe's
// suspensions and resumptions) has exactly one audit row. Prints its figures; exits 1 if an
// invariant broke.
// CHAOS_SECONDS (default 90), CHAOS_CLIENTS (6), CHAOS_PLAYERS (12), CHAOS_EVERY_MS (4000).
// CHAOS_NATS_CLUSTER=3: NATS is a cluster of three (R3 stream and buckets), and its turn kills one
// node (SIGKILL) for CHAOS_NODE_DOWN_MS (2000) instead of restarting the one server.
// CHAOS_PG_STANDBY=1: Postgres is a primary with a synchronous streaming standby behind a stable
// address, and its turn loses the primary (SIGKILL) and promotes the standby CHAOS_NODE_DOWN_MS later.
// Either prints what each loss cost the clients (support/outage-log.ts).
// Beside the clients, the provider simulator plays a casino aggregator's and a sportsbook's sessions
// on the provider wallet API (support/provider-play.ts; CHAOS_PROVIDERS=0 leaves it out).
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OperatorClient, ClientResponse } from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import { freePort, startEmbeddedPostgres, startNatsServer, type InfraOptions, type LocalServer } from '../../scripts/local-infra.ts';
import { ADMIN_TOKEN, startStack, type Component, type Stack } from './support/stack.ts';
import { activatedPerson } from './support/people.ts';
import { startWebhookReceiver } from './support/webhook-receiver.ts';
import { runSuspendedPlayProbe } from './support/suspended-play-probe.ts';
import { jetStreamReplicas, startNatsCluster } from './support/nats-cluster.ts';
import { startPostgresPair } from './support/postgres-standby.ts';
import { startOutageLog } from './support/outage-log.ts';
import { runProviderPlay } from './support/provider-play.ts';

const SECONDS = Number(process.env.CHAOS_SECONDS ?? 90);
const CLIENTS = Number(process.env.CHAOS_CLIENTS ?? 6);
const PLAYERS = Number(process.env.CHAOS_PLAYERS ?? 12);
const EVERY_MS = Number(process.env.CHAOS_EVERY_MS ?? 4000);
const NATS_CLUSTER = Number(process.env.CHAOS_NATS_CLUSTER ?? 0);
const NODE_DOWN_MS = Number(process.env.CHAOS_NODE_DOWN_MS ?? 2000);
const PG_STANDBY = process.env.CHAOS_PG_STANDBY === '1';
/** CHAOS_TARGETS=nats,postgres: only these are broken (one loss measured alone); CHAOS_LOG_LEVEL=warn shows the components' logs at the end. */
const TARGETS = process.env.CHAOS_TARGETS?.split(',');
const LOG_LEVEL = process.env.CHAOS_LOG_LEVEL ?? 'error';
const say = (msg: string) => console.log(`[chaos] ${new Date().toISOString().slice(11, 19)} ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cents = (s: string) => Math.round(Number(s) * 100);
const money = (c: number) => (c / 100).toFixed(2);

// ---------------------------------------------------------------- private, restartable servers
const dataDir = path.join(os.tmpdir(), `bo-chaos-${randomUUID().slice(0, 8)}`);
mkdirSync(dataDir, { recursive: true, mode: 0o755 });
const infraOpts: InfraOptions = {
  purpose: 'chaos',
  dataDir,
  log: say,
  ownServers: true,
  keepData: true,
  ports: { postgres: await freePort(), nats: await freePort() },
};
const pgPair = PG_STANDBY ? await startPostgresPair({ dataDir, log: say }) : undefined;
let postgres: LocalServer = pgPair ?? (await startEmbeddedPostgres(infraOpts));
const natsCluster = NATS_CLUSTER > 1 ? await startNatsCluster({ dataDir, size: NATS_CLUSTER, log: say }) : undefined;
let nats: LocalServer = natsCluster ?? (await startNatsServer(infraOpts));
process.env.DATABASE_URL = postgres.url;
process.env.NATS_URL = nats.url;
say(`private ${postgres.describe}; ${nats.describe}`);
const outages = startOutageLog();

const figures = {
  requests: 0,
  retries: 0,
  kills: {} as Record<string, number>,
  deposits: 0,
  withdrawalsPaid: 0,
  withdrawalsRefused: 0,
  malformedRefused: 0,
  teamDecisions: 0,
  adminChanges: 0,
};
/** Malformed requests that got anything but their 422. */
const malformedNotRefused: string[] = [];
let stack: Stack | undefined;
let failed = false;
try {
  // Fast webhook retries and reconciler, so the system settles within the run.
  stack = await startStack({
    RPC_TIMEOUT_MS: '3000',
    WEBHOOK_RETRY_SCHEDULE_MS: '200,400,800,1600,3200,5000,5000',
    RECONCILE_INTERVAL_MS: '500',
    RECONCILE_AFTER_MS: '1000',
    LOG_LEVEL,
    ...(natsCluster ? { NATS_REPLICAS: String(NATS_CLUSTER) } : {}),
  });
  const s = stack;
  const op = await s.createOperator('Chaos Bets');
  const receiver = await startWebhookReceiver(op.sandbox.webhookSecret);
  await s.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/sandbox`, { url: receiver.url });
  await s.admin('PUT', `/admin/operators/${op.operator.id}/rate-limit`, { perMinute: 1_000_000 });
  const c = op.sandboxClient;

  // Every 5xx the workload is answered: an outage (a process, NATS or Postgres away) is 503
  // SERVICE_UNAVAILABLE with Retry-After; any other 5xx (a 500 above all) is a fault.
  const serverErrors = { unavailable: 0, other: 0, unavailableWithoutRetryAfter: 0, examples: [] as string[] };
  const count5xx = (r: ClientResponse, what: string) => {
    if (r.status === 503) {
      serverErrors.unavailable++;
      if (r.headers.get('retry-after')) return;
      serverErrors.unavailableWithoutRetryAfter++;
    } else serverErrors.other++;
    if (serverErrors.examples.length < 5) serverErrors.examples.push(`${what}: ${r.status} ${r.body?.error?.code ?? r.text.slice(0, 80)}`);
  };

  /** The same request (same key) until it gets a final answer: what a careful operator does. */
  async function untilAnswered(send: () => Promise<ClientResponse>, what: string): Promise<ClientResponse> {
    const startedAt = Date.now();
    const deadline = startedAt + 180_000;
    for (let attempt = 0; ; attempt++) {
      figures.requests++;
      const r = await send().catch(() => undefined);
      if (r && r.status >= 500) count5xx(r, what);
      const retryable = !r || r.status >= 500 || r.status === 429 || (r.status === 409 && r.body?.error?.code === 'IDEMPOTENCY_IN_PROGRESS');
      if (!retryable) {
        outages.request(startedAt, Date.now(), attempt);
        return r!;
      }
      if (Date.now() > deadline) {
        outages.request(startedAt, Date.now(), attempt + 1, true);
        throw new Error(`${what}: no final answer in 180 s (last ${r?.status ?? 'no answer'})`);
      }
      figures.retries++;
      await sleep(Math.min(2000, 100 * 2 ** Math.min(attempt, 5)));
    }
  }
  const post = (client: OperatorClient, p: string, body: unknown, what: string) => {
    const key = { 'idempotency-key': `chaos-${randomUUID()}` };
    return untilAnswered(() => client.post(p, body, key), what);
  };

  // Our team's decisions are people's (personal tokens): two finance people (four eyes) and one in
  // compliance, each activated and with the token made from their own session (issue #56).
  const personalToken = async (email: string, role: string) =>
    (await activatedPerson(s.adminUrl, { authorization: `Bearer ${ADMIN_TOKEN}` }, { email, role })).token!;
  const team = {
    approver: await personalToken('approver@chaos.example', 'finance'),
    payer: await personalToken('payer@chaos.example', 'finance'),
    compliance: await personalToken('compliance@chaos.example', 'compliance'),
  };
  /** A team decision on the admin API, with one Idempotency-Key until it is answered. */
  const decideAsTeam = (secret: string, method: string, p: string, body: unknown, what: string) => {
    const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': `chaos-${randomUUID()}` };
    return untilAnswered(async () => {
      const res = await fetch(`${s.adminUrl}${p}`, { method, headers, body: JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
    }, what);
  };
  /** Every decision and admin change answered 2xx, by audit target: how many rows of which action each must have. */
  const decisionsMade = new Map<string, Map<string, number>>();
  const expectRow = (target: string, action: string) => {
    const byAction = decisionsMade.get(target) ?? new Map<string, number>();
    byAction.set(action, (byAction.get(action) ?? 0) + 1);
    decisionsMade.set(target, byAction);
  };
  const decided = (target: string, action: string) => {
    expectRow(target, action);
    figures.teamDecisions++;
  };
  /** An admin change that is no decision (issue #56: audited by the service that made it, in its transaction). */
  const changed = (target: string, action: string) => {
    expectRow(target, `${action}:`);
    figures.adminChanges++;
  };
  // The operator's set-up above, before any fault.
  changed(`operator:${op.operator.id}`, 'adminCreateOperator');
  changed(`operator:${op.operator.id}`, 'adminSetWebhookUrl');
  changed(`operator:${op.operator.id}`, 'adminSetRateLimit');

  // A provider of its own that our team changes during the faults, each change with its own
  // Idempotency-Key and retried with it (issue #56: 3 of 37 such changes had no audit row in two
  // fault runs). Offered to an operator of nobody's, so nothing else the run does sees it.
  const created = await decideAsTeam(
    ADMIN_TOKEN,
    'POST',
    '/admin/providers',
    { name: `Chaos audited ${randomUUID().slice(0, 8)}`, kind: 'casino' },
    'provider',
  );
  if (created.status !== 201) throw new Error(`provider: ${created.status} ${created.text}`);
  const changedProvider = created.body.id as string;
  changed(`provider:${changedProvider}`, 'adminCreateProvider');
  /** Client `n`'s provider change of its iteration `i`: the game enabled or not, the offer made or withdrawn, the provider enabled or disabled. */
  async function providerChange(n: number, i: number): Promise<void> {
    const on = (n + i) % 2 === 0;
    const changes = [
      ['PUT', `/admin/providers/${changedProvider}/games/chaos-slot`, { name: 'Chaos Slot', category: 'slots', enabled: on }, 'adminPutProviderGame'],
      ['PUT', `/admin/providers/${changedProvider}/operators/op_chaos_audited`, { enabled: on }, 'adminSetProviderOperator'],
      ['PUT', `/admin/providers/${changedProvider}`, { status: on ? 'enabled' : 'disabled' }, 'adminUpdateProvider'],
    ] as const;
    const [method, p, body, action] = changes[Math.floor(i / 5 + n) % changes.length]!;
    const r = await decideAsTeam(ADMIN_TOKEN, method, p, body, action);
    if (r.status !== 200) throw new Error(`${action}: ${r.status} ${r.text}`);
    changed(`provider:${changedProvider}`, action);
  }

  // Players, approved, before the chaos starts.
  const players: string[] = [];
  for (let i = 0; i < PLAYERS; i++) {
    const p = await post(
      c,
      '/players',
      { externalId: `chaos-${i}`, name: 'Ana Souza', email: `p${i}@example.com`, cpf: '52998224725', birthDate: '1990-05-17' },
      'create player',
    );
    await post(c, `/players/${p.body.id}/kyc/submissions`, { documentType: 'rg', reference: `s3://docs/${i}` }, 'kyc');
    await post(c, `/sandbox/players/${p.body.id}/kyc/decision`, { status: 'aprovado' }, 'approve');
    players.push(p.body.id);
  }
  say(`${PLAYERS} players approved; ${CLIENTS} clients for ${SECONDS} s, something killed every ${EVERY_MS} ms`);

  const confirmedDeposits = new Map<string, { player: string; amount: string }>();
  const withdrawals = new Map<string, { player: string; amount: string; status: string }>();
  const endAt = Date.now() + SECONDS * 1000;

  /** Refused whatever is down: a deposit whose body is not UTF-8, a query not validly percent-encoded (422 naming the part). */
  async function malformedProbe(player: string): Promise<void> {
    const ref = Buffer.concat([Buffer.from(`chaos-${randomUUID()}-`), Buffer.from([0xff])]);
    const body = Buffer.concat([Buffer.from('{"amount":"1.00","currency":"BRL","method":"pix","externalReference":"'), ref, Buffer.from('"}')]);
    const deposit = await post(c, `/players/${player}/deposits`, body, 'deposit not in UTF-8');
    const query = await untilAnswered(() => c.get('/players?externalId=%FF%FE'), 'query not validly percent-encoded');
    for (const [r, part] of [
      [deposit, 'body'],
      [query, 'query'],
    ] as const) {
      if (r.status === 422 && r.body?.error?.details?.in === part) figures.malformedRefused++;
      else malformedNotRefused.push(`${part}: ${r.status} ${r.text.slice(0, 200)}`);
    }
  }

  async function client(n: number): Promise<void> {
    for (let i = 0; Date.now() < endAt; i++) {
      const player = players[(n + i) % players.length]!;
      if (i % 5 === 4) await malformedProbe(player);
      if (i % 5 === 1) await providerChange(n, i);
      if (i % 3 !== 2) {
        const amount = `${10 + ((n * 7 + i) % 40)}.00`;
        const d = await post(
          c,
          `/players/${player}/deposits`,
          { amount, currency: 'BRL', method: 'pix', externalReference: `chaos-${randomUUID()}` },
          'deposit',
        );
        if (d.status !== 201) throw new Error(`deposit refused: ${d.status} ${d.text}`);
        const confirmed = await post(c, `/deposits/${d.body.id}/confirm`, undefined, 'confirm');
        if (confirmed.status !== 200 || confirmed.body.status !== 'confirmed') throw new Error(`confirm: ${confirmed.status} ${confirmed.text}`);
        confirmedDeposits.set(d.body.id, { player, amount });
        figures.deposits++;
      } else {
        const w = await post(c, `/players/${player}/withdrawals`, { amount: '5.00', currency: 'BRL', method: 'pix', destination: 'key' }, 'withdrawal');
        if (w.status !== 201) {
          figures.withdrawalsRefused++;
          continue;
        } // e.g. INSUFFICIENT_FUNDS early on
        withdrawals.set(w.body.id, { player, amount: '5.00', status: w.body.status });
        for (const decision of ['approve', 'pay']) {
          const r = await decideAsTeam(
            team[decision === 'approve' ? 'approver' : 'payer'],
            'POST',
            `/admin/withdrawals/${w.body.id}/decision`,
            { decision },
            decision,
          );
          if (r.status !== 200) throw new Error(`${decision}: ${r.status} ${r.text}`);
          withdrawals.get(w.body.id)!.status = r.body.status;
          decided(`withdrawal:${w.body.id}`, `adminWithdrawalDecision:${r.body.status}`);
        }
        figures.withdrawalsPaid++;
      }
      // Compliance confirms a player's KYC, and sets the brand's AML rules as they are.
      if (i % 4 === 3) {
        const r = await decideAsTeam(team.compliance, 'POST', `/admin/players/${player}/kyc/decision`, { status: 'aprovado', reason: 'chaos review' }, 'kyc');
        if (r.status !== 200) throw new Error(`KYC decision: ${r.status} ${r.text}`);
        decided(`player:${player}`, 'adminKycDecision:');
      }
      if (i % 10 === 9) {
        const current = await untilAnswered(async () => {
          const res = await fetch(`${s.adminUrl}/admin/aml/brands/${op.sandbox.brandId}/rules`, { headers: { authorization: `Bearer ${team.compliance}` } });
          const text = await res.text();
          return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
        }, 'AML rules');
        const r = await decideAsTeam(team.compliance, 'PUT', `/admin/aml/brands/${op.sandbox.brandId}/rules`, current.body.thresholds, 'AML rules');
        if (r.status !== 200) throw new Error(`AML rules: ${r.status} ${r.text}`);
        decided(`aml_rules:${op.sandbox.brandId}`, 'adminSetAmlRules:');
      }
    }
  }

  async function chaos(): Promise<void> {
    const all: Array<Component | 'nats' | 'postgres'> = ['players', 'wallet', 'payments', 'webhooks', 'operators', 'compliance', 'gateway', 'nats', 'postgres'];
    const targets = TARGETS ? all.filter((t) => TARGETS.includes(t)) : all;
    for (let i = 0; Date.now() < endAt - EVERY_MS; i++) {
      await sleep(EVERY_MS);
      const target = targets[i % targets.length]!;
      figures.kills[target] = (figures.kills[target] ?? 0) + 1;
      if (target === 'nats' && natsCluster) {
        const node = natsCluster.nodes[(figures.kills.nats! - 1) % natsCluster.nodes.length]!;
        // What it leads loses its writes until the others elect a leader (docs/operations.md).
        const led = (await jetStreamReplicas(nats.url, s.prefix).catch(() => []))
          .filter((r) => r.leader === node.name)
          .map((r) => r.stream.replace(`${s.prefix}_`, ''));
        const from = Date.now();
        await node.kill();
        await sleep(NODE_DOWN_MS);
        await node.start();
        outages.loss(`nats node ${node.name} (SIGKILL, ${NODE_DOWN_MS} ms down; leader of ${led.join(', ') || 'nothing of ours'})`, from, Date.now());
      } else if (target === 'nats') {
        await nats.stop();
        nats = await startNatsServer(infraOpts);
      } else if (target === 'postgres' && pgPair) {
        const { lostAt, servingAt, primary } = await pgPair.switchover(NODE_DOWN_MS);
        outages.loss(`postgres primary lost (SIGKILL), ${primary} promoted ${NODE_DOWN_MS} ms later`, lostAt, servingAt);
      } else if (target === 'postgres') {
        await postgres.stop();
        await sleep(500);
        postgres = await startEmbeddedPostgres(infraOpts);
      } else {
        await s.kill(target!, 'SIGKILL');
        await s.start(target!);
      }
      const how = {
        nats: natsCluster ? 'node killed (SIGKILL) and restarted' : 'restarted',
        postgres: pgPair ? 'primary lost, standby promoted' : 'restarted',
      };
      say(`${target} ${target === 'nats' || target === 'postgres' ? how[target] : 'killed (SIGKILL) and restarted'}`);
    }
  }

  // A suspended operator's open game session must stop playing (issue #24): its own operator and player.
  const suspendedPlay = runSuspendedPlayProbe(s, endAt);
  // Providers' calls, each retried with its transaction id: every one exactly once in the ledger (issue #44).
  const providerPlay = process.env.CHAOS_PROVIDERS === '0' ? undefined : runProviderPlay(s, { operatorId: op.operator.id, sandbox: op.sandbox }, endAt);
  await Promise.all([chaos(), ...Array.from({ length: CLIENTS }, (_, n) => client(n))]);
  say(
    `workload done: ${figures.deposits} deposits confirmed, ${figures.withdrawalsPaid} withdrawals paid, ${figures.requests} requests, ${figures.retries} retries`,
  );
  await s.waitReady();

  // ------------------------------------------------------------------------------ invariants
  const problems: string[] = malformedNotRefused.map((m) => `malformed request not refused with 422: ${m}`);
  const verify = await s.admin('GET', '/admin/ledger/verify');
  if (verify.status !== 200 || verify.body.ok !== true) problems.push(`ledger verify: ${JSON.stringify(verify.body)}`);

  for (const player of players) {
    const entries: Array<{ type: string; amount: string; referenceId: string }> = [];
    for (let cursor: string | null = null; ; ) {
      const page: ClientResponse = await untilAnswered(
        () => c.get(`/players/${player}/transactions?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
        'transactions',
      );
      entries.push(...page.body.data);
      cursor = page.body.nextCursor;
      if (!cursor) break;
    }
    const count = (type: string, ref: string) => entries.filter((e) => e.type === type && e.referenceId === ref).length;
    let expected = 0;
    for (const [id, d] of confirmedDeposits) {
      if (d.player !== player) continue;
      expected += cents(d.amount);
      if (count('DEPOSIT', id) !== 1) problems.push(`deposit ${id} credited ${count('DEPOSIT', id)} times`);
    }
    for (const [id, w] of withdrawals) {
      if (w.player !== player) continue;
      const debits = count('WITHDRAWAL', id);
      if (w.status === 'paid') expected -= cents(w.amount);
      if (debits !== (w.status === 'paid' ? 1 : 0)) problems.push(`withdrawal ${id} (${w.status}) debited ${debits} times`);
    }
    const wallet = await untilAnswered(() => c.get(`/players/${player}/wallet`), 'wallet');
    if (cents(wallet.body.available) !== expected) problems.push(`player ${player}: available ${wallet.body.available}, clients were told ${money(expected)}`);
    const ledgerSum = entries.reduce((sum, e) => sum + cents(e.amount), 0);
    if (ledgerSum !== expected) problems.push(`player ${player}: ledger sums to ${money(ledgerSum)}, expected ${money(expected)}`);
  }

  // Every event the clients caused reaches the receiver (deduplicated by event id).
  const seen = () =>
    new Set(
      receiver.received
        .filter((r) => r.verified)
        .map((r) => JSON.stringify([r.type, r.body.data.id ?? r.body.data.withdrawal?.id, r.body.data.withdrawal?.status ?? r.body.data.status])),
    );
  const wanted = [
    ...[...confirmedDeposits.keys()].map((id) => JSON.stringify(['deposit.confirmed', id, 'confirmed'])),
    ...[...withdrawals.keys()].map((id) => JSON.stringify(['withdrawal.status_changed', id, 'paid'])),
  ];
  const delivered = await waitFor(
    async () => {
      const got = seen();
      return wanted.every((w) => got.has(w)) ? got : undefined;
    },
    { timeoutMs: 120_000, what: 'every event at the receiver' },
  ).catch(() => seen());
  const missing = wanted.filter((w) => !delivered.has(w));
  if (missing.length) problems.push(`${missing.length} of ${wanted.length} events never reached the receiver, e.g. ${missing.slice(0, 3).join(' ')}`);
  await receiver.close();

  // The probe's admin changes (its operator, its player's KYC, every suspension and resumption) are
  // counted with the rest: it has ended once its last resumption was answered.
  const paused = await suspendedPlay;
  for (const c of paused.adminChanges)
    if (c.action === 'adminKycDecision') decided(c.target, `${c.action}:`);
    else changed(c.target, c.action);

  // Every team decision and admin change that was answered has exactly one audit row (issues #40,
  // #56): none lost to a timeout, a replay, a kill or the operators service away, none written
  // twice. Rows arrive through the outbox of the service that made the change: waited for, then counted.
  const auditCounts = async (target: string) => {
    const counts = new Map<string, number>();
    // Every page of the target's log (a busy target has more rows than a page holds).
    for (let after: string | undefined, more = true; more; ) {
      const page = `/admin/audit?target=${encodeURIComponent(target)}&limit=200${after ? `&startingAfter=${after}` : ''}`;
      const r = await untilAnswered(() => s.admin('GET', page) as Promise<ClientResponse>, 'audit');
      if (r.status !== 200) throw new Error(`audit of ${target}: ${r.status} ${JSON.stringify(r.body)}`);
      const rows = r.body.data as Array<{ id: string; action: string; after: { status?: string } | null }>;
      for (const row of rows) {
        const k = `${row.action}:${row.action === 'adminWithdrawalDecision' ? (row.after?.status ?? '') : ''}`;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      more = r.body.hasMore === true && rows.length > 0;
      after = rows.at(-1)?.id;
    }
    return counts;
  };
  const auditGaps = async () => {
    const gaps: string[] = [];
    for (const [target, byAction] of decisionsMade) {
      const got = await auditCounts(target);
      for (const [action, n] of byAction)
        if ((got.get(action) ?? 0) !== n) gaps.push(`${target} ${action.replace(/:$/, '')}: ${n} answered, ${got.get(action) ?? 0} audit rows`);
    }
    return gaps;
  };
  const auditProblems = await waitFor(async () => ((await auditGaps()).length === 0 ? [] : undefined), {
    timeoutMs: 120_000,
    what: 'every decision and admin change audited',
  }).catch(() => auditGaps());
  say(`team decisions: ${figures.teamDecisions}, other admin changes: ${figures.adminChanges}; each with exactly one audit row: ${auditProblems.length === 0}`);
  for (const gap of auditProblems) problems.push(`audit: ${gap}`);

  if (natsCluster) {
    const replicas = await jetStreamReplicas(nats.url, s.prefix);
    say(`JetStream replicas: ${replicas.map((r) => `${r.stream} R${r.replicas}`).join(', ')}`);
    for (const r of replicas) if (r.replicas !== NATS_CLUSTER) problems.push(`${r.stream} has ${r.replicas} replicas, not ${NATS_CLUSTER}`);
  }
  const losses = outages.report();
  for (const l of losses) {
    say(
      `loss: ${l.what}: ${l.lossMs} ms; ${l.requests} requests overlapped it, ${l.failedAttempts} attempts failed (retried), ${l.failedAfterRetries} failed after retries; p50 ${l.p50Ms} ms, p99 ${l.p99Ms} ms, max ${l.maxMs} ms`,
    );
    if (l.failedAfterRetries > 0) problems.push(`${l.failedAfterRetries} requests failed after retries during ${l.what}`);
  }

  if (providerPlay) {
    const played = await providerPlay;
    const c = played.counts;
    say(
      `provider play: ${played.sessions} sessions, ${played.transactions} transactions (${c.bets} bets, ${c.wins} wins, ${c.rollbacks} rollbacks, ${c.corrections} corrections), ${c.replays} replays, ${c.retries} retries; each exactly once in the ledger: ${played.problems.length === 0}`,
    );
    problems.push(...played.problems.map((p) => `provider play: ${p}`));
  }
  say(`suspended-play probe: ${paused.cycles} suspend/resume cycles, ${paused.played} rounds played while active, ${paused.refused} refused while suspended`);
  problems.push(...paused.problems);

  console.log(
    JSON.stringify(
      {
        seconds: SECONDS,
        clients: CLIENTS,
        players: PLAYERS,
        ...figures,
        serverErrors,
        eventsExpected: wanted.length,
        eventsReceived: receiver.received.length,
        ledgerVerify: verify.body?.ok === true,
        ...(losses.length ? { losses } : {}),
      },
      null,
      2,
    ),
  );
  say(`5xx answers other than 503: ${serverErrors.other}; 503 without Retry-After: ${serverErrors.unavailableWithoutRetryAfter}`);
  if (serverErrors.other > 0 || serverErrors.unavailableWithoutRetryAfter > 0) {
    problems.push(`outages answered as something else than a 503 with Retry-After, e.g. ${serverErrors.examples.join('; ')}`);
  }
  if (LOG_LEVEL !== 'error') for (const [c, lines] of s.logs) console.log(`--- ${c}\n${lines.slice(-60).join('\n')}`);
  if (problems.length) {
    failed = true;
    for (const p of problems) say(`BROKEN: ${p}`);
  } else say('every invariant holds');
} catch (err) {
  failed = true;
  console.error('[chaos]', err);
} finally {
  await stack?.close().catch(() => undefined);
  await nats.stop().catch(() => undefined);
  await postgres.stop().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
