// A sanctions freeze (docs/aml.md): the compliance service's screening freezes a player on a
// sanctions hit, and only the decision of that player's sanctions case lifts it (a dismissal).
// Internal messages, compliance → players; no HTTP route reaches them.
import { Type, type Static } from '@sinclair/typebox';
import { defineMessages } from './messages.ts';
import { PlayerStatusSchema } from './players.ts';

/** Who and why stay with the compliance service (the case's steps: the screening's opening, the dismissal's person and reason). */
export const SanctionsFreezeSchema = Type.Object({ playerId: Type.String({ minLength: 1, maxLength: 64 }) });
export type SanctionsFreeze = Static<typeof SanctionsFreezeSchema>;
export const SanctionsFreezeResultSchema = Type.Object({
  playerId: Type.String(),
  previousStatus: PlayerStatusSchema,
  status: PlayerStatusSchema,
  /** Whether the player is frozen after the call. */
  frozen: Type.Boolean(),
});
export type SanctionsFreezeResult = Static<typeof SanctionsFreezeResultSchema>;

export const sanctionsFreezeMessages = defineMessages({
  /** Idempotent: a frozen player stays as is. */
  freeze: { subject: 'players.sanctions.freeze', body: SanctionsFreezeSchema, reply: SanctionsFreezeResultSchema },
  /** Idempotent: a player not frozen stays as is. The status goes back to the one the freeze held. */
  lift: { subject: 'players.sanctions.lift', body: SanctionsFreezeSchema, reply: SanctionsFreezeResultSchema },
});
