// Payments configuration: the kit's base settings, the key of its list cursors (the review queue),
// the reconciler's pace, and the br-spa PIX key directory (docs/eligibility.md).
import { Type, type Static } from '@sinclair/typebox';
import { BaseConfigSchema, ListCursorConfigSchema, providerSecret } from '@bo/service-kit';

export const PaymentsConfigSchema = Type.Composite([
  BaseConfigSchema,
  ListCursorConfigSchema,
  Type.Object({
    /** How often each replica looks for interrupted money moves. */
    RECONCILE_INTERVAL_MS: Type.Integer({ default: 1000, minimum: 10 }),
    /** How long a move must have been still before the reconciler takes it over from its request. */
    RECONCILE_AFTER_MS: Type.Integer({ default: 2000, minimum: 0 }),
    /**
     * Who answers br-spa withdrawals' PIX key-owner lookups for production brands: `simulator` (no
     * network, the default) or `psp` (the payment provider over HTTPS, PSP_* below). Sandbox brands always ask the simulator.
     */
    PIX_KEY_DIRECTORY: Type.Union([Type.Literal('simulator'), Type.Literal('psp')], { default: 'simulator' }),
    PSP_BASE_URL: Type.Optional(Type.String({ minLength: 1 })),
    /** The operator's PSP credential (a secret: from the Secret, never logged). */
    PSP_TOKEN: providerSecret(),
    PSP_TIMEOUT_MS: Type.Integer({ default: 3000, minimum: 100 }),
    PSP_RETRIES: Type.Integer({ default: 2, minimum: 0, maximum: 10 }),
    /**
     * Who pays the transfers of unclaimed funds to FIES and FUNCAP for production brands (issue #60):
     * `simulator` (no network, the default) or `psp` (the payment provider, PSP_BASE_URL and PSP_TOKEN).
     * Sandbox brands always the simulator.
     */
    FUND_PAYOUT_RAIL: Type.Union([Type.Literal('simulator'), Type.Literal('psp')], { default: 'simulator' }),
    /** The accounts the funds' halves are paid to (as the rail reads them); with FUND_PAYOUT_RAIL=psp they must be set. */
    FUND_PAYOUT_FIES_ACCOUNT: Type.String({ default: 'simulated:fies', minLength: 1, maxLength: 200 }),
    FUND_PAYOUT_FUNCAP_ACCOUNT: Type.String({ default: 'simulated:funcap', minLength: 1, maxLength: 200 }),
    /** How often each replica pays the pending fund payouts (a request also wakes it). */
    FUND_PAYOUT_INTERVAL_MS: Type.Integer({ default: 60_000, minimum: 10 }),
  }),
]);
export type PaymentsConfig = Static<typeof PaymentsConfigSchema>;
