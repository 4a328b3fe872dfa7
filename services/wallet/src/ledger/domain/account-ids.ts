// The ledger's accounts by kind, and their deterministic ids: the account of a (brand, player,
// currency) needs no lookup to be found (docs/money.md, "Hot accounts").
export type AccountKind = 'player' | 'deposit_clearing' | 'payout_clearing' | 'game_clearing';
export type ClearingKind = Exclude<AccountKind, 'player'>;

export function playerAccountId(brandId: string, playerId: string, currency: string): string {
  return `acct:player:${brandId}:${playerId}:${currency}`;
}
export function clearingAccountId(brandId: string, kind: ClearingKind, currency: string): string {
  return `acct:${kind}:${brandId}:${currency}`;
}
