// The simulated PSP key directory: no network. Its keys are rows of payments.simulated_pix_keys per
// operator (store/simulated-pix-keys.ts; the sandbox routes put them there); a key it does not know
// is `not_found`. It can be told to be down (settings at start, `control` at run time: the tests).
import type { SqlRunner } from '@bo/service-kit';
import { simulatedKeyOwner } from '../store/simulated-pix-keys.ts';
import type { PixKeyDirectory } from './pix-key-directory.ts';

export interface PixKeySimulator extends PixKeyDirectory {
  control(mode: { down?: boolean }): void;
}

export function pixKeySimulator(sql: SqlRunner, initial: { down?: boolean } = {}): PixKeySimulator {
  let down = initial.down ?? false;
  return {
    async ownerOf(key, caller) {
      if (down) return { result: 'unavailable', why: 'simulator down' };
      const cpf = await simulatedKeyOwner(sql, caller.operatorId, key);
      return cpf !== undefined ? { result: 'found', cpf } : { result: 'not_found' };
    },
    control(mode) {
      if (mode.down !== undefined) down = mode.down;
    },
  };
}
