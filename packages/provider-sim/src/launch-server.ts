// The provider's launch endpoint: the wallet calls `<launchUrl>/launch` when an operator opens a
// session of one of our games with { sessionId, gameId, playerId, mode, currency, expiresAt,
// token, gameCode } and expects 2xx { url } (our game page for the session). The simulator keeps
// the session token: it is what its bets authenticate the player with.
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

export interface Launch {
  sessionId: string;
  gameId: string;
  playerId: string;
  mode: string;
  currency: string;
  expiresAt: string;
  token: string;
  gameCode: string;
}

export interface LaunchServer {
  /** The base URL to register as the provider's launchUrl. */
  url: string;
  /** Every launch received, by our session id (gs_…). */
  launches: Map<string, Launch>;
  close(): Promise<void>;
}

const isLaunch = (b: any): b is Launch =>
  b && typeof b === 'object' && ['sessionId', 'playerId', 'token', 'gameCode', 'currency', 'expiresAt'].every((k) => typeof b[k] === 'string');

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Listens on `host:port` (0: any free port); `publicUrl` is what the launch answers point at (default: the listening address). */
export async function startLaunchServer(opts: { host?: string; port?: number; publicUrl?: string } = {}): Promise<LaunchServer> {
  const launches = new Map<string, Launch>();
  let base = '';
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', 'http://provider.invalid');
    if (req.method === 'POST' && url.pathname === '/launch') {
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      if (!isLaunch(body)) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not a launch' }));
        return;
      }
      launches.set(body.sessionId, body);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: `${base}/play/${encodeURIComponent(body.sessionId)}` }));
      return;
    }
    const play = /^\/play\/([^/]+)$/.exec(url.pathname);
    const launch = play ? launches.get(decodeURIComponent(play[1]!)) : undefined;
    if (req.method === 'GET' && launch) {
      // The game page a player would see; the simulator plays from its server, not from here.
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><title>${escapeHtml(launch.gameCode)}</title><h1>${escapeHtml(launch.gameCode)}</h1><p>Simulated game for ${escapeHtml(launch.playerId)} (${escapeHtml(launch.mode)}, ${escapeHtml(launch.currency)}), until ${escapeHtml(launch.expiresAt)}.</p>`,
        );
      return;
    }
    res.writeHead(404).end();
  });
  server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  base = (opts.publicUrl ?? `http://${address.address}:${address.port}`).replace(/\/+$/, '');
  return {
    url: base,
    launches,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
