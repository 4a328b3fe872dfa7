// The built-in sandbox provider's game page (docs/providers.md, "The built-in sandbox provider"):
// what a third-party provider's server does, played on our gateway so an operator sees the
// provider wallet work end to end in the sandbox. The launch sends the player here with the
// provider session token in the URL, as a provider's launch would; each spin is a bet and then a
// win (or, "lost answer", a rollback) on the provider wallet's own messages (wallet.provider.*),
// under the built-in provider's scope in the sandbox: the same handlers a provider's signed call
// reaches through /provider/v1. The page lists the calls it made and their answers.
//
//   GET  /play/sandbox-provider/:token        HTML page (the player and balance from authenticate)
//   POST /play/sandbox-provider/:token/spin   JSON { amount, outcome?: win | lose | rollback } → 200 the round and its calls
import { randomBytes } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, providerOperations, requestOperation, SANDBOX_PROVIDER, SANDBOX_PROVIDER_PAGE, type OperationReply } from '@bo/contracts';
import { envelope, logFailure, parseJsonObject, toAppError } from '@bo/http-kit';
import { BASE_CSS, escapeHtml, pageHeaders, renderErrorPage } from './page.ts';

type ProviderCall = 'providerAuthenticate' | 'providerBet' | 'providerWin' | 'providerRollback';

/** The provider wallet as the built-in provider calls it. */
export interface SandboxProviderWallet {
  call(op: ProviderCall, body: Record<string, unknown>, requestId: string): Promise<OperationReply>;
}

/** The provider wallet's messages over NATS, as the built-in provider in the sandbox. */
export function sandboxProviderWallet(o: { nc: NatsConnection; prefix: string; timeoutMs: number }): SandboxProviderWallet {
  const scope = { kind: 'provider', providerId: SANDBOX_PROVIDER.id, environment: 'sandbox' } as const;
  return {
    call: (op, body, requestId) =>
      requestOperation(
        o.nc,
        providerOperations[op].subject,
        { ctx: { requestId, scope }, params: {}, query: {}, body },
        { prefix: o.prefix, timeoutMs: o.timeoutMs },
      ),
  };
}

// issueSessionToken's shape (pst_ + 32 bytes in base64url); anything else is refused without a round trip.
const TOKEN_SHAPE = /^pst_[A-Za-z0-9_-]{43}$/;
// A stake whose win (twice it) is within a provider win's range (0.01 to 500000.00): a spin never
// takes a bet whose win the wallet would refuse (docs/providers.md, "Bets" and "Wins").
const AMOUNT = /^(0\.(0[1-9]|[1-9][0-9]?)|[1-9][0-9]{0,4}(\.[0-9]{1,2})?|[1-4][0-9]{5}(\.[0-9]{1,2})?|500000(\.00?)?)$/;
const OUTCOMES = ['win', 'lose', 'rollback'] as const;
type Outcome = (typeof OUTCOMES)[number];

const ids = () => randomBytes(9).toString('base64url');

export async function sandboxProviderRoutes(app: FastifyInstance, opts: { wallet: SandboxProviderWallet }): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 }, (_req, body, done) => done(null, body));

  app.get<{ Params: { token: string } }>(`${SANDBOX_PROVIDER_PAGE}/:token`, async (req, reply) => {
    const nonce = randomBytes(16).toString('base64');
    const fail = (err: AppError) =>
      reply
        .code(err.status)
        .headers(pageHeaders(nonce))
        .type('text/html; charset=utf-8')
        .send(renderErrorPage(err.status, err.toBody(), String(req.id), nonce));
    if (!TOKEN_SHAPE.test(req.params.token)) return fail(new AppError('SESSION_TOKEN_INVALID'));
    let who: OperationReply;
    try {
      who = await opts.wallet.call('providerAuthenticate', { token: req.params.token }, String(req.id));
    } catch (e) {
      return fail(failureOf(e, req));
    }
    if (!who.ok) return fail(AppError.fromBody(who.error));
    const s = who.body as { playerId: string; currency: string; balance: string };
    return reply.code(200).headers(pageHeaders(nonce)).type('text/html; charset=utf-8').send(renderPage(s, nonce));
  });

  app.post<{ Params: { token: string } }>(`${SANDBOX_PROVIDER_PAGE}/:token/spin`, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      const token = req.params.token;
      if (!TOKEN_SHAPE.test(token)) throw new AppError('SESSION_TOKEN_INVALID');
      const body = parseJsonObject(req.body as Buffer | undefined);
      const amount = typeof body.amount === 'string' && AMOUNT.test(body.amount) ? body.amount : undefined;
      const outcome = body.outcome === undefined ? (Math.random() < 0.4 ? 'win' : 'lose') : (body.outcome as Outcome);
      if (!amount || !OUTCOMES.includes(outcome)) {
        throw new AppError('VALIDATION_ERROR', 'A spin takes { amount: "1.00" (0.01 to 500000.00), outcome?: "win" | "lose" | "rollback" }.', { in: 'body' });
      }
      return reply
        .code(200)
        .type('application/json')
        .send(await spin(opts.wallet, String(req.id), token, amount, outcome));
    } catch (e) {
      const err = e instanceof AppError ? e : failureOf(e, req);
      return reply
        .code(err.status)
        .type('application/json')
        .send(envelope(err.toBody(), String(req.id)));
    }
  });
}

