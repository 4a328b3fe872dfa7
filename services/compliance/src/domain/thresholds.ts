// The thresholds of the watch's rules: our team's defaults, overridden per brand (admin API,
// `PUT /admin/aml/brands/{brandId}/rules`). docs/aml.md gives each default and why.
import type { AmlThresholds } from '@bo/contracts';

export const DEFAULT_THRESHOLDS: AmlThresholds = {
  inAndOutHours: 48,
  inAndOutStakePercent: 30,
  inAndOutPartialPercent: 30,
  splitThreshold: '10000.00',
  splitMarginPercent: 10,
  splitCount: 5,
  splitHours: 24,
  highValue: '50000.00',
  velocityFactor: 5,
  velocityMinAmount: '5000.00',
};

/** A brand's stored thresholds over the defaults (a setting added later keeps its default). */
export function thresholdsOf(stored: Partial<AmlThresholds> | undefined): AmlThresholds {
  return { ...DEFAULT_THRESHOLDS, ...(stored ?? {}) };
}
