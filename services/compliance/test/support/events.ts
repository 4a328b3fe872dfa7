// Domain events published straight to the events stream, as a service's outbox relay would
// (same subject, headers and msgID): for watch scenarios whose times lie in the past (a 30-day
// pattern) or that the money path's own rules keep from happening (a payout to another player's account).
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
    JSON.stringify({
      id,
      type: e.type,
      createdAt: at,
      environment: scope.environment,
      // deposit.failed carries `{ deposit, refundRequired }` (contracts' events.ts); deposit.confirmed the deposit.
      data: e.type === 'deposit.failed' ? { deposit, refundRequired: true } : deposit,
    }),
    { msgID: id, headers: h },
  );
  return id;
}

export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

/** A new withdrawal (`withdrawal.status_changed` with no previous status), as payments' relay would send it. */
export async function publishWithdrawalEvent(
  nc: NatsConnection,
  prefix: string,
  scope: OperatorScope,
  e: { playerId: string; amount: string; destination: string; at: Date },
): Promise<string> {
  const id = newId('event');
  const at = e.at.toISOString();
  const withdrawal = {
    id: newId('withdrawal'),
    playerId: e.playerId,
    amount: e.amount,
    currency: 'BRL',
    method: 'pix',
    destination: e.destination,
    status: 'under_review',
    createdAt: at,
    updatedAt: at,
  };
  const h = natsHeaders();
  h.set(EVENT_HEADERS.operatorId, scope.operatorId);
  h.set(EVENT_HEADERS.brandId, scope.brandId);
  await jetstream(nc).publish(
    eventSubject(prefix, scope.environment, 'withdrawal.status_changed'),
    JSON.stringify({ id, type: 'withdrawal.status_changed', createdAt: at, environment: scope.environment, data: { withdrawal, previousStatus: null } }),
    { msgID: id, headers: h },
  );
  return id;
}
