// A local HTTP endpoint that keeps every delivery it is sent (headers and raw bytes) and answers 204.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';

export interface ReceivedDelivery {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}

export async function startReceiver(t: Test): Promise<{ url: string; requests: ReceivedDelivery[] }> {
  const requests: ReceivedDelivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, requests };
}
