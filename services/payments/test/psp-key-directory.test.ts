// The real PSP key-owner adapter against a local HTTP server playing the PSP: found, not found,
// outages retried then unavailable (the rule fails closed on it).
import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pspHttpKeyDirectory } from '../src/providers/psp-http.ts';

t.test('PSP key-owner lookup', async (t) => {
  const replies: Array<{ status: number; body?: unknown }> = [
    { status: 200, body: { ownerTaxId: '52998224725' } },
    { status: 404 },
    { status: 503 },
    { status: 200, body: { ownerTaxId: '11222333000181' } },
    { status: 500 },
    { status: 500 },
    { status: 500 },
  ];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(`${req.url} ${req.headers.authorization}`);
    const r = replies.shift() ?? { status: 500 };
    res.writeHead(r.status, { 'content-type': 'application/json' }).end(JSON.stringify(r.body ?? {}));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  // A reply's deadline far beyond what a busy machine needs: a normal reply that passed it would be
  // retried, and the retry would take the next scripted reply (every later answer one off).
  const keys = pspHttpKeyDirectory({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token: 'psp-token',
    timeoutMs: 30_000,
    retries: 2,
  });
  const caller = { operatorId: 'op_A' };
  t.same(await keys.ownerOf('ana@example.com', caller), { result: 'found', cpf: '52998224725' });
  t.equal(paths[0], '/pix/keys/ana%40example.com/owner Bearer psp-token');
  t.same(await keys.ownerOf('nobody@example.com', caller), { result: 'not_found' });
  t.same(await keys.ownerOf('+5511987654321', caller), { result: 'found', cpf: '11222333000181' }, 'a company key: never equal to a CPF');
  t.same(await keys.ownerOf('x', caller), { result: 'unavailable', why: 'HTTP 500' }, 'three attempts, then unavailable');
});
