// Public surface of @bo/contracts: schemas, operations, messages, errors, subjects.
export * from './errors.ts';
export * from './ids.ts';
export * from './formats.ts';
export * from './common.ts';
export * from './operations.ts';
export * from './validation.ts';
export * from './messages.ts';
export * from './subjects.ts';
export * from './rpc.ts';
export * from './signing.ts';
export * from './client.ts';
export * from './me.ts';
export * from './players.ts';
export * from './payments.ts';
export * from './wallet.ts';
export * from './games.ts';
export * from './webhooks.ts';
export * from './events.ts';
export * from './admin.ts';
export * from './openapi.ts';

import { meOperations } from './me.ts';
import { playerOperations } from './players.ts';
import { paymentOperations } from './payments.ts';
import { walletOperations } from './wallet.ts';
import { gameOperations } from './games.ts';
import { webhookOperations } from './webhooks.ts';

/** Every public operation under /api/v1. */
export const publicOperations = {
  ...meOperations,
  ...playerOperations,
  ...walletOperations,
  ...paymentOperations,
  ...gameOperations,
  ...webhookOperations,
};
