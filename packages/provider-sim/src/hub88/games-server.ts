// Hub88's Games API as the operator calls it (docs/connectors-hub88.md): POST
// /operator/generic/v2/game/list and /game/url, each signed with the operator's private key
// (X-Hub88-Signature), verified here with the public key the operator handed us. /game/url answers
// the URL of a simulated game page and keeps the session token the operator sent: what Hub88's
// Wallet API calls name the player's session with.
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { KeyObject } from 'node:crypto';
import { HUB88_GAMES_PATHS, hub88PublicKey, verifyHub88, type Hub88Game } from '@bo/contracts';

/** A launch as Hub88 received it: the player (`user`), the session token, the game and the brand. */
export interface Hub88Launch {
  user: string;
  token: string;
  game_code: string;
  currency: string;
  sub_partner_id: string;
  operator_id: number;
}

export interface Hub88GamesServer {
  url: string;
  /** Every launch, by session token. */
  launches: Map<string, Hub88Launch>;
  games: Hub88Game[];
  /** The operator's public key (PEM), as it hands it to Hub88. */
  trust(publicKeyPem: string): void;
  /** Requests refused for their signature (the summary prints it: it must stay 0). */
  refused: number;
  close(): Promise<void>;
}

export async function startHub88GamesServer(opts: { host?: string; port?: number; publicUrl?: string; games: Hub88Game[] }): Promise<Hub88GamesServer> {
  let operatorKey: KeyObject | undefined;
  const launches = new Map<string, Hub88Launch>();
  const state = { refused: 0 };
  let base = '';
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const json = (status: number, v: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v));
    if (req.method === 'GET' && req.url?.startsWith('/games/')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Hub88 game</title><p>A simulated Hub88 game page.</p>');
      return;
    }
    if (req.method !== 'POST') return json(404, { error: 'not found' });
    if (!operatorKey || !verifyHub88(raw, req.headers['x-hub88-signature'] as string | undefined, [operatorKey])) {
      state.refused++;
      return json(401, { error: 'RS_ERROR_INVALID_SIGNATURE' });
    }
    const body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
    if (req.url === HUB88_GAMES_PATHS.list) return json(200, server$.games);
    if (req.url === HUB88_GAMES_PATHS.url) {
      const launch = body as unknown as Hub88Launch;
      launches.set(String(launch.token), launch);
      return json(200, { url: `${base}/games/${encodeURIComponent(String(launch.game_code))}?token=${encodeURIComponent(String(launch.token))}` });
    }
    return json(404, { error: 'not found' });
  });
  server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  base = (opts.publicUrl ?? `http://${address.address}:${address.port}`).replace(/\/+$/, '');
  const server$: Hub88GamesServer = {
    url: base,
    launches,
    games: opts.games,
    trust(pem) {
      operatorKey = hub88PublicKey(pem);
    },
    get refused() {
      return state.refused;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return server$;
}
