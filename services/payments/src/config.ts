// Payments configuration: the base settings plus the reconciler's pace.
import { Type, type Static } from '@sinclair/typebox';
import { BaseConfigSchema, type BaseConfig } from '@bo/service-kit';

export const PaymentsConfigSchema = Type.Composite([BaseConfigSchema, Type.Object({
  /** How often each replica looks for interrupted money moves. */
  RECONCILE_INTERVAL_MS: Type.Integer({ default: 1000, minimum: 10 }),
  /** How long a move must have been still before the reconciler takes it over from its request. */
  RECONCILE_AFTER_MS: Type.Integer({ default: 2000, minimum: 0 }),
})]);
export type PaymentsConfig = Static<typeof PaymentsConfigSchema>;

/** The reconciler's settings from whatever config the service was started with. */
export function reconcilerSettings(config: BaseConfig): { intervalMs: number; afterMs: number } {
  const c = config as Partial<PaymentsConfig>;
  return { intervalMs: Number(c.RECONCILE_INTERVAL_MS ?? 1000), afterMs: Number(c.RECONCILE_AFTER_MS ?? 2000) };
}
