// The sandbox's control of the screening simulator (issue #28, docs/aml.md): a test key puts a CPF
// on the simulated PEP or sanctions list of its own operator's sandbox, to see what its integration
// meets when a sandbox player is screened as politically exposed or sanctioned (a sanctions hit
// freezes the player: 403 PLAYER_NOT_ACTIVE, status `bloqueado`). The entry applies to that
// operator's sandbox players only. The answers say what was put on the list, never what the
// screening found, a risk level or a case (no tipping off: docs/aml.md).
import { Type, type Static } from '@sinclair/typebox';
import { SCREENING_LISTS } from './aml.ts';
import { Timestamp } from './common.ts';
import { defineOperations } from './operations.ts';

const ScreeningListSchema = Type.Union(SCREENING_LISTS.map((l) => Type.Literal(l)));

export const SandboxScreeningEntrySchema = Type.Object(
  {
    list: ScreeningListSchema,
    cpf: Type.String({ format: 'cpf', description: 'Valid CPF, with or without punctuation' }),
    /** Shown to our team only; defaults to "Sandbox entry". */
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    /** pep: the office held; sanctions: the list and its reference. Shown to our team only. */
    detail: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  { additionalProperties: false, $id: 'SandboxScreeningEntry' },
);
export type SandboxScreeningEntry = Static<typeof SandboxScreeningEntrySchema>;

export const SandboxScreeningEntryResultSchema = Type.Object(
  { id: Type.String(), list: ScreeningListSchema, cpf: Type.String({ pattern: '^[0-9]{11}$' }), createdAt: Timestamp },
  { additionalProperties: false, $id: 'SandboxScreeningEntryResult' },
);

export const screeningSandboxOperations = defineOperations({
  sandboxAddScreeningEntry: {
    id: 'sandboxAddScreeningEntry',
    method: 'POST',
    path: '/sandbox/screening-entries',
    subject: 'compliance.sandbox.screening.add',
    tag: 'Sandbox',
    summary:
      "Put a CPF on the simulated PEP or sanctions list of the key's operator's sandbox; its sandbox players with that CPF are screened again before this answers",
    body: SandboxScreeningEntrySchema,
    response: SandboxScreeningEntryResultSchema,
    status: 201,
    sandboxOnly: true,
  },
  sandboxRemoveScreeningEntry: {
    id: 'sandboxRemoveScreeningEntry',
    method: 'DELETE',
    path: '/sandbox/screening-entries/:id',
    subject: 'compliance.sandbox.screening.remove',
    tag: 'Sandbox',
    summary: "Take an entry off the key's operator's simulated lists (a removal never lifts a freeze: that is our team's decision)",
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
    response: Type.Object({ id: Type.String(), removed: Type.Boolean() }, { additionalProperties: false }),
    status: 200,
    sandboxOnly: true,
  },
});
