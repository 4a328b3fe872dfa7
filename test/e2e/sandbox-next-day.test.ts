// The sandbox walks every rule (issue #61 item 8), through the gateway with a test key against the real
// processes: a loss limit reached on the built-in sandbox provider's game (its bets move sandbox money
// and count like any provider's) is yesterday's after POST /sandbox/players/{id}/next-day, as our own
// games' demo usage always was; and the same body-less call twice in the same second, each with its
// own Idempotency-Key, is taken both times when signed with version 2 (the key signed too), where
// version 1 refuses the second as the first's replay (401 SIGNATURE_REUSED, as before).
import t from 'tap';
import { generateCpf, signRequest, signRequestV2 } from '@bo/contracts';
import { playerInput, startStack, uniq } from './support/stack.ts';

t.test('next-day resets provider play; two body-less calls in one second', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Next Day Bets');
  const api = op.sandboxClient;
  t.equal(
    (await stack.admin('PUT', `/admin/operators/${op.operator.id}/compliance`, { profile: 'br-spa', reason: 'the operator is licensed in Brazil' })).status,
    200,
  );
  const key = () => ({ 'idempotency-key': uniq('k') });
  const cpf = generateCpf();
  const limits = [
    { type: 'loss', period: 'day', value: '20.00' },
    { type: 'time', period: 'day', value: 600 },
  ];
  const player = await api.post('/players', { ...playerInput(uniq('nd')), cpf, limits }, key());
  t.equal(player.status, 201);
  const id = player.body.id as string;
  t.equal((await api.post(`/sandbox/players/${id}/kyc/decision`, { status: 'aprovado' })).body.status, 'aprovado');
  const deposit = await api.post(`/players/${id}/deposits`, { amount: '100.00', currency: 'BRL', method: 'pix', externalReference: uniq('ref') }, key());
  t.equal((await api.post(`/deposits/${deposit.body.id}/confirm`, { payer: { cpf } }, key())).body.status, 'confirmed');

  t.test("the built-in provider's loss limit: reached today, yesterday's after next-day", async (t) => {
    const session = await api.post(`/players/${id}/game-sessions`, { gameId: 'gm_p_sandbox_slot' });
    t.equal(session.status, 201);
    const page = await fetch(session.body.gameUrl, { redirect: 'manual' });
    const spinUrl = `${new URL(page.headers.get('location')!, session.body.gameUrl).href}/spin`;
    const spin = async () => {
      const res = await fetch(spinUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: '10.00', outcome: 'lose' }),
      });
      const body = (await res.json()) as { error?: { code: string; details?: { reason?: string } } };
      return res.status === 200 ? 'ok' : `${body.error?.code}`;
    };
    t.same([await spin(), await spin()], ['ok', 'ok'], '20.00 lost on the provider');
    t.equal(await spin(), 'RG_BLOCKED', "the day's loss limit is reached");
    const used = async () =>
      ((await api.get(`/players/${id}/responsible-gaming`)).body.limits as Array<{ type: string; period: string; used: string }>).find(
        (l) => l.type === 'loss' && l.period === 'day',
      )?.used;
    t.equal(await used(), '20.00', "the usage is the provider play's");
    const next = await api.post(`/sandbox/players/${id}/next-day`, {}, key());
    t.equal(next.status, 200);
    t.equal(await used(), '0.00', "a new day: yesterday's losses no longer count");
    t.equal(await spin(), 'ok', 'the provider takes bets again');
    const wallet = (await api.get(`/players/${id}/wallet`)).body;
    t.same([wallet.available], ['70.00'], 'the money as played: the ledger never moved in time');
  });

  t.test('two body-less calls in the same second, two keys: version 2 takes both, version 1 refuses the second', async (t) => {
    const path = `/api/v1/sandbox/players/${id}/next-day`;
    const call = async (headers: Record<string, string>) => {
      const res = await fetch(`${stack.publicUrl}${path}`, { method: 'POST', headers });
      return res.status === 200 ? 200 : `${res.status} ${((await res.json()) as { error: { code: string } }).error.code}`;
    };
    const ts = String(Math.floor(Date.now() / 1000));
    const v2 = (k: string) => ({
      'x-operator-key': op.sandbox.key,
      'x-timestamp': ts,
      'x-signature-version': '2',
      'x-signature': signRequestV2(op.sandbox.secret, 'POST', path, ts, '', k),
      'idempotency-key': k,
    });
    t.same([await call(v2(uniq('a'))), await call(v2(uniq('b')))], [200, 200], 'version 2: both taken');
    const earlier = String(Number(ts) - 2);
    const v1 = (k: string) => ({
      'x-operator-key': op.sandbox.key,
      'x-timestamp': earlier,
      'x-signature': signRequest(op.sandbox.secret, 'POST', path, earlier, ''),
      'idempotency-key': k,
    });
    t.same([await call(v1(uniq('c'))), await call(v1(uniq('d')))], [200, '401 SIGNATURE_REUSED'], 'version 1: still valid, the second refused as before');
  });
});
