// The real SPA registry adapter against a local HTTP server playing the registry: answers read
// through the wire module, outages retried then `unavailable`, a 4xx not retried, a slow answer
// cut at the timeout, the credential sent as configured.
import t, { type Test } from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { spaHttpRegistry } from '../../src/impediments/registry/spa-http.ts';

/** A scripted reply; `never` holds the request open without an answer (the timeout's case). */
type Reply = { status: number; body?: unknown } | { never: true };

/** A reply's deadline far beyond what a loaded machine needs: only a reply that never comes times out. */
const ANSWERED_TIMEOUT_MS = 30_000;

async function fakeRegistry(t: Test, replies: Reply[], timeoutMs = ANSWERED_TIMEOUT_MS) {
  const seen: Array<{ path: string; auth: string | undefined; body: unknown }> = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(raw || 'null') });
      const r = replies.shift() ?? { status: 500 };
      if ('never' in r) return;
      res.writeHead(r.status, { 'content-type': 'application/json' }).end(JSON.stringify(r.body ?? {}));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { seen, registry: spaHttpRegistry({ baseUrl, token: 'spa-token-for-tests', timeoutMs, retries: 2 }) };
}

const caller = { operatorId: 'op_A' };

t.test('answers: not impeded, impeded with its reasons, the credential sent', async (t) => {
  const { seen, registry } = await fakeRegistry(t, [
    { status: 200, body: { cpf: '52998224725', situacao: 'NAO_IMPEDIDO' } },
    { status: 200, body: { cpf: '52998224725', situacao: 'IMPEDIDO', motivos: ['PROGRAMA_SOCIAL', 'AUTOEXCLUSAO_CENTRALIZADA'] } },
  ]);
  t.same(await registry.check('52998224725', caller), { result: 'not_impeded' });
  t.same(await registry.check('52998224725', caller), { result: 'impeded', reasons: ['social_program', 'central_self_exclusion'] });
  t.same(seen[0], { path: '/impedidos/consulta', auth: 'Bearer spa-token-for-tests', body: { cpf: '52998224725' } });
});

t.test('an outage is retried, then unavailable; a 4xx is not retried; a slow answer is cut', async (t) => {
  const { seen, registry } = await fakeRegistry(t, [{ status: 503 }, { status: 200, body: { situacao: 'NAO_IMPEDIDO' } }]);
  t.same(await registry.check('52998224725', caller), { result: 'not_impeded' }, 'the retry answered');
  t.equal(seen.length, 2);

  const down = await fakeRegistry(t, [{ status: 500 }, { status: 502 }, { status: 503 }]);
  t.same(await down.registry.check('52998224725', caller), { result: 'unavailable', why: 'HTTP 503' }, 'three attempts, then unavailable');
  t.equal(down.seen.length, 3);

  const refused = await fakeRegistry(t, [{ status: 401 }]);
  t.same(await refused.registry.check('52998224725', caller), { result: 'unavailable', why: 'HTTP 401' });
  t.equal(refused.seen.length, 1, 'not retried');

  // Replies that never come: every attempt is cut at its timeout, however busy the machine.
  const slow = await fakeRegistry(t, [{ never: true }, { never: true }, { never: true }], 300);
  t.same(await slow.registry.check('52998224725', caller), { result: 'unavailable', why: 'TimeoutError' });

  const garbled = await fakeRegistry(t, [{ status: 200, body: { what: 'is this' } }]);
  t.same(await garbled.registry.check('52998224725', caller), { result: 'unavailable', why: 'unreadable answer' }, 'never a silent pass');
});

t.test('a batch: an answer per CPF, a missing one unavailable', async (t) => {
  const { seen, registry } = await fakeRegistry(t, [
    {
      status: 200,
      body: {
        resultados: [
          { cpf: '52998224725', situacao: 'NAO_IMPEDIDO' },
          { cpf: '11144477735', situacao: 'IMPEDIDO', motivos: ['AUTOEXCLUSAO_CENTRALIZADA'] },
        ],
      },
    },
  ]);
  const answers = await registry.checkBatch(['52998224725', '11144477735', '39053344705'], caller);
  t.same(Object.fromEntries(answers), {
    '52998224725': { result: 'not_impeded' },
    '11144477735': { result: 'impeded', reasons: ['central_self_exclusion'] },
    '39053344705': { result: 'unavailable', why: 'missing from the batch answer' },
  });
  t.same(seen[0]?.body, { cpfs: ['52998224725', '11144477735', '39053344705'] });
});
