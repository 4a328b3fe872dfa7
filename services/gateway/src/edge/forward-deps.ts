// What forwarding an operation to its service needs: the NATS connection, the subjects' prefix and the
// deadline (operations.ts forwards answers, file-download.ts streams files).
import type { NatsConnection } from '@nats-io/transport-node';

export interface ForwardDeps {
  nc: NatsConnection;
  natsPrefix: string;
  rpcTimeoutMs: number;
}
