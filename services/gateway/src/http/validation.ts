// Fastify validator compiler backed by TypeBox: every failing field is reported (not just the
// first), as JSON pointers into the part named by `details.in`. Body: no type coercion (the
// contract's "amount": 10 is a 422); query and path values are strings on the wire, so they are
// converted first.
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import type { FastifySchemaCompiler } from 'fastify';
import { validationError, type ValidationIssue } from '@bo/contracts';
import { badTextIssues } from './text-rules.ts';

type Part = 'body' | 'query' | 'path' | 'header';
const PART: Record<string, Part> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

function issueMessage(e: { message: string; schema: TSchema; value: unknown }): string {
  const s = e.schema as { format?: string; description?: string };
  if (s.format === 'cpf') return 'Must be a valid CPF (11 digits with valid check digits, optionally punctuated as 000.000.000-00).';
  if (s.format === 'adult-birth-date') return 'Must be a real date in YYYY-MM-DD format, at least 18 years ago.';
  if (s.format === 'calendar-date') return 'Must be a real date in YYYY-MM-DD format.';
  if (s.format === 'email') return 'Must be a valid e-mail address.';
  if (s.format === 'date-time') return 'Must be an ISO 8601 UTC date-time.';
  return e.message;
}

export function collectIssues(check: TypeCheck<TSchema>, value: unknown): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const e of check.Errors(value)) {
    // A union reports each branch; one issue per path is enough for a caller.
    if (seen.has(e.path)) continue;
    seen.add(e.path);
    issues.push({ path: e.path || '/', message: issueMessage(e) });
  }
  return issues;
}

const STRICT_INTEGER = /^-?[0-9]+$/;

/**
 * Query and path values are strings: convert them as the schema says, except that an integer
 * field takes only an integer literal (TypeBox alone would turn "1.5" into 1).
 */
function convertWireStrings(schema: TSchema, input: unknown): unknown {
  const props = (schema as { properties?: Record<string, TSchema> }).properties;
  // Taken before Value.Convert, which may convert the input in place.
  const notIntegers = props && input !== null && typeof input === 'object'
    ? Object.entries(props).filter(([key, prop]) => (prop as { type?: string }).type === 'integer'
        && typeof (input as Record<string, unknown>)[key] === 'string' && !STRICT_INTEGER.test((input as Record<string, string>)[key]))
      .map(([key]) => [key, (input as Record<string, unknown>)[key]] as const)
    : [];
  const converted = Value.Convert(schema, input);
  if (notIntegers.length && converted !== null && typeof converted === 'object') {
    for (const [key, raw] of notIntegers) (converted as Record<string, unknown>)[key] = raw;
  }
  return converted;
}

export const typeboxValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = TypeCompiler.Compile(schema);
  const part = PART[httpPart ?? 'body'] ?? 'body';
  const convert = part !== 'body';
  return (input: unknown) => {
    // Bodies were checked by parseJsonObject; path and query values are checked here.
    const badText = convert ? badTextIssues(input) : [];
    if (badText.length) return { error: validationError(part, badText) };
    const value = convert ? convertWireStrings(schema, input) : input;
    if (check.Check(value)) return { value: convert ? Value.Default(schema, value) : value };
    return { error: validationError(part, collectIssues(check, value)) };
  };
};
