// The Hub88 scenario's setup (issue #58 item 7, docs/benchmarks.md): a provider registered with
// protocol hub88 and its production connector set up as our team does it (Hub88's operator_id and
// Games API, Hub88's public key uploaded, a key pair of ours), its game offered to the operator, and
// funded sessions launched through the Games API (a stand-in here, in this process, during setup
// only: it keeps each player's session token). Also what one RSA verification of a bet costs on
// this machine, with the public key prepared once as the gateway does.
import { generateKeyPairSync, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signHub88 } from '@bo/contracts';
import type { Hub88BenchConnector, Hub88BenchSession } from './hub88-requests.ts';

type AdminCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

export interface Hub88Bench {
  sessions: Hub88BenchSession[];
  connector: Hub88BenchConnector;
  /** One RSA-SHA256 verification (2048-bit key, a KeyObject) of a bet's body, in microseconds. */
  verifyMicros: number;
}

const expect = (what: string, r: { status: number; body: unknown }, status: number) => {
  if (r.status !== status) throw new Error(`${what} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body as any;
};

export async function setUpHub88(o: {
  admin: AdminCall;
  runId: string;
  operatorId: string;
  /** Funded production sessions of a game (the bench's own helper): the launch goes through Hub88's /game/url. */
  fundedSessions: (gameId: string) => Promise<Array<{ playerId: string }>>;
}): Promise<Hub88Bench> {
  const hub88 = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const tokens = new Map<string, string>();
  const gamesApi = http.createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const b = JSON.parse(raw || '{}') as { user?: string; token?: string };
    if (req.url?.endsWith('/game/url') && b.user && b.token) tokens.set(b.user, b.token);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(req.url?.endsWith('/game/url') ? { url: `https://hub88.bench/${b.token}` } : []));
  });
  await new Promise<void>((resolve) => gamesApi.listen(0, '127.0.0.1', resolve));
  try {
    const apiBaseUrl = `http://127.0.0.1:${(gamesApi.address() as AddressInfo).port}`;
    const provider = expect(
      'registering the Hub88 provider',
      await o.admin('POST', '/admin/providers', { name: `Bench Hub88 ${o.runId}`, kind: 'casino', protocol: 'hub88' }),
      201,
    );
    const c = `/admin/providers/${provider.id}/connector/production`;
    expect("the connector's settings", await o.admin('PUT', c, { settings: { operatorId: 1, apiBaseUrl } }), 200);
    expect("Hub88's public key", await o.admin('POST', `${c}/their-keys`, { publicKey: hub88.publicKey.export({ type: 'spki', format: 'pem' }) }), 201);
    expect('our key pair', await o.admin('POST', `${c}/our-keys`, {}), 201);
    const game = expect(
      'the Hub88 game',
      await o.admin('PUT', `/admin/providers/${provider.id}/games/bench_hub88_slot`, { name: 'Bench Hub88 Slot', category: 'slots' }),
      200,
    );
    expect('offering the provider', await o.admin('PUT', `/admin/providers/${provider.id}/operators/${o.operatorId}`, { enabled: true }), 200);
    const funded = await o.fundedSessions(game.id);
    // One bet's body verified many times: the cost the gateway pays per call for the signature.
    const body = Buffer.from(
      JSON.stringify({
        user: funded[0]!.playerId,
        transaction_uuid: 'hb-verify',
        token: tokens.get(funded[0]!.playerId),
        round: 'hr-verify',
        game_code: 'bench_hub88_slot',
        currency: 'BRL',
        amount: 100_000,
      }),
    );
    const signature = Buffer.from(signHub88(body, hub88.privateKey), 'base64');
    const n = 5000;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) verify('sha256', body, hub88.publicKey, signature);
    const verifyMicros = Math.round(((performance.now() - t0) * 1000) / n);
    return {
      sessions: funded.map((f) => ({ playerId: f.playerId, token: tokens.get(f.playerId)! })),
      connector: {
        basePath: `/connectors/hub88/${provider.id}/production`,
        privateKeyPem: String(hub88.privateKey.export({ type: 'pkcs8', format: 'pem' })),
        gameCode: 'bench_hub88_slot',
      },
      verifyMicros,
    };
  } finally {
    gamesApi.close();
  }
}
