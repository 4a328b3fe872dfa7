// The README's operation table and event type list, generated from @bo/contracts (the operations
// in contract order, their path parameters, whether a query or body is required, idempotency,
// sandbox-only) and the client's method names below. `node scripts/readme-tables.ts` rewrites them
// between their markers; test/readme.test.ts fails when the README is stale or a method is missing.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EVENT_TYPES, openApiPath, publicOperations, type Operation } from '@bo/contracts';

export const README_PATH = fileURLToPath(new URL('../README.md', import.meta.url));

/** The client's method for each operation (`group.method` on BackOffice). */
export const SDK_METHODS: Record<string, string> = {
  getMe: 'me.get',
  createPlayer: 'players.create',
  findPlayers: 'players.find',
  getPlayer: 'players.get',
  updatePlayer: 'players.update',
  setMarketingConsent: 'players.setMarketingConsent',
  listMarketingSuppressions: 'marketing.suppressions',
  reportLogin: 'players.reportLogin',
  publishTermsVersion: 'terms.publish',
  listTermsVersions: 'terms.list',
  acceptTerms: 'terms.accept',
  listTermsAcceptances: 'terms.acceptances',
  recordCommunication: 'players.recordCommunication',
  listCommunications: 'players.communications',
  fileDataRequest: 'dataRequests.file',
  listDataRequests: 'dataRequests.list',
  getDataRequest: 'dataRequests.get',
  getDataRequestFile: 'dataRequests.download',
  getKyc: 'kyc.get',
  submitKyc: 'kyc.submit',
  getResponsibleGaming: 'responsibleGaming.get',
  getPlayerHarmLevel: 'responsibleGaming.harmLevel',
  setLimit: 'responsibleGaming.setLimit',
  removeLimit: 'responsibleGaming.removeLimit',
  pausePlayer: 'responsibleGaming.pause',
  selfExclude: 'responsibleGaming.selfExclude',
  getWallet: 'wallet.get',
  listTransactions: 'wallet.transactions',
  createDeposit: 'deposits.create',
  confirmDeposit: 'deposits.confirm',
  failDeposit: 'deposits.fail',
  createWithdrawal: 'withdrawals.create',
  getWithdrawal: 'withdrawals.get',
  cancelWithdrawal: 'withdrawals.cancel',
  listGames: 'games.list',
  createGameSession: 'games.createSession',
  endGameSession: 'games.endSession',
  endPlayerGameSessions: 'games.endSessions',
  listPlayerRounds: 'games.rounds',
  testWebhook: 'webhooks.test',
  listWebhookEvents: 'webhooks.events',
  listWebhookEventAttempts: 'webhooks.attempts',
  redeliverWebhookEvent: 'webhooks.redeliver',
  sandboxKycDecision: 'sandbox.decideKyc',
  sandboxWithdrawalDecision: 'sandbox.decideWithdrawal',
  sandboxAddImpediment: 'sandbox.addImpediment',
  sandboxRemoveImpediment: 'sandbox.removeImpediment',
  sandboxCheckImpediments: 'sandbox.checkImpediments',
  sandboxNextDay: 'sandbox.nextDay',
  sandboxSetHarmMarkers: 'sandbox.setHarmMarkers',
  sandboxAddScreeningEntry: 'sandbox.addScreeningEntry',
  sandboxRemoveScreeningEntry: 'sandbox.removeScreeningEntry',
  sandboxAddPixKey: 'sandbox.addPixKey',
  sandboxRemovePixKey: 'sandbox.removePixKey',
};

type Schema = { required?: string[]; anyOf?: unknown[] };
/** Required unless every field is optional (a union, e.g. self-exclusion's, is required). */
const required = (schema: unknown) => Array.isArray((schema as Schema).anyOf) || ((schema as Schema).required ?? []).length > 0;

/** `group.method(pathParams…, query|body, opts?)`: one argument order for every operation. */
export function signatureOf(op: Operation): string {
  const name = SDK_METHODS[op.id];
  if (!name) throw new Error(`no SDK method named for operation ${op.id}: add it to SDK_METHODS and the client`);
  const args = [...op.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  // A download's only query is the gateway's cursor: never the caller's.
  if (op.query && !op.download) args.push(required(op.query) ? 'query' : 'query?');
  if (op.body) args.push(required(op.body) ? 'body' : 'body?');
  args.push('opts?');
  return `${name}(${args.join(', ')})`;
}

export function renderOperationTable(operations: Record<string, Operation> = publicOperations): string {
  const rows = Object.values(operations).map((op) => {
    const notes = [op.idempotent ? 'idempotent' : '', op.sandboxOnly ? 'sandbox keys only' : ''].filter(Boolean);
    return `| \`${signatureOf(op)}\` | \`${op.method} ${openApiPath(op.path)}\`${notes.length ? ` (${notes.join(', ')})` : ''} | ${op.summary} |`;
  });
  return ['| Method | Operation | What it does |', '|---|---|---|', ...rows].join('\n');
}

export function renderEventTypes(): string {
  return EVENT_TYPES.map((e) => `\`${e}\``).join(', ');
}

const between = (text: string, name: string, content: string): string => {
  const re = new RegExp(`(<!-- ${name}:start -->\\n)[\\s\\S]*?(<!-- ${name}:end -->)`);
  if (!re.test(text)) throw new Error(`README.md has no <!-- ${name}:start --> … <!-- ${name}:end --> markers`);
  return text.replace(re, (_m, open: string, close: string) => `${open}${content}\n${close}`);
};

/** The README with both generated parts as the contracts give them now. */
export function renderReadme(readme: string): string {
  return between(between(readme, 'operations', renderOperationTable()), 'event-types', renderEventTypes());
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(README_PATH, renderReadme(readFileSync(README_PATH, 'utf8')));
  console.log('wrote README.md (operations, event types)');
}
