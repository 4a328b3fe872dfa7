// The marketing module's face: all the rest of the players service may import of it (docs/architecture.md,
// "One template per service"). The flows that begin or end a block (rg's pause and self-exclusion and
// their ends, impediments' restriction, our team's closing) force the consent off and date the block
// (`beginMarketingBlock`, `endMarketingBlock`); the players module shows the permission and records a
// consent given at registration (`marketingPermission`).
export { marketingModule } from './module.ts';
export { marketingBlockOf, marketingPermission, type MarketingFields } from './domain/marketing.ts';
export { beginMarketingBlock, endMarketingBlock } from './handlers/blocks.ts';
export { changeMarketingConsent } from './handlers/consent.ts';
