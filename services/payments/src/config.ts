// Payments configuration: the kit's base settings, the key of its list cursors (the review queue)
// and the reconciler's pace.
import { Type, type Static } from '@sinclair/typebox';
import { BaseConfigSchema, ListCursorConfigSchema } from '@bo/service-kit';

export const PaymentsConfigSchema = Type.Composite([
  BaseConfigSchema,
  ListCursorConfigSchema,
  Type.Object({
    /** How often each replica looks for interrupted money moves. */
    RECONCILE_INTERVAL_MS: Type.Integer({ default: 1000, minimum: 10 }),
    /** How long a move must have been still before the reconciler takes it over from its request. */
    RECONCILE_AFTER_MS: Type.Integer({ default: 2000, minimum: 0 }),
  }),
]);
export type PaymentsConfig = Static<typeof PaymentsConfigSchema>;
