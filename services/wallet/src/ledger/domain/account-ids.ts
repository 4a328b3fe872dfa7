// The ledger's accounts by kind, and their deterministic ids: the account of a (brand, player,
// currency) needs no lookup to be found (docs/money.md, "Hot accounts").
export type AccountKind =
  | 'player'
  | 'deposit_clearing'
  | 'payout_clearing'
  | 'game_clearing'
  | 'provider_clearing'
  // Issue #46 item 4: the balances of accounts closed after an impediment hit, held for the bettor
  // 180 days (a liability to the bettor), then owed to FIES and FUNCAP (a liability to the funds).
  | 'unclaimed_impeded'
  | 'fund_transfer_payable'
  // Issue #60 item 3: sports prizes held under an integrity suspicion (a liability to the player
  // until released), and those forfeited after the review (kept by the brand until the authority decides).
  | 'integrity_hold'
  | 'integrity_forfeited';
/** The brand-wide clearing accounts (a provider's is per brand and provider: providerClearingAccountId). */
export type ClearingKind = Exclude<AccountKind, 'player' | 'provider_clearing'>;

export function playerAccountId(brandId: string, playerId: string, currency: string): string {
  return `acct:player:${brandId}:${playerId}:${currency}`;
}
export function clearingAccountId(brandId: string, kind: ClearingKind, currency: string): string {
  return `acct:${kind}:${brandId}:${currency}`;
}
/** A game provider's clearing account of a brand: what the brand owes it or is owed (the provider invoices on it). */
export function providerClearingAccountId(brandId: string, providerId: string, currency: string): string {
  return `acct:provider_clearing:${brandId}:${providerId}:${currency}`;
}
