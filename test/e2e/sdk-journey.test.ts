// The operator's journey through the SDK (packages/sdk) against the real processes: every call is
// an SDK method, every failure a typed SDK error, every webhook verified by the SDK with both
// signature schemes, and a lost response is retried by the SDK with the same Idempotency-Key.
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { API_VERSION } from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import {
  AuthenticationError,
  BackOffice,
  ConflictError,
  PermissionError,
  RateLimitError,
  ValidationError,
  canonicalRequestString,
  signRequest,
  verifyWebhook,
  type BackOfficeError,
  type VerifiedWebhook,
  type WebhookEvent,
} from '../../packages/sdk/src/index.ts';
import { startStack } from './support/stack.ts';

interface Delivery {
  id: string;
  type: string;
  xWebhook: VerifiedWebhook | string;
  standard: VerifiedWebhook | string;
}

/** The operator's receiver: verifies each delivery with the SDK, once per scheme, over the raw bytes. */
async function startSdkReceiver(secret: string) {
  const deliveries: Delivery[] = [];
  const verifyWith = (raw: Buffer, headers: http.IncomingHttpHeaders, scheme: 'x-webhook' | 'standard-webhooks') => {
    try {
      return verifyWebhook(raw, headers, { secret, scheme });
    } catch (e) {
      return (e as Error).message;
    }
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const xWebhook = verifyWith(raw, req.headers, 'x-webhook');
      const standard = verifyWith(raw, req.headers, 'standard-webhooks');
      const event = typeof xWebhook === 'string' ? undefined : xWebhook.event;
      deliveries.push({ id: String(req.headers['x-webhook-id']), type: event?.type ?? 'unverified', xWebhook, standard });
      res.writeHead(typeof xWebhook === 'string' ? 401 : 204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    deliveries,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const errorOf = async (p: Promise<unknown>): Promise<BackOfficeError> => {
  try {
    await p;
  } catch (e) {
    return e as BackOfficeError;
  }
  throw new Error('expected the call to fail');
};
const summary = (e: BackOfficeError) => ({ name: e.name, code: e.code, status: e.status, hasRequestId: typeof e.requestId === 'string' });

t.test('operator journey through the SDK', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('SDK Journey Bets');
  const receiver = await startSdkReceiver(op.sandbox.webhookSecret);
  t.teardown(() => receiver.close());
  // Our team configures the URL (admin API); everything else is the operator's SDK.
  t.equal((await stack.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/sandbox`, { url: receiver.url })).status, 200);

  const baseUrl = `${stack.publicUrl}/api/v1`;
  const sdk = new BackOffice({ baseUrl, key: op.sandbox.key, secret: op.sandbox.secret, webhookSecret: op.sandbox.webhookSecret });

  const me = await sdk.me.get();
  t.match(me, { operator: { id: op.operator.id, environment: 'sandbox' }, brand: { isSandbox: true, currency: 'BRL' }, apiVersion: API_VERSION });

  const test = await sdk.webhooks.test();
  t.match(test, { url: receiver.url, delivered: true, statusCode: 204, error: null });

  // Register, with a replay of the same key answering the same player.
  const input = {
    externalId: 'sdk-journey-1',
    name: 'Ana Souza',
    email: 'ana@example.com',
    cpf: '529.982.247-25',
    phone: '+5511987654321',
    birthDate: '1990-05-17',
  };
  const created = await sdk.request('createPlayer', { body: input }, { idempotencyKey: 'sdk-journey-player-1' });
  t.match(created, {
    status: 201,
    replayed: false,
    attempts: 1,
    body: { externalId: 'sdk-journey-1', cpf: '52998224725', status: 'ativo', kycStatus: 'nao_iniciado', currency: 'BRL' },
  });
  const player = created.body;
  const again = await sdk.request('createPlayer', { body: input }, { idempotencyKey: 'sdk-journey-player-1' });
  t.match(again, { status: 201, replayed: true, body: { id: player.id } }, 'the same key replays the first answer');
  t.same(
    (await sdk.players.find({ externalId: 'sdk-journey-1' })).data.map((p) => p.id),
    [player.id],
  );
  t.same(summary(await errorOf(sdk.players.create(input))), { name: 'ConflictError', code: 'PLAYER_ALREADY_EXISTS', status: 409, hasRequestId: true });
  const invalid = await errorOf(sdk.players.create({ ...input, externalId: 'sdk-journey-2', birthDate: '2020-01-01' }));
  t.ok(invalid instanceof ValidationError && invalid.is('VALIDATION_ERROR'));
  t.same(
    (invalid as ValidationError).issues.map((i) => i.path),
    ['/birthDate'],
  );

  // Before KYC: refused, typed.
  const early = await errorOf(sdk.withdrawals.create(player.id, { amount: '1.00', currency: 'BRL', method: 'pix', destination: 'x' }));
  t.ok(early instanceof PermissionError && early.is('KYC_NOT_APPROVED'));

  const submission = await sdk.kyc.submit(player.id, { documentType: 'rg', reference: 's3://docs/sdk-1' });
  t.match(submission, { playerId: player.id, documentType: 'rg', kycStatus: 'em_analise' });
  t.match(await sdk.kyc.get(player.id), { playerId: player.id, status: 'em_analise', submissions: [{ id: submission.id }] });
  t.match(await sdk.sandbox.decideKyc(player.id, { status: 'aprovado' }), { playerId: player.id, status: 'aprovado' });

  // Deposit whose first response is lost on the way back: the SDK retries with the same key and
  // the gateway replays, so there is one deposit and one credit.
  let lose = 0;
  const losingFirstResponses: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (lose > 0) {
      lose--;
      await res.arrayBuffer();
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    }
    return res;
  };
  const flaky = new BackOffice({ baseUrl, key: op.sandbox.key, secret: op.sandbox.secret, fetch: losingFirstResponses, retry: { baseDelayMs: 10 } });
  lose = 1;
  const deposit = await flaky.request('createDeposit', {
    params: { playerId: player.id },
    body: { amount: '100.00', currency: 'BRL', method: 'pix', externalReference: 'sdk-psp-1' },
  });
  t.match(
    deposit,
    { status: 201, attempts: 2, replayed: true, body: { playerId: player.id, amount: '100.00', status: 'pending' } },
    'retried with the same key and replayed',
  );
  const dup = await errorOf(sdk.deposits.create(player.id, { amount: '5.00', currency: 'BRL', method: 'pix', externalReference: 'sdk-psp-1' }));
  t.ok(dup instanceof ConflictError && dup.is('DEPOSIT_ALREADY_EXISTS'));
  t.equal(dup.details?.depositId, deposit.body.id, 'the conflict names the existing deposit');
  // The SDK's types offer BRL only; cast, to see what the API answers.
  const mismatch = await errorOf(sdk.deposits.create(player.id, { amount: '1.00', currency: 'USD' as 'BRL', method: 'pix', externalReference: 'sdk-psp-x' }));
  t.same(summary(mismatch), { name: 'ValidationError', code: 'CURRENCY_MISMATCH', status: 422, hasRequestId: true });
  lose = 1;
  const confirmed = await flaky.request('confirmDeposit', { params: { depositId: deposit.body.id } });
  t.match(confirmed, { status: 200, attempts: 2, replayed: true, body: { id: deposit.body.id, status: 'confirmed' } });
  t.same(
    summary(await errorOf(sdk.deposits.confirm(deposit.body.id))),
    { name: 'ConflictError', code: 'DEPOSIT_NOT_PENDING', status: 409, hasRequestId: true },
    'a new key is a new confirm: refused',
  );
  t.same(await sdk.wallet.get(player.id), { playerId: player.id, currency: 'BRL', available: '100.00', withdrawable: '100.00' }, 'credited once');

  const games = await sdk.games.list();
  t.ok(
    games.data.some((g) => g.id === 'gm_aviator_demo'),
    'the catalogue lists the demo game',
  );
  const session = await sdk.games.createSession(player.id, { gameId: 'gm_aviator_demo' });
  t.match(session, { playerId: player.id, gameId: 'gm_aviator_demo', mode: 'demo' });
  t.ok(session.gameUrl.startsWith(stack.publicUrl), 'gameUrl is under PUBLIC_BASE_URL');

  const withdrawal = await sdk.withdrawals.create(player.id, { amount: '30.00', currency: 'BRL', method: 'pix', destination: 'ana@pix' });
  t.match(withdrawal, { playerId: player.id, amount: '30.00', status: 'under_review' });
  t.match(await sdk.wallet.get(player.id), { available: '100.00', withdrawable: '70.00' });
  t.same(summary(await errorOf(sdk.withdrawals.create(player.id, { amount: '70.01', currency: 'BRL', method: 'pix', destination: 'x' }))), {
    name: 'ValidationError',
    code: 'INSUFFICIENT_FUNDS',
    status: 422,
    hasRequestId: true,
  });
  t.same(summary(await errorOf(sdk.sandbox.decideWithdrawal(withdrawal.id, { decision: 'pay' }))), {
    name: 'ConflictError',
    code: 'WITHDRAWAL_INVALID_TRANSITION',
    status: 409,
    hasRequestId: true,
  });
  t.match(await sdk.sandbox.decideWithdrawal(withdrawal.id, { decision: 'approve' }), { id: withdrawal.id, status: 'approved' });
  t.same(summary(await errorOf(sdk.withdrawals.cancel(withdrawal.id))), {
    name: 'ConflictError',
    code: 'WITHDRAWAL_NOT_CANCELLABLE',
    status: 409,
    hasRequestId: true,
  });
  t.match(await sdk.sandbox.decideWithdrawal(withdrawal.id, { decision: 'pay' }), { id: withdrawal.id, status: 'paid' });
  t.match(await sdk.withdrawals.get(withdrawal.id), { id: withdrawal.id, status: 'paid' });
  t.same(await sdk.wallet.get(player.id), { playerId: player.id, currency: 'BRL', available: '70.00', withdrawable: '70.00' });

  const page = await sdk.wallet.transactions(player.id, { limit: 1 });
  t.match(page, { data: [{ type: 'WITHDRAWAL', amount: '-30.00', balanceAfter: '70.00', referenceId: withdrawal.id }] });
  t.ok(page.nextCursor, 'a second page exists');
  const ledger = [];
  for await (const item of sdk.wallet.allTransactions(player.id, { limit: 1 })) ledger.push(`${item.type} ${item.amount} ${item.referenceId}`);
  t.same(ledger, [`WITHDRAWAL -30.00 ${withdrawal.id}`, `DEPOSIT 100.00 ${deposit.body.id}`], 'every page, newest first');
  const badCursor = await errorOf(sdk.wallet.transactions(player.id, { cursor: `${page.nextCursor}x` }));
  t.ok(badCursor instanceof ValidationError && badCursor.details?.in === 'query', 'a tampered cursor is a 422 on the query');

  // Credentials and environments, typed.
  const wrongSecret = new BackOffice({ baseUrl, key: op.sandbox.key, secret: `${op.sandbox.secret}x` });
  const badSig = await errorOf(wrongSecret.me.get());
  t.ok(badSig instanceof AuthenticationError && badSig.is('INVALID_SIGNATURE'));
  const live = new BackOffice({ baseUrl, key: op.production.key, secret: op.production.secret });
  t.same(summary(await errorOf(live.sandbox.decideKyc(player.id, { status: 'aprovado' }))), {
    name: 'PermissionError',
    code: 'SANDBOX_ONLY',
    status: 403,
    hasRequestId: true,
  });
  t.same(
    summary(await errorOf(live.wallet.get(player.id))),
    { name: 'NotFoundError', code: 'PLAYER_NOT_FOUND', status: 404, hasRequestId: true },
    'sandbox data is not visible in production',
  );

  // A real 429: the SDK reads the gateway's Retry-After (and, told not to wait, reports it).
  const slow = await stack.createOperator('SDK Rate Limited');
  t.equal((await stack.admin('PUT', `/admin/operators/${slow.operator.id}/rate-limit`, { perMinute: 1 })).status, 200);
  const limited = new BackOffice({ baseUrl, key: slow.sandbox.key, secret: slow.sandbox.secret, retry: { maxAttempts: 1 } });
  // The limit counts in fixed one-minute windows: of three quick calls at most one window change can
  // intervene, so two share a window and the second of those is refused.
  let rateLimited: BackOfficeError | undefined;
  for (let i = 0; i < 3 && !rateLimited; i++)
    rateLimited = await limited.me.get().then(
      () => undefined,
      (e: BackOfficeError) => e,
    );
  t.ok(
    rateLimited instanceof RateLimitError && rateLimited.is('RATE_LIMITED') && typeof rateLimited.retryAfterMs === 'number',
    'RATE_LIMITED with Retry-After',
  );

  // Webhooks of every step, each verified by the SDK with both schemes.
  const expected = [
    'webhook.test',
    'kyc.status_changed',
    'kyc.status_changed',
    'deposit.confirmed',
    'withdrawal.status_changed',
    'withdrawal.status_changed',
    'withdrawal.status_changed',
  ];
  // Delivery is at least once: like a real receiver, count events by id.
  const byId = () => [...new Map(receiver.deliveries.map((d) => [d.id, d])).values()];
  await waitFor(async () => byId().length >= expected.length, { timeoutMs: 60_000, what: 'all webhooks' });
  const unique = byId();
  t.same(unique.map((d) => d.type).sort(), [...expected].sort());
  t.same(
    receiver.deliveries.filter((d) => typeof d.xWebhook === 'string' || typeof d.standard === 'string'),
    [],
    'every delivery verifies with both schemes',
  );
  const events = unique.map((d) => (d.xWebhook as VerifiedWebhook).event);
  t.ok(
    unique.every((d) => (d.xWebhook as VerifiedWebhook).id === d.id && (d.standard as VerifiedWebhook).id === d.id),
    'X-Webhook-Id and webhook-id are the event id',
  );
  const describeEvent = (e: WebhookEvent): string => {
    switch (e.type) {
      case 'kyc.status_changed':
        return `kyc ${e.data.previousStatus}->${e.data.status}`;
      case 'deposit.confirmed':
        return `deposit ${e.data.id} ${e.data.status}`;
      case 'withdrawal.status_changed':
        return `withdrawal ${e.data.previousStatus}->${e.data.withdrawal.status}`;
      case 'webhook.test':
        return 'test';
      case 'credential.rotated':
        return `key ${e.data.keyPrefix} issued`;
      case 'credential.revoked':
        return `key ${e.data.keyPrefix} revoked`;
      case 'deposit.failed':
        return `deposit ${e.data.deposit.id} failed`;
      case 'player.restricted':
      case 'player.closed':
        return `player ${e.data.playerId} ${e.type}`;
      default:
        return e.type;
    }
  };
  t.same(
    events.map(describeEvent).sort(),
    [
      `deposit ${deposit.body.id} confirmed`,
      'kyc em_analise->aprovado',
      'kyc nao_iniciado->em_analise',
      'test',
      'withdrawal approved->paid',
      'withdrawal null->under_review',
      'withdrawal under_review->approved',
    ].sort(),
  );
  t.equal(events.find((e) => e.type === 'webhook.test')!.id, test.eventId, 'the test delivery is the event webhooks.test reported');

  // The published test vectors, as served, check out with the SDK's signing and verification.
  const vectors = (await (await fetch(`${baseUrl}/test-vectors.json`)).json()) as {
    requests: { method: string; path: string; timestamp: string; body: string; secret: string; canonicalString: string; signature: string }[];
    webhooks: { secret: string; id: string; timestamp: string; body: string; signature: string; standardWebhooksSignature: string }[];
  };
  t.ok(
    vectors.requests.every(
      (v) =>
        canonicalRequestString(v.method, v.path, v.timestamp, v.body) === v.canonicalString &&
        signRequest(v.secret, v.method, v.path, v.timestamp, v.body) === v.signature,
    ),
    `${vectors.requests.length} request vectors reproduce`,
  );
  const wh = vectors.webhooks[0];
  const at = () => Number(wh!.timestamp) * 1000;
  t.same(
    [
      verifyWebhook(
        wh!.body,
        { 'X-Webhook-Id': wh!.id, 'X-Webhook-Timestamp': wh!.timestamp, 'X-Webhook-Signature': wh!.signature },
        { secret: wh!.secret, now: at },
      ).id,
      verifyWebhook(
        wh!.body,
        { 'webhook-id': wh!.id, 'webhook-timestamp': wh!.timestamp, 'webhook-signature': wh!.standardWebhooksSignature },
        { secret: wh!.secret, now: at },
      ).id,
    ],
    [wh!.id, wh!.id],
    'the webhook vector verifies with both schemes',
  );

  // The README's quick start, run as written against this system with a fresh br-spa operator's
  // key (as the demo operator `npm start` creates), twice: each run makes its own CPF.
  const readme = readFileSync(path.resolve(import.meta.dirname, '../../packages/sdk/README.md'), 'utf8');
  const quickStart = /## Quick start\n\n```js\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  t.ok(quickStart.includes('generateCpf()') && quickStart.includes('payer'), 'the README has the quick start');
  const qs = await stack.createOperator('SDK Quick Start');
  t.equal(
    (
      await stack.admin(
        'PUT',
        `/admin/operators/${qs.operator.id}/compliance`,
        { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
        'compliance',
      )
    ).status,
    200,
  );
  const dir = mkdtempSync(path.join(tmpdir(), 'sdk-quick-start-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const script = path.join(dir, 'quick-start.mjs');
  writeFileSync(
    script,
    quickStart
      .replace("from '@bo/sdk'", `from '${pathToFileURL(path.resolve(import.meta.dirname, '../../packages/sdk/src/index.ts'))}'`)
      .replace('https://api.example.com/api/v1', baseUrl),
  );
  for (const round of ['first', 'second']) {
    const run = await promisify(execFile)(process.execPath, [script], { env: { ...process.env, BO_KEY: qs.sandbox.key, BO_SECRET: qs.sandbox.secret } }).catch(
      (e: { stdout?: string; stderr?: string }) => ({ stdout: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
    );
    t.match(
      run.stdout,
      /status: 'confirmed'[\s\S]*available: '100\.00'/,
      `${round} run on br-spa: it registers, deposits, confirms and shows the credited wallet`,
    );
  }
});
