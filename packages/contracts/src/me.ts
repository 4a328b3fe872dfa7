import { Type, type Static } from '@sinclair/typebox';
import { EnvironmentSchema } from './common.ts';
import { defineOperations } from './operations.ts';

export const MeSchema = Type.Object(
  {
    operator: Type.Object({ id: Type.String(), name: Type.String(), environment: EnvironmentSchema }, { additionalProperties: false }),
    brand: Type.Object({ id: Type.String(), name: Type.String(), currency: Type.String(), isSandbox: Type.Boolean() }, { additionalProperties: false }),
    apiVersion: Type.String(),
  },
  { additionalProperties: false, $id: 'Me' },
);
export type Me = Static<typeof MeSchema>;

/** Served by the gateway itself (no subject). */
export const meOperations = defineOperations({
  getMe: { id: 'getMe', method: 'GET', path: '/me', summary: 'Identity of the calling credential', tag: 'Identity', response: MeSchema, status: 200 },
});
