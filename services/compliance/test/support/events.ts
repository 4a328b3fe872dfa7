// Domain events published straight to the events stream, as a service's outbox relay would
// (same subject, headers and msgID): for watch scenarios whose times lie in the past (a 30-day
// pattern) or whose producer has not landed yet (deposit.failed with payer_mismatch).
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { EVENT_HEADERS, eventSubject, newId, type OperatorScope } from '@bo/contracts';

export async function publishMoneyEvent(
  nc: NatsConnection,
  prefix: string,
  scope: OperatorScope,
  e: { type: 'deposit.confirmed' | 'deposit.failed'; playerId: string; amount: string; at: Date; failureReason?: string },
): Promise<string> {
  const id = newId('event');
  const at = e.at.toISOString();
  const deposit = {
    id: newId('deposit'),
    playerId: e.playerId,
    amount: e.amount,
    currency: 'BRL',
    method: 'pix',
    externalReference: `ref-${id}`,
    status: e.type === 'deposit.confirmed' ? 'confirmed' : 'failed',
    createdAt: at,
    updatedAt: at,
    confirmedAt: e.type === 'deposit.confirmed' ? at : null,
    failedAt: e.type === 'deposit.failed' ? at : null,
    failureReason: e.failureReason ?? null,
  };
  const h = natsHeaders();
  h.set(EVENT_HEADERS.operatorId, scope.operatorId);
  h.set(EVENT_HEADERS.brandId, scope.brandId);
  await jetstream(nc).publish(
    eventSubject(prefix, scope.environment, e.type),
    JSON.stringify({ id, type: e.type, createdAt: at, environment: scope.environment, data: deposit }),
    { msgID: id, headers: h },
  );
  return id;
}

export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
