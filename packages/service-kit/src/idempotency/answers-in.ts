// The effect-kept functions bound to one service's schema, made once by the kit: a service writes
// `const answers = answersIn('<schema>')` in one place instead of re-wrapping each function.
import type { HandlerResult } from '../handler-result.ts';
import type { Sql, SqlRunner } from '../sql.ts';
import { findStored, runOnce, sqlTransactor, storeResponse, type RunOnceOptions } from './effect-kept.ts';
import { recordIntent, type IntentRow, type IntentStep } from './intents.ts';
import type { RequestKey } from './keys.ts';

/** A service's stored answers in its schema (the effect way, on the kit's plain SQL). */
export interface SchemaAnswers {
  readonly schema: string;
  /** findStored in the schema. */
  findStored(sql: SqlRunner, ref: RequestKey | undefined, operation: string): Promise<HandlerResult | undefined>;
  /** storeResponse in the schema. */
  storeResponse(tx: SqlRunner, ref: RequestKey | undefined, operation: string, status: number, body: unknown): Promise<void>;
  /** runOnce in the schema, on plain SQL (sqlTransactor). */
  runOnce(
    sql: Sql,
    ref: RequestKey | undefined,
    operation: string,
    effect: (tx: SqlRunner) => Promise<HandlerResult>,
    opts?: RunOnceOptions,
  ): Promise<HandlerResult>;
  /** recordIntent in the schema (intents.ts). */
  recordIntent(tx: SqlRunner, ref: RequestKey | undefined, operation: string, row: IntentRow, step: IntentStep): Promise<HandlerResult | undefined>;
}

export function answersIn(schema: string): SchemaAnswers {
  return {
    schema,
    findStored: (sql, ref, operation) => findStored(sql, schema, ref, operation),
    storeResponse: (tx, ref, operation, status, body) => storeResponse(tx, schema, ref, operation, status, body),
    runOnce: (sql, ref, operation, effect, opts) => runOnce(sqlTransactor(sql), schema, ref, operation, effect, opts),
    recordIntent: (tx, ref, operation, row, step) => recordIntent(tx, schema, ref, operation, row, step),
  };
}
