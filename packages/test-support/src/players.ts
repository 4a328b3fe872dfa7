// Players for money tests, made through the real players service's own operations.
import { randomBytes } from 'node:crypto';
import type { KycStatus, OperatorScope, PlayerStatus } from '@bo/contracts';
import { adminScope } from './scopes.ts';
import { ok, type Caller } from './rpc.ts';
import { randomCpf } from '@bo/service-kit/testing';

export interface PlayerSetup {
  kyc?: KycStatus;
  status?: PlayerStatus;
  dailyDepositLimit?: string | null;
  selfExcludedUntil?: string | null;
  /** Limits sent with the registration (br-spa asks for a loss and a time limit before any deposit). */
  limits?: Array<{ type: 'deposit' | 'loss' | 'wager' | 'time'; period: 'day' | 'week' | 'month'; value: string | number }>;
  /** Registered without the data br-spa requires beyond the limits (a player from before issue #60). */
  incomplete?: boolean;
}

/**
 * The registration data br-spa requires beyond the limits (phone, gender, sign-up IP, address: issue #60),
 * sent with every registration these helpers make, so a player is complete whatever the profile.
 */
export const BR_SPA_REGISTRATION = {
  phone: '+5511987654321',
  gender: 'feminino',
  signupIp: '198.51.100.7',
  address: { street: 'Rua Augusta', number: '1500', district: 'Consolação', city: 'São Paulo', state: 'SP', postalCode: '01304-001' },
} as const;

/** A loss and a time limit far out of reach: what br-spa requires of a player before money moves. */
export const BR_SPA_LIMITS: NonNullable<PlayerSetup['limits']> = [
  { type: 'loss', period: 'day', value: '100000.00' },
  { type: 'time', period: 'day', value: 1440 },
];

export async function createPlayer(call: Caller, scope: OperatorScope, setup: PlayerSetup = {}): Promise<string> {
  const player = ok<{ id: string }>(
    await call('players.create', {
      scope,
      key: `create-${randomBytes(8).toString('hex')}`,
      body: {
        externalId: `ext-${randomBytes(6).toString('hex')}`,
        name: 'Maria Teste',
        email: 'maria@example.com',
        cpf: randomCpf(),
        birthDate: '1990-05-17',
        ...(setup.incomplete ? {} : BR_SPA_REGISTRATION),
        ...(setup.limits ? { limits: setup.limits } : {}),
      },
    }),
  );
  if (setup.kyc) ok(await call('players.admin.kycDecision', { scope: adminScope, params: { id: player.id }, body: { status: setup.kyc } }));
  if (setup.status) ok(await call('players.admin.status', { scope: adminScope, params: { id: player.id }, body: { status: setup.status } }));
  if (setup.dailyDepositLimit !== undefined || setup.selfExcludedUntil !== undefined) {
    await setLimits(call, player.id, { dailyDepositLimit: setup.dailyDepositLimit ?? null, selfExcludedUntil: setup.selfExcludedUntil ?? null });
  }
  return player.id;
}

export async function setLimits(call: Caller, playerId: string, limits: { dailyDepositLimit: string | null; selfExcludedUntil: string | null }): Promise<void> {
  ok(await call('players.admin.limits', { scope: adminScope, params: { id: playerId }, body: limits }));
}
export async function setStatus(call: Caller, playerId: string, status: PlayerStatus): Promise<void> {
  ok(await call('players.admin.status', { scope: adminScope, params: { id: playerId }, body: { status } }));
}
