// Evolution's User Authentication API as the operator's launch calls it (docs/connectors-evolution.md,
// "Launch"): POST /ua/v1/<casinoKey>/<casinoToken> with the player and its session id, answered with
// the entry of a simulated game page. It checks the casino key and token it gave the operator, and
// keeps each launch: the session id is the `sid` of Evolution's wallet calls, `player.id` their `userId`.
import http from 'node:http';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { EvolutionUserAuthentication } from '@bo/contracts';

export interface EvolutionUaServer {
  url: string;
  casinoKey: string;
  casinoToken: string;
  /** Every launch, by our player id (the latest one). */
  launches: Map<string, EvolutionUserAuthentication>;
  /** Launches refused for their casino key or token (the summary prints it: it must stay 0). */
  refused: number;
  close(): Promise<void>;
}

export async function startEvolutionUaServer(opts: { host?: string; port?: number; publicUrl?: string }): Promise<EvolutionUaServer> {
  const state = { refused: 0 };
  const launches = new Map<string, EvolutionUserAuthentication>();
  const casinoKey = `simcasino${randomBytes(3).toString('hex')}`;
  const casinoToken = `sim_ct_${randomBytes(16).toString('hex')}`;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const json = (status: number, v: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v));
    if (req.method === 'GET' && req.url?.startsWith('/entry')) {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>Evolution table</title><p>A simulated Evolution table.</p>');
      return;
    }
    const m = /^\/ua\/v1\/([^/]+)\/([^/?]+)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !m) return json(404, { errors: [{ code: 'G.0', message: 'not found' }] });
    if (decodeURIComponent(m[1]!) !== casinoKey || decodeURIComponent(m[2]!) !== casinoToken) {
      state.refused++;
      return json(401, { errors: [{ code: 'G.2', message: 'Provided apiToken for casino is incorrect' }] });
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as EvolutionUserAuthentication;
    launches.set(body.player.id, body);
    return json(200, {
      entry: `/entry?params=${encodeURIComponent(body.config.game?.table.id ?? '')}&JSESSIONID=${encodeURIComponent(body.player.session.id)}`,
    });
  });
  server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  return {
    url: (opts.publicUrl ?? `http://${address.address}:${address.port}`).replace(/\/+$/, ''),
    casinoKey,
    casinoToken,
    launches,
    get refused() {
      return state.refused;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
