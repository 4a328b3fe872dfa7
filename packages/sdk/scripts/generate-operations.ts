// Writes src/operations.generated.ts from @bo/contracts: the operation table (method, path,
// idempotent, ...), TypeScript types for every body, query, path and response schema, the error
// catalogue's codes and the event types. The SDK ships this file and never imports the contracts
// at run time; test/generated.test.ts fails when the file is stale.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  API_VERSION,
  BR_SPA_METHODS,
  DEFAULT_CURRENCY,
  DEPOSIT_STATUSES,
  DOCUMENT_TYPES,
  ERROR_CATALOGUE,
  EVENT_TYPES,
  KYC_STATUSES,
  PLAYER_STATUSES,
  WITHDRAWAL_DECISIONS,
  WITHDRAWAL_STATUSES,
  openApiPath,
  publicOperations,
  type Operation,
} from '@bo/contracts';

export const GENERATED_PATH = fileURLToPath(new URL('../src/operations.generated.ts', import.meta.url));

type Schema = Record<string, unknown>;

/**
 * Request fields the SDK types narrower than the wire format (any label, any 3-letter code), so a
 * typo or a method br-spa refuses fails to compile instead of answering 422: the payment methods
 * are the contract's br-spa ones, the currency the brand currency the API sets (BRL).
 */
const REQUEST_FIELD_TYPES: Record<string, Record<string, string>> = {
  CreateDeposit: { method: 'PaymentMethod', currency: 'CurrencyCode' },
  CreateWithdrawal: { method: 'PaymentMethod', currency: 'CurrencyCode' },
};

const isIdentifier = (name: string) => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);
const literalUnion = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(' | ');

/** Turns the JSON Schema that TypeBox builds into a TypeScript type; `$id` schemas become named types. */
class TypeWriter {
  readonly named = new Map<string, { schema: Schema; text: string }>();
  #fieldTypes: Record<string, string> = {};

  typeOf(schema: Schema, root = false): string {
    const id = schema.$id;
    if (typeof id === 'string' && !root) {
      this.declare(id, schema);
      return id;
    }
    if ('const' in schema) return JSON.stringify(schema.const);
    if (Array.isArray(schema.anyOf)) return (schema.anyOf as Schema[]).map((s) => this.member(s)).join(' | ');
    if (Array.isArray(schema.allOf)) return (schema.allOf as Schema[]).map((s) => this.member(s)).join(' & ');
    switch (schema.type) {
      case 'string':
        return 'string';
      case 'integer':
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'array': {
        const item = this.typeOf(schema.items as Schema);
        return /[|&]/.test(item) && !item.startsWith('{') ? `Array<${item}>` : `${item}[]`;
      }
      case 'object':
        return this.objectType(schema);
      default:
        return 'unknown';
    }
  }

  /** A named declaration for a `$id` schema, written once. */
  declare(id: string, schema: Schema): void {
    const existing = this.named.get(id);
    if (existing) {
      if (JSON.stringify(existing.schema) !== JSON.stringify(schema)) throw new Error(`two different schemas share $id ${id}`);
      return;
    }
    this.named.set(id, { schema, text: '' });
    const outer = this.#fieldTypes;
    this.#fieldTypes = REQUEST_FIELD_TYPES[id] ?? {};
    const body = this.typeOf(schema, true);
    this.#fieldTypes = outer;
    const doc = typeof schema.description === 'string' ? `/** ${schema.description} */\n` : '';
    this.named.set(id, { schema, text: body.startsWith('{') ? `${doc}export interface ${id} ${body}` : `${doc}export type ${id} = ${body};` });
  }

  private member(schema: Schema): string {
    const t = this.typeOf(schema);
    return t.includes(' ') && !t.startsWith('{') ? `(${t})` : t;
  }

  private objectType(schema: Schema): string {
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const names = Object.keys(props);
    if (names.length === 0) return 'Record<string, unknown>';
    const lines = names.map((name) => {
      const p = props[name];
      const key = isIdentifier(name) ? name : JSON.stringify(name);
      const type = this.#fieldTypes[name] ?? this.typeOf(p!);
      return `${this.docOf(p!)}  ${key}${required.has(name) ? '' : '?'}: ${type.replace(/\n/g, '\n  ')};`;
    });
    return `{\n${lines.join('\n')}\n}`;
  }

