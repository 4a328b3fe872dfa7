// The Hub88 scenario's calls (issue #58 item 7, docs/connectors-hub88.md): what Hub88 sends on a
// connection for one round, a bet then its win, beside the native provider's (money-requests.ts)
// so the two compare the connector's cost over the same provider wallet. Each body is signed as
// Hub88 signs it (X-Hub88-Signature: RSA-SHA256 with Hub88's private key, prepared once here).
import { createPrivateKey } from 'node:crypto';
import type { AutocannonRequest } from 'autocannon';
import { signHub88 } from '@bo/contracts';

/** A funded production player's session of a Hub88 game: the token Hub88 got from /game/url. */
export interface Hub88BenchSession {
  playerId: string;
  token: string;
}
/** The connector's wallet base path (`/connectors/hub88/<provider>/<environment>`), Hub88's private key (PEM) and the game. */
export interface Hub88BenchConnector {
  basePath: string;
  privateKeyPem: string;
  gameCode: string;
}

/**
 * One round: the bet (a fresh transaction_uuid and round), then its win closing the round (every
 * other one 0). RSA signing costs the load generator about a millisecond a call, on the cores the
 * system under test uses: the first `presigned` rounds are signed before the run starts (the
 * caller sizes it to the rounds the run will send), so the run measures the connector, not the
 * signer; a round past them is signed as it is sent.
 */
export function hub88Requests(
  sessions: Hub88BenchSession[],
  c: Hub88BenchConnector,
  runId: string,
  counter: { n: number },
  presigned: number,
): AutocannonRequest[] {
  const key = createPrivateKey(c.privateKeyPem);
  const bets = `${c.basePath}/transaction/bet`;
  const wins = `${c.basePath}/transaction/win`;
  const signed = (path: string, body: string) => ({
    method: 'POST' as const,
    path,
    body,
    headers: { 'content-type': 'application/json', 'x-hub88-signature': signHub88(body, key) },
  });
  const round = (n: number) => {
    const session = sessions[n % sessions.length]!;
    const common = { user: session.playerId, token: session.token, round: `hr-${runId}-${n}`, is_free: false, game_code: c.gameCode, currency: 'BRL' };
    const bet = JSON.stringify({ ...common, transaction_uuid: `hb-${runId}-${n}`, round_closed: false, request_uuid: `hq-${runId}-${n}`, amount: 100_000 });
    const win = JSON.stringify({
      ...common,
      transaction_uuid: `hw-${runId}-${n}`,
      reference_transaction_uuid: `hb-${runId}-${n}`,
      round_closed: true,
      request_uuid: `hs-${runId}-${n}`,
      amount: n % 2 === 0 ? 150_000 : 0,
    });
    return { bet: signed(bets, bet), win: signed(wins, win) };
  };
  const pool = Array.from({ length: presigned }, (_, n) => round(n));
  return [
    {
      method: 'POST',
      setupRequest(req, context) {
        const n = counter.n++;
        const r = pool[n] ?? round(n);
        context.win = r.win;
        return { ...req, ...r.bet };
      },
    },
    {
      method: 'POST',
      setupRequest(req, context) {
        return { ...req, ...(context.win as ReturnType<typeof signed>) };
      },
    },
  ];
}
