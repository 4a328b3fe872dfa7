// Whose a session token is (Hub88's `token`, Evolution's `sid`): a bet carries both the token and the
// player (`user`, `userId`), and must be the player's whose session the token is (a bet of another
// user under a token is refused before any money moves). A token is bound to its player for good
// (docs/providers.md, "Launch"), so each replica asks the wallet once per token (its balance
// operation names the player, an expired session included) and keeps the answer.
import type { ProviderScope } from '@bo/contracts';
import type { ProviderWallet } from './provider-wallet.ts';

/** Tokens kept per replica before the map starts over (a few hundred bytes each). */
const MAX_TOKENS = 50_000;

export type TokenPlayer = { ok: true; playerId: string } | { ok: false; error: { code: string; details?: unknown } };

export class TokenPlayers {
  readonly #players = new Map<string, string>();

  remember(scope: ProviderScope, token: string, playerId: string): void {
    if (this.#players.size >= MAX_TOKENS) this.#players.clear();
    this.#players.set(`${scope.providerId} ${scope.environment} ${token}`, playerId);
  }

  async playerOf(wallet: ProviderWallet, scope: ProviderScope, token: string, requestId: string): Promise<TokenPlayer> {
    const kept = this.#players.get(`${scope.providerId} ${scope.environment} ${token}`);
    if (kept) return { ok: true, playerId: kept };
    const r = await wallet.balance(scope, token, requestId);
    if (!r.ok) return { ok: false, error: r.error };
    this.remember(scope, token, r.body.playerId);
    return { ok: true, playerId: r.body.playerId };
  }
}
