// The game launch page (gameUrl) and its play endpoints, outside /api/v1 and without operator
// auth: the signed launch token in the URL is the credential. Built in issue #6.
import type { FastifyInstance } from 'fastify';
import type { NatsConnection } from '@nats-io/transport-node';

export interface PlayRoutesOptions { nc: NatsConnection; prefix: string; rpcTimeoutMs: number; publicBaseUrl: string }

export async function playRoutes(_app: FastifyInstance, _opts: PlayRoutesOptions): Promise<void> {}
