// Our team's part, on the admin API with a token: the simulated providers registered (a casino
// aggregator and a sportsbook), their games put in the catalogue, offered to the operator, a key
// issued for the environment; and at the end the ledger verified.
import { untilAnswered, type RetryPolicy } from './retry.ts';
import type { ProviderKind } from '@bo/contracts';

export interface AdminSideOptions {
  /** The admin API's URL (http://host:ADMIN_PORT). */
  url: string;
  token: string;
  retry: RetryPolicy;
}

export interface SimGame {
  /** Our game id (gm_…), what an operator opens a session of. */
  id: string;
  /** The provider's code for it, what its bets name. */
  code: string;
}

export interface SimProvider {
  providerId: string;
  kind: ProviderKind;
  key: string;
  secret: string;
  /** The key's credential id (to revoke it). */
  credentialId?: string;
  games: SimGame[];
}

export const SIM_GAMES: Record<ProviderKind, Array<{ code: string; name: string; category: string }>> = {
  casino: [
    { code: 'sim-fruits', name: 'Simulated Fruits', category: 'slots' },
    { code: 'sim-roulette', name: 'Simulated Roulette', category: 'table' },
  ],
  sportsbook: [{ code: 'sim-sports', name: 'Simulated Sportsbook', category: 'sports' }],
};

export class AdminSide {
  readonly #o: AdminSideOptions;
  constructor(opts: AdminSideOptions) {
    this.#o = { ...opts, url: opts.url.replace(/\/+$/, '') };
  }

  /** One admin call through the retry policy; fails unless answered `expected`. */
  async call(method: string, path: string, body: unknown, expected: number): Promise<any> {
    const r = await untilAnswered(
      async () => {
        const res = await fetch(`${this.#o.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${this.#o.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
      },
      `${method} ${path}`,
      this.#o.retry,
    );
    if (r.status !== expected) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  /** Registers a provider with its simulated games, offers it to the operator and issues a key for the environment. */
  async registerProvider(opts: {
    name: string;
    kind: ProviderKind;
    launchUrl: string;
    operatorId: string;
    environment: 'sandbox' | 'production';
  }): Promise<SimProvider> {
    const provider = await this.call('POST', '/admin/providers', { name: opts.name, kind: opts.kind, launchUrl: opts.launchUrl }, 201);
    const games: SimGame[] = [];
    for (const g of SIM_GAMES[opts.kind]) {
      const game = await this.call('PUT', `/admin/providers/${provider.id}/games/${g.code}`, { name: g.name, category: g.category }, 200);
      games.push({ id: game.id, code: g.code });
    }
    await this.call('PUT', `/admin/providers/${provider.id}/operators/${opts.operatorId}`, { enabled: true }, 200);
    const issued = await this.call('POST', `/admin/providers/${provider.id}/credentials`, { environment: opts.environment }, 201);
    return { providerId: provider.id, kind: opts.kind, key: issued.key, secret: issued.secret, credentialId: issued.credential.id, games };
  }

  async verifyLedger(): Promise<{ ok: boolean; mismatches: unknown[] }> {
    return this.call('GET', '/admin/ledger/verify', undefined, 200);
  }
}
