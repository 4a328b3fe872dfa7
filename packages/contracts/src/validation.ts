// Checking a message part against its contract schema: one implementation for the gateway (every
// HTTP route) and the services (every NATS message, internal ones included, before its handler
// runs). Every failing field is reported (one issue per JSON pointer), with readable messages for
// the custom formats. Bodies are checked as they are (no type coercion: "amount": 10 is a 422);
// path and query values are strings on the wire and are converted first, an integer field taking
// integer literals only (TypeBox alone would turn "1.5" into 1).
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import type { Static, TSchema } from '@sinclair/typebox';
import { validationError, type ValidationIssue } from './errors.ts';
import { MAX_AMOUNT, MAX_WIN_AMOUNT } from './formats.ts';

export type MessagePart = 'body' | 'query' | 'path' | 'header';

function issueMessage(e: { message: string; schema: TSchema; type?: ValueErrorType }): string {
  const s = e.schema as { format?: string };
  if (s.format === 'cpf') return 'Must be a valid CPF (11 digits with valid check digits, optionally punctuated as 000.000.000-00).';
  if (s.format === 'adult-birth-date') return 'Must be a real date in YYYY-MM-DD format, at least 18 years ago.';
  // A field that may not be sent (a PATCH's CPF): its description says why.
  const never = (e.schema as { description?: string }).description;
  if (e.type === ValueErrorType.Never && never) return `Must not be sent: ${never}.`;
  if (s.format === 'calendar-date') return 'Must be a real date in YYYY-MM-DD format.';
  if (s.format === 'email') return 'Must be a valid e-mail address.';
  if (s.format === 'date-time') return 'Must be an ISO 8601 UTC date-time.';
  if (s.format === 'amount-up-to-max') return `Must be a decimal string with at most 2 decimals, from 0 up to ${MAX_AMOUNT} (e.g. 1000.00).`;
  if (s.format === 'stake-amount') return `Must be a decimal string with at most 2 decimals, from 0.01 up to ${MAX_AMOUNT} (e.g. 10.00).`;
  if (s.format === 'win-amount') return `Must be a decimal string with at most 2 decimals, from 0 up to ${MAX_WIN_AMOUNT} (e.g. 25.50).`;
  if (s.format === 'prize-amount') return `Must be a decimal string with at most 2 decimals, from 0.01 up to ${MAX_WIN_AMOUNT} (e.g. 1000.00).`;
  if (s.format === 'signed-win-amount')
    return `Must be a signed decimal string with at most 2 decimals, not zero, from -${MAX_WIN_AMOUNT} up to ${MAX_WIN_AMOUNT} (e.g. -15.00 or 15.00).`;
  return e.message;
}

/** A value of another type altogether (not a bound or a format of the right type). */
const TYPE_ERRORS = new Set<ValueErrorType>([
  ValueErrorType.Array,
  ValueErrorType.Boolean,
  ValueErrorType.Integer,
  ValueErrorType.Literal,
  ValueErrorType.Null,
  ValueErrorType.Number,
  ValueErrorType.Object,
  ValueErrorType.String,
  ValueErrorType.Undefined,
]);

/**
 * A union's failure told by the branch the value was meant for: the one with the fewest failing
 * fields, a branch whose very type differs (a type error at the union's own path, e.g. `null` of a
 * nullable field's string) counting last. `{"months":13}` then reads "/months: … less or equal to 12", not
 * "Expected union value" on the whole body. No single closest branch: the union's description.
 */
function unionIssues(e: ValueError): ValueError[] {
  const branches = (e.errors ?? []).map((it) => {
    const errors = [...it];
    const otherType = errors.some((x) => x.path === e.path && TYPE_ERRORS.has(x.type));
    return { errors, score: otherType ? Number.POSITIVE_INFINITY : errors.length };
  });
  const best = Math.min(...branches.map((b) => b.score));
  const closest = branches.filter((b) => b.score === best);
  if (closest.length === 1 && best !== Number.POSITIVE_INFINITY)
    return closest[0]!.errors.flatMap((x) => (x.type === ValueErrorType.Union ? unionIssues(x) : [x]));
  const described = (e.schema as { description?: string }).description;
  return [{ ...e, message: described ? `Must be ${described}.` : e.message }];
}

/** Every failing field of `value`, one issue per JSON pointer (a union: its closest branch's, unionIssues). */
export function collectIssues(check: TypeCheck<TSchema>, value: unknown): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const top of check.Errors(value)) {
    for (const e of top.type === ValueErrorType.Union ? unionIssues(top) : [top]) {
      if (seen.has(e.path)) continue;
      seen.add(e.path);
      issues.push({ path: e.path || '/', message: issueMessage(e) });
    }
  }
  return issues;
}

const STRICT_INTEGER = /^-?[0-9]+$/;

/** Path and query values as the schema types them; an integer field keeps a non-integer string (and fails). */
function convertWireStrings(schema: TSchema, input: unknown): unknown {
  const props = (schema as { properties?: Record<string, TSchema> }).properties;
  // Taken before Value.Convert, which may convert the input in place.
  const notIntegers =
    props && input !== null && typeof input === 'object'
      ? Object.entries(props)
          .filter(
            ([key, prop]) =>
              (prop as { type?: string }).type === 'integer' &&
              typeof (input as Record<string, unknown>)[key] === 'string' &&
              !STRICT_INTEGER.test((input as Record<string, string>)[key] ?? ''),
          )
          .map(([key]) => [key, (input as Record<string, unknown>)[key]] as const)
      : [];
  const converted = Value.Convert(schema, input);
  if (notIntegers.length && converted !== null && typeof converted === 'object') {
    for (const [key, raw] of notIntegers) (converted as Record<string, unknown>)[key] = raw;
  }
  return converted;
}

export type PartValidator<T extends TSchema> = (input: unknown) => { value: Static<T> } | { error: ReturnType<typeof validationError> };

/** A validator of one part, compiled once. Path and query: wire strings converted, defaults applied. */
export function compilePart<T extends TSchema>(schema: T, part: MessagePart): PartValidator<T> {
  const check = TypeCompiler.Compile(schema);
  const wire = part === 'path' || part === 'query';
  return (input) => {
    const value = wire ? convertWireStrings(schema, input ?? {}) : (input ?? {});
    if (check.Check(value)) return { value: (wire ? Value.Default(schema, value) : value) as Static<T> };
    return { error: validationError(part, collectIssues(check, value)) };
  };
}
