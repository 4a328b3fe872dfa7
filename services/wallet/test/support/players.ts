// Players for money tests, made through the real players service's own operations.
import { randomBytes } from 'node:crypto';
import type { KycStatus, OperatorScope, PlayerStatus } from '@bo/contracts';
import { adminScope } from './scopes.ts';
import { ok, type Caller } from './rpc.ts';

/** A random CPF with valid check digits. */
export function randomCpf(): string {
  const d = Array.from(randomBytes(9), (b) => b % 10);
  if (d.every((x) => x === d[0])) d[0] = (d[0] + 1) % 10;
  const digit = (len: number) => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += d[i] * (len + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  d.push(digit(9));
  d.push(digit(10));
  return d.join('');
}

export interface PlayerSetup { kyc?: KycStatus; status?: PlayerStatus; dailyDepositLimit?: string | null; selfExcludedUntil?: string | null }

export async function createPlayer(call: Caller, scope: OperatorScope, setup: PlayerSetup = {}): Promise<string> {
  const player = ok<{ id: string }>(await call('players.create', {
    scope, key: `create-${randomBytes(8).toString('hex')}`,
    body: { externalId: `ext-${randomBytes(6).toString('hex')}`, name: 'Maria Teste', email: 'maria@example.com', cpf: randomCpf(), birthDate: '1990-05-17' },
  }));
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
