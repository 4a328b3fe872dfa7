// The players service's admin operations this service uses, as our team's compliance automation
// (actor `aml-screening` in the player's file and history): a player's identity (screening, the
// COS), the freeze of a sanctions hit, and its lift when our team dismisses the sanctions case
// (the players service's own messages: our team's generic status change cannot lift a freeze).
import { randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { callOperation, sanctionsFreezeMessages, type AdminScope, type SanctionsFreezeResult } from '@bo/contracts';

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
  /** Lifts a sanctions freeze (nothing when the player is not frozen). */
  liftFreeze(playerId: string): Promise<SanctionsFreezeResult>;
}

export function playersAdmin(o: { nc: NatsConnection; prefix: string; timeoutMs: number }): PlayersAdmin {
  const call = <R>(subject: string, id: string, body: unknown = {}) =>
    callOperation<R>(
      o.nc,
      subject,
      { ctx: { requestId: `req_compliance_${randomUUID()}`, scope: SCOPE }, params: { id }, query: {}, body },
      { prefix: o.prefix, timeoutMs: o.timeoutMs },
    );
  const freezeCall = (subject: string, playerId: string) => call<SanctionsFreezeResult>(subject, playerId, { playerId });
  return {
    async identityOf(playerId) {
      const file = await call<{ player: PlayerIdentity }>('players.admin.get', playerId);
      return { cpf: file.player.cpf, name: file.player.name, birthDate: file.player.birthDate };
    },
    async freeze(playerId) {
      await freezeCall(sanctionsFreezeMessages.freeze.subject, playerId);
    },
    liftFreeze: (playerId) => freezeCall(sanctionsFreezeMessages.lift.subject, playerId),
  };
}
