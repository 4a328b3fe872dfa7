// Fastify validator compiler for the contract's TypeBox schemas (contracts' validation.ts, the one
// the services check their messages with too), plus the edge's own rules for path and query
// values: the text rules, and a query's percent-encoding (bodies were checked by parseJsonObject).
import type { TSchema } from '@sinclair/typebox';
import type { FastifySchemaCompiler } from 'fastify';
import { compilePart, validationError, type MessagePart } from '@bo/contracts';
import { badTextIssues } from '@bo/http-kit';
import { malformedQueryIssues } from './query-string.ts';

const PART: Record<string, MessagePart> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

export const typeboxValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const part = PART[httpPart ?? 'body'] ?? 'body';
  const validate = compilePart(schema, part);
  return (input: unknown) => {
    const malformed = part === 'query' ? malformedQueryIssues(input) : [];
    if (malformed.length) return { error: validationError(part, malformed) };
    const badText = part === 'body' ? [] : badTextIssues(input);
    if (badText.length) return { error: validationError(part, badText) };
    return validate(input);
  };
};
