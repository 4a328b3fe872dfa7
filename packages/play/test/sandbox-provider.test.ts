// The built-in sandbox provider's page against a fake provider wallet: what the page decides by
// itself (token shape, the spin's body), the calls a spin makes in order, and that a refusal stops
// the round and answers in the envelope with the calls made so far. The real wallet behind it, through
// the gateway: services/gateway/test/games-through-gateway.test.ts.
import t from 'tap';
import Fastify from 'fastify';
import type { OperationReply } from '@bo/contracts';
import { sandboxProviderRoutes, type SandboxProviderWallet } from '../src/index.ts';

const TOKEN = `pst_${'a'.repeat(43)}`;

function fakeWallet(refuse?: string) {
  const asked: string[] = [];
  let balance = 10;
  const wallet: SandboxProviderWallet = {
    async call(op, body): Promise<OperationReply> {
      asked.push(`${op} ${JSON.stringify(Object.keys(body).sort())}`);
      if (op === refuse) return { ok: false, status: 422, error: { code: 'INSUFFICIENT_FUNDS', message: 'Not enough.', details: { balance: '10.00' } } };
      const amount = Number((body as { amount?: string }).amount ?? 0);
      if (op === 'providerBet') balance -= amount;
      if (op === 'providerWin') balance += amount;
      if (op === 'providerRollback') balance += 1;
      return { ok: true, status: 200, body: { playerId: 'plr_1', currency: 'BRL', balance: balance.toFixed(2) } };
    },
  };
  return { wallet, asked };
}

async function appWith(wallet: SandboxProviderWallet) {
  const app = Fastify();
  await app.register(sandboxProviderRoutes, { wallet });
  return app;
}

t.test('the page: authenticate, then the balance; a token of another shape asks no one', async (t) => {
  const { wallet, asked } = fakeWallet();
  const app = await appWith(wallet);
  t.teardown(() => app.close());
  const page = await app.inject({ method: 'GET', url: `/play/sandbox-provider/${TOKEN}` });
  t.equal(page.statusCode, 200);
  t.match(page.body, /<strong id="balance">10\.00<\/strong>/);
  t.match(page.headers['content-security-policy'], /script-src 'nonce-/);
  const forged = await app.inject({ method: 'GET', url: '/play/sandbox-provider/pst_short' });
  t.equal(forged.statusCode, 401);
  t.same(asked, ['providerAuthenticate ["token"]']);
});

t.test('a spin: bet then win (2×), or a rollback; a bad body is refused before any call', async (t) => {
  const { wallet, asked } = fakeWallet();
  const app = await appWith(wallet);
  t.teardown(() => app.close());
  const spin = (payload: unknown) => app.inject({ method: 'POST', url: `/play/sandbox-provider/${TOKEN}/spin`, payload: payload as object });
  const won = await spin({ amount: '1.00', outcome: 'win' });
  t.equal(won.statusCode, 200);
  t.match(won.json(), {
    outcome: 'win',
    balance: '11.00',
    calls: [{ call: '/authenticate' }, { call: '/bets' }, { call: '/wins', request: { amount: '2.00' } }],
  });
  const small = await spin({ amount: '0.5', outcome: 'win' });
  t.equal(small.json().calls.at(-1).request.amount, '1.00', 'twice the bet, in cents');
  const rolled = await spin({ amount: '1.00', outcome: 'rollback' });
  t.same(
    rolled.json().calls.map((c: { call: string }) => c.call),
    ['/authenticate', '/bets', '/rollbacks'],
  );
  asked.length = 0;
  // A stake of 0, or one whose win (2×) would pass a provider win's 1000000.00, takes no bet (issue #56).
  for (const bad of [
    { amount: '1.001' },
    { amount: 1 },
    { amount: '1.00', outcome: 'jackpot' },
    { amount: '0' },
    { amount: '0.00' },
    { amount: '500000.01' },
  ]) {
    const r = await spin(bad);
    t.equal(r.json().error.code, 'VALIDATION_ERROR', JSON.stringify(bad));
  }
  t.same(asked, [], 'no call for a bad body');
});

t.test('a refusal stops the round: the envelope carries the calls so far', async (t) => {
  const { wallet, asked } = fakeWallet('providerBet');
  const app = await appWith(wallet);
  t.teardown(() => app.close());
  const r = await app.inject({ method: 'POST', url: `/play/sandbox-provider/${TOKEN}/spin`, payload: { amount: '50.00', outcome: 'win' } });
  t.equal(r.statusCode, 422);
  t.match(r.json().error, { code: 'INSUFFICIENT_FUNDS', details: { balance: '10.00', calls: [{ call: '/authenticate' }, { call: '/bets' }] } });
  t.equal(asked.length, 2, 'no win after a refused bet');
});
