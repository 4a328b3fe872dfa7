// Hub88's side of a connector test (docs/connectors-hub88.md): its Games API as we call it (the
// game list, a game's URL) and its Transactions API (the items a test sets), which verify our
// X-Hub88-Signature with the public key we handed them, and Hub88's key pair, whose private key
// signs its Wallet API calls to us.
import http from 'node:http';
import { once } from 'node:events';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';
import { HUB88_GAMES_PATHS, HUB88_TRANSACTIONS_PATH, hub88PublicKey, signHub88, verifyHub88, type Hub88Game } from '@bo/contracts';

export interface Hub88Standin {
  url: string;
  /** What our game URL requests carried, and whether their signature verified with our key. */
  gameUrlRequests: Array<{ body: Record<string, unknown>; verified: boolean }>;
  /** The game list it answers (change it between syncs). */
  games: Hub88Game[];
  /** What our Transactions API requests carried, and whether their signature verified with our key. */
  transactionRequests: Array<{ body: Record<string, unknown>; verified: boolean }>;
  /** The transaction items its Transactions API answers (the test sets them). */
  transactions: Array<Record<string, unknown>>;
  /** Our public key as we handed it (PEM): our calls are verified with it. */
  trust(publicKeyPem: string): void;
  /** Hub88's key pair: its public key for us to upload, its private key signing its calls. */
  keys: { publicKeyPem: string; privateKey: KeyObject };
  /** A Wallet API body signed as Hub88 signs it: the exact bytes and their X-Hub88-Signature. */
  signed(body: unknown, privateKey?: KeyObject): { text: string; signature: string };
  close(): Promise<void>;
}

export async function startHub88Standin(t: Test, games: Hub88Game[] = []): Promise<Hub88Standin> {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let ours: KeyObject | undefined;
  const standin: Hub88Standin = {
    url: '',
    close: async () => undefined,
    gameUrlRequests: [],
    games,
    transactionRequests: [],
    transactions: [],
    trust(pem) {
      ours = hub88PublicKey(pem);
    },
    keys: { publicKeyPem: String(pair.publicKey.export({ type: 'spki', format: 'pem' })), privateKey: pair.privateKey },
    signed(body, privateKey = pair.privateKey) {
      const text = JSON.stringify(body);
      return { text, signature: signHub88(text, privateKey) };
    },
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const verified = ours !== undefined && verifyHub88(raw, req.headers['x-hub88-signature'] as string | undefined, [ours]);
    const body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
    const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (req.url === HUB88_GAMES_PATHS.url) standin.gameUrlRequests.push({ body, verified });
    if (req.url === HUB88_TRANSACTIONS_PATH) standin.transactionRequests.push({ body, verified });
    if (!verified) return json(401, { error: 'invalid signature' });
    if (req.url === HUB88_GAMES_PATHS.list) return json(200, standin.games);
    if (req.url === HUB88_TRANSACTIONS_PATH) return json(200, standin.transactions);
    if (req.url === HUB88_GAMES_PATHS.url) return json(200, { url: `https://games.hub88.test/launch/${String(body.game_code)}?token=${String(body.token)}` });
    return json(404, { error: 'not found' });
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
