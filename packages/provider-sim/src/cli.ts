// `npm run provider-sim -- [options]`: plays as a casino aggregator and as a sportsbook against the
// provider wallet API through the gateway (README.md of this package), and prints a summary.
// Exits 1 when an answer was not what the scenario expected, a wallet disagrees with the
// simulator's book, or the ledger does not verify.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ProviderKind } from '@bo/contracts';
import { startLaunchServer } from './launch-server.ts';
import { DEFAULTS, runSimulation } from './simulator.ts';
import { runHub88Simulation } from './hub88/simulation.ts';
import { runEvolutionSimulation } from './evolution/simulation.ts';
import { runBetsySimulation } from './betsy/simulation.ts';

const usage = `usage: npm run provider-sim -- [options]
  --protocol native|hub88|evolution|betsy
                           native (default): /provider/v1 as a casino aggregator and a sportsbook; hub88: Hub88's
                           Wallet API on a Hub88 connector, with Hub88's retry and rollback policy; evolution: Evolution's
                           One Wallet on an Evolution connector, with its retransmission and cancel policy; betsy: Betsy's
                           sportsbook on a Betsy connector (bets rolled back on no answer, rollbacks and settles sent until
                           answered, resettles, unsettles, cash-outs, a player's debt) (the admin
                           token is needed: our team's setup of the connector is part of the run; --launch-* place the
                           aggregator's launch API: Hub88's Games API, Evolution's UA API)
  --gateway URL            the gateway's public URL (default http://127.0.0.1:\${PORT:-3000})
  --operator-key K         the operator's sandbox key (default OPERATOR_KEY, else the demo operator of \`npm start\`)
  --operator-secret S      its secret (default OPERATOR_SECRET)
  --admin URL              the admin API (default http://127.0.0.1:\${ADMIN_PORT:-3001}); with --admin-token (default
  --admin-token T          ADMIN_TOKEN, else the one \`npm start\` keeps): registers a casino and a sportsbook provider
  --provider-key K         or play as an existing provider: its key (pk_test_…), secret, kind, and one game
  --provider-secret S        (--game-id gm_… as our catalogue names it, --game-code as the provider does)
  --kind casino|sportsbook
  --game-id ID --game-code CODE
  --launch-host H --launch-port P --launch-url URL   where the launch endpoint listens, and its URL as the wallet reaches it
  --sessions N (${DEFAULTS.sessions}) --concurrency N (${DEFAULTS.concurrency}) --rounds N (${DEFAULTS.rounds}) --funds AMOUNT (${DEFAULTS.funds})
  --timeout-ms N (${DEFAULTS.timeoutMs})   the client's timeout per attempt; a call with no answer is sent again with the same id
  --max-expiry-wait-ms N (${DEFAULTS.maxExpiryWaitMs})   how long a session's end is waited for (the wins after it); a session ending later skips that scenario
  --funded                 casino sessions also play free bets, a promotional credit, a jackpot contribution and win (issue #59; not under br-spa)
  --statement              at the end, the casino provider's daily statement with planted differences, reconciled on the admin API
  --json                   print the summary only, as JSON (with every transaction)`;

