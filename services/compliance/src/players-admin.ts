// The players service's admin operations this service uses, as our team's compliance automation
// (actor `aml-screening` in the player's file and history): a player's identity (screening, the
// COS) and the freeze of a sanctions hit.
import { randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { callOperation, type AdminScope } from '@bo/contracts';

export const SCREENING_ACTOR = 'aml-screening';
const SCOPE: AdminScope = { kind: 'admin', actor: SCREENING_ACTOR };

export interface PlayerIdentity {
  cpf: string;
  name: string;
  birthDate: string | null;
}

export interface PlayersAdmin {
  identityOf(playerId: string): Promise<PlayerIdentity>;
  freeze(playerId: string): Promise<void>;
}

export function playersAdmin(o: { nc: NatsConnection; prefix: string; timeoutMs: number }): PlayersAdmin {
  const call = <R>(subject: string, id: string, body: unknown = {}) =>
    callOperation<R>(
      o.nc,
      subject,
      { ctx: { requestId: `req_compliance_${randomUUID()}`, scope: SCOPE }, params: { id }, query: {}, body },
      { prefix: o.prefix, timeoutMs: o.timeoutMs },
    );
  return {
    async identityOf(playerId) {
      const file = await call<{ player: PlayerIdentity }>('players.admin.get', playerId);
      return { cpf: file.player.cpf, name: file.player.name, birthDate: file.player.birthDate };
    },
    async freeze(playerId) {
      await call('players.admin.status', playerId, { status: 'bloqueado' });
    },
  };
}