/** One round as a provider plays it: authenticate, bet, then a win (2× or 0.00) or a rollback. Stops at the first refusal. */
async function spin(wallet: SandboxProviderWallet, requestId: string, token: string, amount: string, outcome: Outcome) {
  const calls: { call: string; request: Record<string, unknown>; answer: unknown }[] = [];
  const send = async (op: ProviderCall, request: Record<string, unknown>) => {
    const answer = await wallet.call(op, request, requestId);
    calls.push({ call: providerOperations[op].path, request, answer: answer.ok ? answer.body : { error: answer.error } });
    if (!answer.ok) throw Object.assign(AppError.fromBody(answer.error), { calls });
    return answer.body as { playerId: string; currency: string; balance: string };
  };
  const roundId = `sbx_round_${ids()}`;
  try {
    const who = await send('providerAuthenticate', { token });
    const bet = { transactionId: `sbx_bet_${ids()}`, token, roundId, gameCode: SANDBOX_PROVIDER.gameCode, amount, currency: who.currency };
    await send('providerBet', bet);
    const settled =
      outcome === 'rollback'
        ? await send('providerRollback', { transactionId: `sbx_rb_${ids()}`, playerId: who.playerId, betTransactionId: bet.transactionId, roundId })
        : await send('providerWin', {
            transactionId: `sbx_win_${ids()}`,
            playerId: who.playerId,
            roundId,
            amount: outcome === 'win' ? doubled(amount) : '0.00',
            currency: who.currency,
            roundClosed: true,
          });
    return { roundId, outcome, balance: settled.balance, currency: who.currency, calls };
  } catch (e) {
    // A refusal answers in the envelope with the calls made so far in its details.
    if (e instanceof AppError) throw new AppError(e.code, e.message, { ...(e.details ?? {}), roundId, calls });
    throw e;
  }
}

/** Twice a money amount ("1.5" → "3.00"), in integer cents: never a float. */
function doubled(amount: string): string {
  const [whole, fraction = ''] = amount.split('.');
  const cents = (BigInt(whole!) * 100n + BigInt(`${fraction}00`.slice(0, 2))) * 2n;
  return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
}

function failureOf(e: unknown, req: FastifyRequest): AppError {
  const err = toAppError(e);
  logFailure(req, e, err);
  return err;
}

function renderPage(s: { playerId: string; currency: string; balance: string }, nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Sandbox Slot (provider wallet)</title>
<style nonce="${nonce}">${BASE_CSS} pre{white-space:pre-wrap;word-break:break-all;font-size:12px} form{display:flex;gap:8px;flex-wrap:wrap;align-items:end}</style></head>
<body><main class="card" data-provider="${SANDBOX_PROVIDER.id}">
<h1>Sandbox Slot <small>(provider wallet)</small></h1>
<p class="muted">The built-in sandbox provider: each spin is a bet and a win (or a rollback) sent to the provider wallet, as a third-party provider's server sends them. Sandbox only.</p>
<p>Player <code>${escapeHtml(s.playerId)}</code> · balance <strong id="balance">${escapeHtml(s.balance)}</strong> ${escapeHtml(s.currency)}</p>
<form id="spin"><label>Bet <input id="amount" name="amount" inputmode="decimal" value="1.00"></label>
<label>Outcome <select id="outcome" name="outcome"><option value="">random</option><option value="win">win 2×</option><option value="lose">lose</option><option value="rollback">answer lost: rollback</option></select></label>
<button type="submit">Spin</button></form>
<section id="result" aria-live="polite"></section>
<h2>Calls to the provider wallet</h2><pre id="calls"></pre>
</main>
<script nonce="${nonce}">
const form = document.getElementById('spin');
form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const outcome = document.getElementById('outcome').value;
  const body = { amount: document.getElementById('amount').value, ...(outcome ? { outcome } : {}) };
  const res = await fetch(location.pathname + '/spin', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await res.json();
  const calls = res.ok ? answer.calls : (answer.error.details && answer.error.details.calls) || [];
  document.getElementById('result').textContent = res.ok ? 'Round ' + answer.roundId + ': ' + answer.outcome : answer.error.code + ': ' + answer.error.message;
  if (res.ok) document.getElementById('balance').textContent = answer.balance;
  document.getElementById('calls').textContent = calls.map((c) => 'POST ' + c.call + ' ' + JSON.stringify(c.request) + '\\n→ ' + JSON.stringify(c.answer)).join('\\n\\n');
});
</script>
</body></html>`;
}