  /** Constraints the type cannot express, kept as a doc comment so editors show them. */
  private docOf(s: Schema): string {
    const notes: string[] = [];
    if (typeof s.description === 'string') notes.push(s.description);
    if (typeof s.format === 'string') notes.push(`format: ${s.format}`);
    if (typeof s.pattern === 'string') notes.push(`pattern: \`${s.pattern}\``);
    if (typeof s.minLength === 'number') notes.push(`length ${s.minLength} to ${s.maxLength ?? '∞'}`);
    else if (typeof s.maxLength === 'number') notes.push(`at most ${s.maxLength} characters`);
    if (typeof s.minimum === 'number' || typeof s.maximum === 'number') notes.push(`from ${s.minimum ?? '-∞'} to ${s.maximum ?? '∞'}`);
    if (s.default !== undefined) notes.push(`default ${JSON.stringify(s.default)}`);
    return notes.length ? `  /** ${notes.join('; ').replace(/\*\//g, '*\\/')} */\n` : '';
  }
}

/** The whole generated file as text (deterministic: same contracts, same bytes). */
export function renderOperationsFile(operations: Record<string, Operation> = publicOperations): string {
  const w = new TypeWriter();
  const table: string[] = [];
  const types: string[] = [];
  for (const op of Object.values(operations)) {
    const pathParams = [...op.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
    const params = op.params ? w.typeOf(op.params as Schema) : 'undefined';
    // A download answers the file itself, streamed whole: its chunks and their cursor stay between the
    // gateway and the service, never in the caller's types.
    const query = op.download ? 'undefined' : op.query ? w.typeOf(op.query as Schema) : 'undefined';
    const body = op.body ? w.typeOf(op.body as Schema) : 'undefined';
    const response = op.download ? 'unknown' : w.typeOf(op.response as Schema);
    table.push(
      `  ${op.id}: { id: '${op.id}', method: '${op.method}', path: '${openApiPath(op.path)}', pathParams: [${pathParams.map((p) => `'${p}'`).join(', ')}], ` +
        `idempotent: ${op.idempotent === true}, sandboxOnly: ${op.sandboxOnly === true}, hasBody: ${op.body !== undefined}, status: ${op.status}, summary: ${JSON.stringify(op.summary)} },`,
    );
    types.push(
      `  /** ${op.method} ${openApiPath(op.path)}: ${op.summary} */\n  ${op.id}: {\n    params: ${indent(params)};\n    query: ${indent(query)};\n    body: ${indent(body)};\n    response: ${indent(response)};\n  };`,
    );
  }
  const errorLines = Object.entries(ERROR_CATALOGUE).map(([code, e]) => `  ${code}: ${e.status},`);
  return [
    '// Generated by scripts/generate-operations.ts from @bo/contracts: do not edit.',
    '// Regenerate with `npm run generate -w @bo/sdk`; test/generated.test.ts fails when this file is stale.',
    '/* eslint-disable */',
    '',
    `/** The API version these types were generated from. */`,
    `export const API_VERSION = '${API_VERSION}';`,
    '',
    `export type PlayerStatus = ${literalUnion(PLAYER_STATUSES)};`,
    `export type KycStatus = ${literalUnion(KYC_STATUSES)};`,
    `export type DocumentType = ${literalUnion(DOCUMENT_TYPES)};`,
    `export type DepositStatus = ${literalUnion(DEPOSIT_STATUSES)};`,
    `export type WithdrawalStatus = ${literalUnion(WITHDRAWAL_STATUSES)};`,
    `export type WithdrawalDecisionValue = ${literalUnion(WITHDRAWAL_DECISIONS)};`,
    "/** A deposit's or withdrawal's method: the ones the br-spa profile allows (the API under `off` takes any label: cast). */",
    `export type PaymentMethod = ${literalUnion(BR_SPA_METHODS)};`,
    "/** A deposit's or withdrawal's currency: the player's, the brand's (BRL unless our team set another: cast). */",
    `export type CurrencyCode = ${literalUnion([DEFAULT_CURRENCY])};`,
    `export const EVENT_TYPES = [${EVENT_TYPES.map((e) => `'${e}'`).join(', ')}] as const;`,
    'export type EventType = (typeof EVENT_TYPES)[number];',
    '',
    "/** Every error code of the contract's catalogue with its HTTP status. */",
    'export const ERROR_STATUSES = {',
    ...errorLines,
    '} as const;',
    'export type ErrorCode = keyof typeof ERROR_STATUSES;',
    '',
    ...[...w.named.keys()].sort().map((id) => `${w.named.get(id)!.text}\n`),
    '/** Every public operation: method, path template, path parameters, whether it takes an Idempotency-Key. */',
    'export const OPERATIONS = {',
    ...table,
    '} as const;',
    'export type OperationId = keyof typeof OPERATIONS;',
    '',
    '/** Path parameters, query, body and success response of every operation. */',
    'export interface OperationTypes {',
    ...types,
    '}',
    '',
  ].join('\n');
}

function indent(type: string): string {
  return type.replace(/\n/g, '\n    ');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(GENERATED_PATH, renderOperationsFile());
  console.log(`wrote ${path.relative(process.cwd(), GENERATED_PATH)}`);
}
