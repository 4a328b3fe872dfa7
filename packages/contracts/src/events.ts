// Domain events: the body of a JetStream message is exactly the webhook body.
import type { Environment } from './common.ts';
import type { Deposit, Withdrawal, WithdrawalStatus } from './payments.ts';
import type { KycStatus } from './players.ts';

export const EVENT_TYPES = ['kyc.status_changed', 'deposit.confirmed', 'withdrawal.status_changed', 'webhook.test'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EventDataByType {
  'kyc.status_changed': { playerId: string; externalId: string | null; previousStatus: KycStatus; status: KycStatus };
  'deposit.confirmed': Deposit;
  'withdrawal.status_changed': { withdrawal: Withdrawal; previousStatus: WithdrawalStatus | null };
  'webhook.test': { message: string };
}

export interface DomainEvent<T extends EventType = EventType> {
  id: string;
  type: T;
  createdAt: string;
  environment: Environment;
  data: EventDataByType[T];
}

/** Routing metadata carried in NATS headers next to the event (never sent to the operator). */
export const EVENT_HEADERS = { operatorId: 'Bo-Operator-Id', brandId: 'Bo-Brand-Id' } as const;
