// The sizes docs/portal.md gives for a first visit of /docs are the ones the portal serves: each
// figure of its sentence is measured here (brotli, gzip and as it is), within 10%.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { publicDocsRoutes } from '../src/index.ts';

const PORTAL_MD = path.resolve(import.meta.dirname, '../../../docs/portal.md');
const UNITS: Record<string, number> = { KB: 1000, MB: 1_000_000 };

t.test("docs/portal.md's sizes are measured", async (t) => {
  const doc = readFileSync(PORTAL_MD, 'utf8').replace(/\s+/g, ' ');
  const sentence =
    /Scalar's bundle ([\d.]+) (KB|MB) in brotli, ([\d.]+) (KB|MB) in gzip; it is ([\d.]+) (KB|MB) as it is; the OpenAPI document ([\d.]+) (KB|MB) in brotli, ([\d.]+) (KB|MB) as it is/.exec(
      doc,
    );
  t.ok(sentence, 'docs/portal.md gives the sizes');
  if (!sentence) return;
  const stated = (i: number) => Number(sentence[i]) * UNITS[sentence[i + 1]!]!;

  const app = Fastify();
  t.teardown(() => app.close());
  await app.register(publicDocsRoutes, { prefix: '/api/v1', publicBaseUrl: 'https://api.example.com/', apiPrefix: '/api/v1' });
  const size = async (url: string, encoding: string) => {
    const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });
    t.equal(res.headers['content-encoding'] ?? 'identity', encoding, `${url} served ${encoding}`);
    return res.rawPayload.length;
  };
  const page = (await app.inject({ method: 'GET', url: '/api/v1/docs' })).body;
  const scalar = /\/api\/v1\/docs\/assets\/scalar\.[0-9a-f]+\.js/.exec(page)?.[0] ?? '/api/v1/docs/assets/scalar.js';
  const measured = [
    ["Scalar's bundle in brotli", stated(1), await size(scalar, 'br')],
    ["Scalar's bundle in gzip", stated(3), await size(scalar, 'gzip')],
    ["Scalar's bundle as it is", stated(5), await size(scalar, 'identity')],
    ['the OpenAPI document in brotli', stated(7), await size('/api/v1/openapi.json', 'br')],
    ['the OpenAPI document as it is', stated(9), await size('/api/v1/openapi.json', 'identity')],
  ] as const;
  for (const [what, said, real] of measured) {
    t.ok(Math.abs(said - real) <= real * 0.1, `${what}: docs say ${said} bytes, served ${real} (within 10%)`);
  }
});