const { values: o } = parseArgs({
  options: {
    protocol: { type: 'string' },
    gateway: { type: 'string' },
    'operator-key': { type: 'string' },
    'operator-secret': { type: 'string' },
    admin: { type: 'string' },
    'admin-token': { type: 'string' },
    'provider-key': { type: 'string' },
    'provider-secret': { type: 'string' },
    kind: { type: 'string' },
    'game-id': { type: 'string' },
    'game-code': { type: 'string' },
    'launch-host': { type: 'string' },
    'launch-port': { type: 'string' },
    'launch-url': { type: 'string' },
    sessions: { type: 'string' },
    concurrency: { type: 'string' },
    rounds: { type: 'string' },
    funds: { type: 'string' },
    'timeout-ms': { type: 'string' },
    'max-expiry-wait-ms': { type: 'string' },
    funded: { type: 'boolean' },
    statement: { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (o.help) {
  console.log(usage);
  process.exit(0);
}
const fail = (msg: string): never => {
  console.error(`${msg}\n\n${usage}`);
  process.exit(2);
};

// `npm start` keeps the demo operator and the admin token in its data folder (START_DATA_DIR, default .data).
const dataDir = path.resolve(import.meta.dirname, '../../..', process.env.START_DATA_DIR || '.data');
const kept = (name: string) => (existsSync(path.join(dataDir, name)) ? readFileSync(path.join(dataDir, name), 'utf8').trim() : undefined);
const demo = kept('demo-operator.json');
const operator =
  o['operator-key'] || process.env.OPERATOR_KEY
    ? {
        key: o['operator-key'] ?? process.env.OPERATOR_KEY!,
        secret: o['operator-secret'] ?? process.env.OPERATOR_SECRET ?? fail('--operator-secret is needed'),
      }
    : demo
      ? (JSON.parse(demo).sandbox as { key: string; secret: string })
      : fail('No operator key: --operator-key/--operator-secret, OPERATOR_KEY/OPERATOR_SECRET, or run `npm start` once.');

const int = (v: string | undefined, d: number) =>
  v === undefined ? d : Number.isInteger(Number(v)) && Number(v) > 0 ? Number(v) : fail(`not a positive integer: ${v}`);
const adminToken = o['admin-token'] ?? process.env.ADMIN_TOKEN ?? kept('admin-token');
const providerGiven = o['provider-key'] !== undefined;
if (providerGiven && !(o['provider-secret'] && o['game-id'] && o['game-code'])) fail('--provider-key needs --provider-secret, --game-id and --game-code');
if (o.kind !== undefined && o.kind !== 'casino' && o.kind !== 'sportsbook') fail(`--kind: casino or sportsbook, not ${o.kind}`);
if (!providerGiven && !adminToken) fail('No admin token to register the providers: --admin-token, ADMIN_TOKEN, or an existing provider (--provider-key …).');

const protocol = o.protocol ?? 'native';
if (protocol !== 'native' && protocol !== 'hub88' && protocol !== 'evolution' && protocol !== 'betsy')
  fail(`--protocol: native, hub88, evolution or betsy, not ${protocol}`);
const log = o.json ? () => undefined : (line: string) => console.log(`[provider-sim] ${new Date().toISOString().slice(11, 19)} ${line}`);
/** What every run reads from the command line: the gateway, the operator, the load, and the client's patience. */
const gatewayUrl = o.gateway ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const adminUrl = o.admin ?? `http://127.0.0.1:${process.env.ADMIN_PORT ?? 3001}`;
const load = {
  sessions: int(o.sessions, DEFAULTS.sessions),
  concurrency: int(o.concurrency, DEFAULTS.concurrency),
  rounds: int(o.rounds, DEFAULTS.rounds),
  funds: o.funds ?? DEFAULTS.funds,
  retryDeadlineMs: DEFAULTS.retryDeadlineMs,
  timeoutMs: int(o['timeout-ms'], DEFAULTS.timeoutMs),
  maxExpiryWaitMs: o['max-expiry-wait-ms'] === undefined ? DEFAULTS.maxExpiryWaitMs : int(o['max-expiry-wait-ms'], 0),
};
/** Where the games' launches are received (ours, Evolution's UA server, Hub88's games server). */
const launchAt = {
  host: o['launch-host'] ?? '127.0.0.1',
  port: o['launch-port'] === undefined ? 0 : int(o['launch-port'], 0),
  ...(o['launch-url'] ? { publicUrl: o['launch-url'] } : {}),
};

if (protocol !== 'native') {
  // A connector's run registers the provider and sets up its connector: our team's token.
  if (!adminToken)
    fail(`--protocol ${protocol} registers and sets up the connector: it needs the admin token (--admin-token, ADMIN_TOKEN, or \`npm start\` once).`);
  const run = { gatewayUrl, operator, admin: { url: adminUrl, token: adminToken! }, ...load, log };
  try {
    const summary =
      protocol === 'betsy'
        ? await runBetsySimulation(run)
        : protocol === 'evolution'
          ? await runEvolutionSimulation({ ...run, uaServer: launchAt })
          : await runHub88Simulation({ ...run, gamesServer: launchAt });
    console.log(JSON.stringify(summary, null, 2));
    log(summary.problems.length === 0 ? 'every answer as expected' : `${summary.problems.length} problems`);
    process.exitCode = summary.problems.length === 0 && summary.ledger.ok !== false ? 0 : 1;
  } catch (e) {
    console.error('[provider-sim]', e instanceof Error ? e.message : e);
    process.exitCode = 1;
  }
  process.exit();
}

const launch = await startLaunchServer(launchAt);
try {
  const summary = await runSimulation({
    gatewayUrl,
    operator,
    ...(adminToken ? { admin: { url: adminUrl, token: adminToken } } : {}),
    ...(providerGiven
      ? {
          providers: [
            {
              providerId: 'given',
              kind: (o.kind ?? 'casino') as ProviderKind,
              key: o['provider-key']!,
              secret: o['provider-secret']!,
              games: [{ id: o['game-id']!, code: o['game-code']! }],
            },
          ],
        }
      : {}),
    launch,
    ...load,
    sportsEvery: DEFAULTS.sportsEvery,
    providerFunded: o.funded === true,
    statement: o.statement === true,
    log,
  });
  if (o.json) console.log(JSON.stringify(summary, null, 2));
  else {
    const { transactions, balances, ...figures } = summary;
    console.log(JSON.stringify({ ...figures, transactions: transactions.length }, null, 2));
    log(summary.problems.length === 0 ? 'every answer as expected' : `${summary.problems.length} problems`);
  }
  process.exitCode = summary.problems.length === 0 && summary.ledger.ok !== false ? 0 : 1;
} catch (e) {
  console.error('[provider-sim]', e instanceof Error ? e.message : e);
  process.exitCode = 1;
} finally {
  await launch.close();
}
