// The wallet's shared store: what the whole schema holds about a player, across its modules (issue #69).
export { walletPersonalData } from './personal-data.ts';
