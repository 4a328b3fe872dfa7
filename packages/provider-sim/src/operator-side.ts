// The operator's part of a provider session, on the public API (/api/v1) with the operator's key:
// a player registered and KYC-approved (sandbox: the sandbox decision), funded by a deposit that
// the sandbox confirms at once, and a session of the provider's game opened, which makes the
// wallet call the provider's launch with the session token.
import { randomUUID } from 'node:crypto';
import { OperatorClient, generateCpf, type ClientResponse } from '@bo/contracts';
import { untilAnswered, type RetryPolicy } from './retry.ts';

export interface OperatorSideOptions {
  /** The gateway's public URL (http://host:port). */
  baseUrl: string;
  key: string;
  secret: string;
  retry: RetryPolicy;
}

export class OperatorSide {
  readonly client: OperatorClient;
  readonly #retry: RetryPolicy;
  constructor(opts: OperatorSideOptions) {
    this.client = new OperatorClient({ baseUrl: `${opts.baseUrl.replace(/\/+$/, '')}/api/v1`, key: opts.key, secret: opts.secret });
    this.#retry = opts.retry;
  }

  /** A POST with one Idempotency-Key through its retries; fails unless answered `expected`. */
  async #post(path: string, body: unknown, expected: number, what: string, keyed = true): Promise<ClientResponse> {
    const headers: Record<string, string> = keyed ? { 'idempotency-key': `provider-sim-${randomUUID()}` } : {};
    const r = await untilAnswered(() => this.client.post(path, body, headers), what, this.#retry);
    if (r.status !== expected) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
    return r;
  }

  /** Who the key is: the operator's id (to enable a provider for it), the brand's environment and the operator's compliance profile. */
  async me(): Promise<{ operatorId: string; environment: string; brandId: string; currency: string; profile: string }> {
    const r = await untilAnswered(() => this.client.get('/me'), 'me', this.#retry);
    if (r.status !== 200) throw new Error(`GET /me: ${r.status} ${r.text.slice(0, 300)}`);
    return {
      operatorId: r.body.operator.id,
      environment: r.body.operator.environment,
      brandId: r.body.brand.id,
      currency: r.body.brand.currency,
      profile: r.body.compliance?.profile ?? 'off',
    };
  }

  /** A sandbox player, registered and KYC-approved, funded with `funds` (confirmed). */
  async fundedPlayer(label: string, funds: string): Promise<string> {
    const cpf = generateCpf();
    // The loss and time limits br-spa operators' players must have (docs/responsible-gaming.md),
    // wide enough for the simulation; other profiles keep them as the player's own.
    const limits = [
      { type: 'loss', period: 'day', value: '100000.00' },
      { type: 'time', period: 'day', value: 1440 },
    ];
    const p = await this.#post(
      '/players',
      {
        externalId: `sim-${label}-${randomUUID().slice(0, 8)}`,
        name: 'Ana Souza',
        email: 'ana@example.com',
        cpf,
        birthDate: '1990-05-17',
        // The rest of what a br-spa registration carries (docs/players.md, "Registration data").
        phone: '+5511987654321',
        gender: 'feminino',
        signupIp: '198.51.100.7',
        address: { street: 'Rua Augusta', number: '1500', district: 'Consolação', city: 'São Paulo', state: 'SP', postalCode: '01304-001' },
        limits,
      },
      201,
      'register a player',
    );
    const id = p.body.id as string;
    await this.#post(`/players/${id}/kyc/submissions`, { documentType: 'rg', reference: `s3://docs/${id}` }, 201, 'submit KYC');
    await this.#post(`/sandbox/players/${id}/kyc/decision`, { status: 'aprovado' }, 200, 'approve KYC (sandbox)');
    if (funds !== '0.00') {
      const d = await this.#post(
        `/players/${id}/deposits`,
        { amount: funds, currency: 'BRL', method: 'pix', externalReference: `sim-${randomUUID()}` },
        201,
        'deposit',
      );
      // br-spa: the payer is the player.
      await this.#post(`/deposits/${d.body.id}/confirm`, { payer: { cpf } }, 200, 'confirm the deposit (sandbox)');
    }
    return id;
  }

  /** Opens a session of the game: the wallet calls the provider's launch before it answers. */
  async openSession(playerId: string, gameId: string): Promise<{ sessionId: string; gameUrl: string; expiresAt: string }> {
    const r = await this.#post(`/players/${playerId}/game-sessions`, { gameId }, 201, `open a session of ${gameId}`, false);
    return { sessionId: r.body.id, gameUrl: r.body.gameUrl, expiresAt: r.body.expiresAt };
  }

  async wallet(playerId: string): Promise<{ available: string; withdrawable: string }> {
    const r = await untilAnswered(() => this.client.get(`/players/${playerId}/wallet`), 'wallet', this.#retry);
    if (r.status !== 200) throw new Error(`wallet of ${playerId}: ${r.status} ${r.text.slice(0, 300)}`);
    return r.body;
  }
}
