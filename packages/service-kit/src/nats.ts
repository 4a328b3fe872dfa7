import { connect, type NatsConnection } from '@nats-io/transport-node';

export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  return connect({
    servers: url.split(','),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    // nats.js creates an Error per request (and per timer) to keep the caller's stack for a
    // timeout: a stack capture on every RPC, several percent of each process's CPU. Our RPC
    // errors carry the subject, which is what a timeout needs to be understood.
    noAsyncTraces: true,
  });
}
