// Evolution's side of a connector test (docs/connectors-evolution.md): its User Authentication API
// as our launch calls it (`POST /ua/v1/<casinoKey>/<casinoToken>`), which checks our casino key and
// token and answers the game's entry, keeping the session id (`player.session.id`, the `sid` of its
// wallet calls); and the API token it sends us as `authToken`.
import http from 'node:http';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';
import type { EvolutionUserAuthentication } from '@bo/contracts';

export interface EvolutionStandin {
  url: string;
  casinoKey: string;
  /** The token of its UA API, which it gave us (we keep it as the secret `casinoToken`). */
  casinoToken: string;
  /** The API token it sends on its wallet calls (we keep it as the secret `authToken`). */
  authToken: string;
  /** What our launches sent, and whether the casino key and token were its own. */
  launches: Array<{ body: EvolutionUserAuthentication; accepted: boolean }>;
  close(): Promise<void>;
}

export async function startEvolutionStandin(t: Test): Promise<EvolutionStandin> {
  const standin: EvolutionStandin = {
    url: '',
    casinoKey: `casino${randomBytes(3).toString('hex')}`,
    casinoToken: `ct_${randomBytes(12).toString('hex')}`,
    authToken: `at_${randomBytes(16).toString('hex')}`,
    launches: [],
    close: async () => undefined,
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    const m = /^\/ua\/v1\/([^/]+)\/([^/?]+)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !m) return json(404, { errors: [{ code: 'G.0', message: 'not found' }] });
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as EvolutionUserAuthentication;
    const accepted = decodeURIComponent(m[1]!) === standin.casinoKey && decodeURIComponent(m[2]!) === standin.casinoToken;
    standin.launches.push({ body, accepted });
    if (!accepted) return json(401, { errors: [{ code: 'G.2', message: 'Provided apiToken for casino is incorrect' }] });
    return json(200, {
      entry: `/entry?params=${encodeURIComponent(body.config.game?.table.id ?? '')}&JSESSIONID=${encodeURIComponent(body.player.session.id)}`,
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  standin.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  t.teardown(() => standin.close());
  standin.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standin;
}
