// A real local HTTP receiver that verifies each delivery's signature over the raw bytes.
import http from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface Received {
  id: string;
  type: string;
  body: any;
  raw: Buffer;
  verified: boolean;
  headers: http.IncomingHttpHeaders;
  /** When it arrived (ms). */
  at: number;
}

export async function startWebhookReceiver(secret: string): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const ts = String(req.headers['x-webhook-timestamp']);
      const expected = createHmac('sha256', secret).update(`${ts}.`).update(raw).digest();
      const got = Buffer.from(String(req.headers['x-webhook-signature'] ?? ''), 'hex');
      const verified = got.length === expected.length && timingSafeEqual(got, expected);
      const body = JSON.parse(raw.toString('utf8'));
      received.push({ id: String(req.headers['x-webhook-id']), type: body.type, body, raw, verified, headers: req.headers, at: Date.now() });
      res.writeHead(verified ? 204 : 401).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hooks`, received, close: () => new Promise((r) => server.close(() => r())) };
}
