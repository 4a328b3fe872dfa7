// The money scenarios' requests for autocannon, signed the way an operator's server signs them.
// Each connection walks the players round robin (a counter shared by the connections of one
// load process), so concurrent requests are for different players as a real operator's are.
import { createSecretKey, type KeyObject } from 'node:crypto';
import { signRequest } from '@bo/contracts';
import type { AutocannonRequest } from 'autocannon';
import { API_PREFIX, type Credentials } from './requests.ts';

export interface BenchPlayer {
  id: string;
  creds: Credentials;
  /** Set for a br-spa operator's player: its confirms carry the payer (the player's own CPF). */
  payerCpf?: string;
}
/** A production game session of a funded player: the launch page's path on the gateway. */
export interface BenchSession {
  roundsPath: string;
}

const nowSeconds = (): string => String(Math.floor(Date.now() / 1000));
const keys = new Map<string, KeyObject>();
const keyOf = (c: Credentials): KeyObject => {
  let k = keys.get(c.secret);
  if (!k) {
    k = createSecretKey(Buffer.from(c.secret, 'utf8'));
    keys.set(c.secret, k);
  }
  return k;
};

function signed(creds: Credentials, method: string, path: string, body?: string, idempotencyKey?: string): Record<string, string> {
  const ts = nowSeconds();
  return {
    ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    'x-operator-key': creds.key,
    'x-timestamp': ts,
    'x-signature': signRequest(keyOf(creds), method, path, ts, body),
  };
}

/**
 * One deposit = two requests in sequence on a connection: create (fresh externalReference and
 * key), then confirm of the id the create answered (fresh key). Amounts are small and fixed.
 */
export function depositRequests(players: BenchPlayer[], runId: string, counter: { n: number }): AutocannonRequest[] {
  return [
    {
      method: 'POST',
      setupRequest(req, context) {
        const n = counter.n++;
        const player = players[n % players.length];
        context.player = player;
        const path = `${API_PREFIX}/players/${player!.id}/deposits`;
        const body = JSON.stringify({ amount: '10.00', currency: 'BRL', method: 'pix', externalReference: `bench-${runId}-${n}` });
        return { ...req, path, body, headers: signed(player!.creds, 'POST', path, body, `dep-${runId}-${n}`) };
      },
      onResponse(status, body, context) {
        context.depositId = status === 201 ? (JSON.parse(body) as { id: string }).id : 'dep_missing';
      },
    },
    {
      method: 'POST',
      setupRequest(req, context) {
        const player = context.player as BenchPlayer;
        const path = `${API_PREFIX}/deposits/${String(context.depositId)}/confirm`;
        const body = player.payerCpf ? JSON.stringify({ payer: { cpf: player.payerCpf } }) : '{}';
        return { ...req, path, body, headers: signed(player.creds, 'POST', path, body, `conf-${runId}-${String(context.depositId)}`) };
      },
    },
  ];
}

export function walletRequest(players: BenchPlayer[], counter: { n: number }): AutocannonRequest {
  return {
    method: 'GET',
    setupRequest(req) {
      const player = players[counter.n++ % players.length];
      const path = `${API_PREFIX}/players/${player!.id}/wallet`;
      return { ...req, path, headers: signed(player!.creds, 'GET', path) };
    },
  };
}

/** A real-money round on the launch page (the page's own call: unsigned, the token is the credential). */
export function roundRequest(sessions: BenchSession[], runId: string, counter: { n: number }): AutocannonRequest {
  return {
    method: 'POST',
    setupRequest(req) {
      const n = counter.n++;
      const session = sessions[n % sessions.length];
      const body = JSON.stringify({ amount: '1.00', target: '2.00', clientRoundId: `bench-${runId}-${n}` });
      return { ...req, path: session!.roundsPath, body, headers: { 'content-type': 'application/json' } };
    },
  };
}

/** A funded production player's session of a provider game: the token the provider got at launch. */
export interface ProviderBenchSession {
  playerId: string;
  token: string;
}
/** The provider's key and secret (X-Provider-Key), and its game code. */
export interface ProviderCredentials {
  key: string;
  secret: string;
  gameCode: string;
}

function providerSigned(c: ProviderCredentials, path: string, body: string): Record<string, string> {
  const ts = nowSeconds();
  return {
    'content-type': 'application/json',
    'x-provider-key': c.key,
    'x-timestamp': ts,
    'x-signature': signRequest(keyOf({ key: c.key, secret: c.secret } as Credentials), 'POST', path, ts, body),
  };
}

/**
 * One provider round = two calls in sequence on a connection, as an aggregator sends them: the
 * bet (a fresh transaction and round id), then its win, which closes the round (every other one a
 * lost round's 0.00).
 */
export function providerRequests(sessions: ProviderBenchSession[], c: ProviderCredentials, runId: string, counter: { n: number }): AutocannonRequest[] {
  const bets = '/provider/v1/bets';
  const wins = '/provider/v1/wins';
  return [
    {
      method: 'POST',
      setupRequest(req, context) {
        const n = counter.n++;
        const session = sessions[n % sessions.length]!;
        context.n = n;
        context.session = session;
        const body = JSON.stringify({
          transactionId: `b-${runId}-${n}`,
          token: session.token,
          roundId: `r-${runId}-${n}`,
          gameCode: c.gameCode,
          amount: '1.00',
          currency: 'BRL',
        });
        return { ...req, path: bets, body, headers: providerSigned(c, bets, body) };
      },
    },
    {
      method: 'POST',
      setupRequest(req, context) {
        const n = context.n as number;
        const session = context.session as ProviderBenchSession;
        const body = JSON.stringify({
          transactionId: `w-${runId}-${n}`,
          playerId: session.playerId,
          roundId: `r-${runId}-${n}`,
          amount: n % 2 === 0 ? '1.50' : '0',
          currency: 'BRL',
        });
        return { ...req, path: wins, body, headers: providerSigned(c, wins, body) };
      },
    },
  ];
}

export function bareRequest(kind: 'bareSelect' | 'bareUpdate'): AutocannonRequest {
  return kind === 'bareSelect' ? { method: 'GET', path: '/select' } : { method: 'POST', path: '/update' };
}
