// How a change to an operator or its keys reaches every gateway replica's credential cache. A
// restricting change (a suspension, a revoked or expired key) must be in force before the admin call
// answers (design.md, "Rules that gate money"): the change is broadcast on core NATS and flushed
// before the answer, so the NATS server has routed it to every connected gateway replica by then
// (they apply it as soon as it arrives, milliseconds; the replica that asked gets it before the
// answer, which comes after it on the same connection). A replica cut off from NATS at that moment
// misses it and re-reads within CREDENTIAL_CACHE_TTL_MS (1 s by default).
import type { NatsConnection } from '@nats-io/transport-node';
import { gatewayInvalidateSubject, type OperatorChanged } from '@bo/contracts';
import type { Logger } from '@bo/service-kit';

export interface ChangeBroadcast {
  nc: NatsConnection;
  prefix: string;
  /** How long the answer waits for the NATS server to confirm the broadcast. */
  rpcTimeoutMs: number;
  log: Logger;
}

export async function announceOperatorChange(d: ChangeBroadcast, operatorId: string): Promise<void> {
  d.nc.publish(gatewayInvalidateSubject(d.prefix), JSON.stringify({ operatorId } satisfies OperatorChanged));
  // The change is committed: if NATS does not confirm in time, answer anyway (the TTL bounds it).
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('NATS did not confirm the broadcast in time')), d.rpcTimeoutMs);
  });
  try {
    await Promise.race([d.nc.flush(), deadline]);
  } catch (err) {
    d.log.warn({ err, operatorId }, 'operator change broadcast not confirmed; gateway replicas see it within CREDENTIAL_CACHE_TTL_MS');
  } finally {
    clearTimeout(timer);
  }
}
