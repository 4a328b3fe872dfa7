// Which encoding the portal answers with, by Accept-Encoding, and that each is made once.
import t from 'tap';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressible, preferredEncoding } from '../src/compressed-body.ts';

t.test('the encoding a client gets', async (t) => {
  const cases: [string | undefined, string][] = [
    [undefined, 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
    ['deflate', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1.0, br;q=0.5', 'gzip'],
    ['br;q=0.5, gzip;q=0.5', 'br'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['gzip;q=nonsense', 'identity'],
  ];
  for (const [header, expected] of cases) t.equal(preferredEncoding(header), expected, `${JSON.stringify(header)} → ${expected}`);
});

t.test('each encoding is made once and decodes to the body', async (t) => {
  const body = compressible(`${'{"a":"ção"}'.repeat(1000)}`);
  t.equal(body.bytes.toString('utf8'), '{"a":"ção"}'.repeat(1000));
  t.match(body.hash, /^[0-9a-f]{16}$/);
  t.equal(await body.encoded('identity'), body.bytes);
  const br = body.encoded('br');
  t.equal(body.encoded('br'), br, 'the same promise: compressed once');
  t.ok(brotliDecompressSync(await br).equals(body.bytes));
  t.ok(gunzipSync(await body.encoded('gzip')).equals(body.bytes));
  t.ok((await br).length < body.bytes.length / 10);
});
