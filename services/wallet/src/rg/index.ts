// The responsible-gaming module's face: all the rest of the wallet may import of it
// (docs/architecture.md, "One template per service"). Games checks a round's limits and counts the
// page's activity with it (demo play too, on its own record); the round's statement adds rg's parts to the ledger's posting; the
// ledger's verification checks the usage and counters against the rounds.
export { rgModule } from './module.ts';
export {
  checkRoundLimits,
  checkTimeLimits,
  hasTimeLimit,
  needsRoundGuard,
  roundLimitsOf,
  type RoundLimits,
  type RoundUsage,
} from './domain/round-limits.ts';
export {
  counterDrift,
  creditCounterParts,
  recordActivity,
  recordRealityCheck,
  roundCounterParts,
  seedCounters,
  UNCOUNTED,
  usageUndo,
  usageUpsert,
} from './store/counters.ts';
export { addDemoStake, recordDemoActivity } from './store/demo-usage.ts';
export { periodUsage, usageDrift } from './store/usage.ts';
