// Domain events as the services' outbox relays publish them on the events stream (the envelope, the
// routing headers, the message id JetStream dedupes on), for the tests and the simulation that feed
// the compliance service's consumers without the service that would have written them.
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { EVENT_HEADERS, eventSubject, newId, type OperatorScope } from '@bo/contracts';

/** Any event as its service's outbox relay would publish it; `msgId` apart from the event's id to get past JetStream's own dedupe, as a redelivery would. */
export async function publishEvent(
  nc: NatsConnection,
  prefix: string,
  scope: OperatorScope,
  type: string,
  data: Record<string, unknown>,
  at: Date,
  o: { id?: string; msgId?: string | undefined } = {},
): Promise<string> {
  const id = o.id ?? newId('event');
  const h = natsHeaders();
  h.set(EVENT_HEADERS.operatorId, scope.operatorId);
  h.set(EVENT_HEADERS.brandId, scope.brandId);
  await jetstream(nc).publish(
    eventSubject(prefix, scope.environment, type),
    JSON.stringify({ id, type, createdAt: at.toISOString(), environment: scope.environment, data }),
    { msgID: o.msgId ?? id, headers: h },
  );
  return id;
}

export type MoneyEventKind = 'deposit' | 'failed_deposit' | 'cancelled_withdrawal';

/** A deposit confirmed or failed, or a withdrawal cancelled, as payments' outbox relay would publish it. */
export async function publishMoneyEvent(
  nc: NatsConnection,
  prefix: string,
  scope: OperatorScope,
  e: { id?: string; kind: MoneyEventKind; playerId: string; amount: string; at: Date; msgId?: string; method?: string },
): Promise<string> {
  const id = e.id ?? newId('event');
  const at = e.at.toISOString();
  const money = { playerId: e.playerId, amount: e.amount, currency: 'BRL', method: e.method ?? 'pix', createdAt: at, updatedAt: at };
  const [type, data] =
    e.kind === 'cancelled_withdrawal'
      ? [
          'withdrawal.status_changed',
          { withdrawal: { ...money, id: newId('withdrawal'), destination: 'pix:key', status: 'cancelled' }, previousStatus: 'under_review' },
        ]
      : e.kind === 'deposit'
        ? [
            'deposit.confirmed',
            { ...money, id: newId('deposit'), status: 'confirmed', confirmedAt: at, failedAt: null, failureReason: null, externalReference: `r-${id}` },
          ]
        : [
            'deposit.failed',
            {
              deposit: {
                ...money,
                id: newId('deposit'),
                status: 'failed',
                confirmedAt: null,
                failedAt: at,
                failureReason: 'declined',
                externalReference: `r-${id}`,
              },
              refundRequired: false,
            },
          ];
  return publishEvent(nc, prefix, scope, type as string, data, e.at, { id, msgId: e.msgId });
}
