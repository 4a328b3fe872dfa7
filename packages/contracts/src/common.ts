import { Type, type TSchema } from '@sinclair/typebox';
import { AMOUNT_PATTERN } from './formats.ts';

export const ENVIRONMENTS = ['sandbox', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
export const EnvironmentSchema = Type.Union([Type.Literal('sandbox'), Type.Literal('production')]);

export const API_VERSION = '1.4.0';

/** Amount in a request: positive, at most 2 decimals, at most 1000000.00 (the bounds checked in domain code). */
export const MoneyInput = Type.String({
  pattern: AMOUNT_PATTERN,
  maxLength: 16,
  description: 'Positive decimal string with at most 2 decimals, up to 1000000.00',
  examples: ['100.00'],
});
/**
 * An amount our team sets as a bound (a four-eyes threshold, a daily deposit limit): written as
 * MoneyInput is and at most 1000000.00, both checked by the schema; 0 is allowed, and each field
 * says what it means.
 */
export const MoneyBoundInput = Type.String({
  format: 'amount-up-to-max',
  description: 'Decimal string with at most 2 decimals, from 0 up to 1000000.00',
  examples: ['1000.00'],
});
/** Amount in a response: exactly 2 decimals, may be negative for debits. */
export const Money = Type.String({ pattern: '^-?[0-9]+\\.[0-9]{2}$', examples: ['100.00'] });
/** The brand currency the admin API sets when none is given (our operators are Brazilian). */
export const DEFAULT_CURRENCY = 'BRL';
export const Currency = Type.String({ pattern: '^[A-Z]{3}$', examples: [DEFAULT_CURRENCY] });
export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-21T10:00:00.000Z'] });
export const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);

export const idOf = (prefix: string) => Type.String({ minLength: 1, maxLength: 64, description: `Opaque identifier (${prefix}_...)` });

export const EmptyObject = Type.Object({}, { description: 'JSON object (may be empty)' });

export const ValidationIssueSchema = Type.Object({ path: Type.String(), message: Type.String() });
export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      requestId: Type.String(),
      details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
  },
  { $id: 'ErrorEnvelope' },
);

export const Page = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item), nextCursor: Nullable(Type.String()) });
/** The query properties of a cursor list (spread after its filters): a page size up to `maxLimit`, and the previous page's `nextCursor`. */
export const pageQuery = (maxLimit: number) => ({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: maxLimit })),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});
export const List = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item) });
