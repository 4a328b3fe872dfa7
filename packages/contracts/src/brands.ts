// Brands as our team picks them (issue #61): every operator has a production and a sandbox brand,
// owned by the operators service. The admin API lists them (the console's brand picker: by name,
// operator, environment); other services ask whether a brand exists (a regulator file is made
// only for a brand of ours, never for a name typed by hand).
import { Type, type Static } from '@sinclair/typebox';
import { EnvironmentSchema, List } from './common.ts';
import { defineMessages } from './messages.ts';
import { defineOperations } from './operations.ts';

export const BrandSchema = Type.Object(
  {
    id: Type.String(),
    operatorId: Type.String(),
    operatorName: Type.String(),
    /** The brand's own name (its operator's, as made with it). */
    name: Type.String(),
    environment: EnvironmentSchema,
    currency: Type.String(),
  },
  { $id: 'Brand' },
);
export type Brand = Static<typeof BrandSchema>;

export const brandAdminOperations = defineOperations({
  adminListBrands: {
    id: 'adminListBrands',
    subject: 'operators.admin.listBrands',
    method: 'GET',
    path: '/admin/brands',
    tag: 'Admin',
    summary: "Every operator's brands (a production and a sandbox one each), by operator name; narrowed by what the name contains, an operator, an environment",
    query: Type.Object({
      /** Part of the operator's or the brand's name, or a brand or operator id (any case). */
      q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      operatorId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      environment: Type.Optional(EnvironmentSchema),
    }),
    response: List(BrandSchema),
    status: 200,
  },
});

/** `operators.brands.get`: a brand as the operators service has it; null when there is no such brand. */
export const brandMessages = defineMessages({
  get: {
    subject: 'operators.brands.get',
    body: Type.Object({ brandId: Type.String({ minLength: 1, maxLength: 64 }) }),
    reply: Type.Object({ brand: Type.Union([BrandSchema, Type.Null()]) }),
  },
});
