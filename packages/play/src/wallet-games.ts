// The PlayGames port over NATS: the wallet's games.play.session and games.play.round, asked the way
// the contract says the page's messages come (ctx.scope { kind: 'internal', service: 'gateway' },
// params { token }), with the host's deadline. A timeout or no responder is thrown, and the page
// answers it as 503 SERVICE_UNAVAILABLE.
import type { NatsConnection } from '@nats-io/transport-node';
import { gamePlayMessages, requestOperation, type OperationReply, type PlaySessionView } from '@bo/contracts';
import type { PlayGames } from './play-routes.ts';

const PAGE_SCOPE = { kind: 'internal', service: 'gateway' } as const;

export interface WalletGamesOptions {
  nc: NatsConnection;
  /** The NATS subject prefix. */
  prefix: string;
  timeoutMs: number;
}

export function walletGames(o: WalletGamesOptions): PlayGames {
  const ask = <R>(subject: string, token: string, requestId: string, body: unknown): Promise<OperationReply<R>> =>
    requestOperation<R>(
      o.nc,
      subject,
      { ctx: { requestId, scope: PAGE_SCOPE }, params: { token }, query: {}, body },
      { prefix: o.prefix, timeoutMs: o.timeoutMs },
    );
  return {
    session: (token, requestId) => ask<PlaySessionView>(gamePlayMessages.session.subject, token, requestId, {}),
    round: (token, requestId, body) => ask(gamePlayMessages.round.subject, token, requestId, body),
    heartbeat: (token, requestId, body) => ask(gamePlayMessages.heartbeat.subject, token, requestId, body),
  };
}
