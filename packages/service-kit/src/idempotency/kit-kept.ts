// The kit keeps the answer (the default, `AnswerStore.once`): the key is claimed by a row with a
// lease, the handler runs, and its answer (2xx or 4xx) is stored; a 5xx releases the key. Admin
// answers are sealed at rest when the service holds SECRETS_MASTER_KEY. And every operation's
// refusals, whichever way its answers are kept (`keepRefusal`).
import type { RequestContext } from '@bo/contracts';
import type { HandlerResult } from '../handler-result.ts';
import { sealSecret } from '../secrets.ts';
import type { Sql, SqlRunner } from '../sql.ts';
import { findStored } from './effect-kept.ts';
import { requestKeyOf, STORED_KEY_COLUMNS, storedKeyValues, type RequestKey } from './keys.ts';
import { answerOfRow, isStorableRefusal, SELECT_STORED, type StoredRow } from './replay.ts';

/**
 * A refusal (4xx) is the key's answer too (a validation error, a domain refusal, one the gateway
 * made itself): stored with the request's id, unless an answer is stored already, in which case
 * that one is the answer (replayed, or a conflict when the key was another request's). Returns or
 * throws the key's answer; anything but a first-time 4xx with a key is thrown as it is.
 */
export async function keepRefusal(sql: SqlRunner, schema: string, ctx: RequestContext, operation: string, err: unknown): Promise<HandlerResult> {
  const ref = requestKeyOf(ctx);
  if (!ref || !isStorableRefusal(err)) throw err;
  const rows = await sql.query<{ n: number }>(
    `with ins as (insert into "${schema}".processed_requests (${STORED_KEY_COLUMNS}, operation, status, body) values (?, ?, ?, ?, ?, ?, ?)
       on conflict (scope, idempotency_key) do nothing returning 1)
     select count(*)::int as n from ins`,
    [...storedKeyValues(ref), operation, err.status, JSON.stringify({ error: err.toBody() })],
  );
  if (rows[0]?.n === 1) throw err;
  const stored = await findStored(sql, schema, ref, operation);
  if (stored) return stored;
  throw err;
}

export interface AnswerStoreOptions {
  sql: Sql;
  schema: string;
  /** How long an answer is kept (IDEMPOTENCY_TTL_SECONDS): an older one is a new request, even before retention deletes it. */
  ttlSeconds: number;
  /** How long a running request holds its key without renewing (IDEMPOTENCY_LEASE_SECONDS). */
  leaseSeconds: number;
  /** The admin API's answers are sealed at rest with it (SECRETS_MASTER_KEY), when the service holds it. */
  sealAdminAnswersWith?: string;
  /** A stored answer that could not be written, or a lease not renewed: logged, the answer is still sent. */
  onError(err: unknown, what: string): void;
}

/**
 * The service's stored answers, kept by the kit around a handler that does not store its own
 * (`once`), and the refusals of every operation (`keepRefusal`).
 */
export class AnswerStore {
  readonly #o: AnswerStoreOptions;
  constructor(o: AnswerStoreOptions) {
    this.#o = o;
  }

  keepRefusal(ctx: RequestContext, operation: string, err: unknown): Promise<HandlerResult> {
    return keepRefusal(this.#o.sql, this.#o.schema, ctx, operation, err);
  }

  /**
   * Runs `run` once per key: the first request claims the key, runs, and stores its answer (2xx
   * and 4xx; a 5xx releases the key for a retry); a copy while it runs is IDEMPOTENCY_IN_PROGRESS,
   * a later one gets the stored answer replayed, another request with the key a conflict. If the
   * answer cannot be stored (the database gone) it is still sent, and the key lapses with its lease.
   */
  async once(ctx: RequestContext, operation: string, run: () => Promise<HandlerResult>): Promise<HandlerResult> {
    const ref = requestKeyOf(ctx);
    if (!ref) return run();
    const prior = await this.#claim(ref, operation);
    if (prior) return prior;
    const stopRenewing = this.#keepAlive(ref);
    let result: HandlerResult;
    try {
      result = await run();
    } catch (e) {
      stopRenewing();
      if (isStorableRefusal(e)) await this.#complete(ref, e.status, { error: e.toBody() });
      else await this.#release(ref);
      throw e;
    }
    stopRenewing();
    await this.#complete(ref, result.status ?? 200, result.body);
    return result;
  }

  /** Claims the key with a lease, or returns (throws) the answer it has. */
  async #claim(ref: RequestKey, operation: string): Promise<HandlerResult | undefined> {
    const { sql, schema, ttlSeconds, leaseSeconds } = this.#o;
    // An answer past its time counts as absent; a lapsed lease is taken over by the same request.
    const claimed = await sql.query(
      `insert into "${schema}".processed_requests as k (${STORED_KEY_COLUMNS}, operation, status, body, locked_until)
       values (?, ?, ?, ?, ?, null, null, now() + make_interval(secs => ?))
       on conflict (scope, idempotency_key) do update
         set fingerprint = excluded.fingerprint, request_id = excluded.request_id, operation = excluded.operation,
             status = null, body = null, locked_until = excluded.locked_until, created_at = now()
         where k.created_at < now() - make_interval(secs => ?)
            or (k.status is null and k.locked_until < now() and k.operation = excluded.operation
                and k.fingerprint is not distinct from excluded.fingerprint)
       returning 1`,
      [...storedKeyValues(ref), operation, leaseSeconds, ttlSeconds],
    );
    if (claimed.length > 0) return undefined;
    const row = (await sql.query<StoredRow>(SELECT_STORED(schema), [ref.scope, ref.key]))[0];
    if (!row) return this.#claim(ref, operation); // released (a 5xx) between the two statements
    return answerOfRow(row, ref, operation, this.#o.sealAdminAnswersWith);
  }

  #keepAlive(ref: RequestKey): () => void {
    const { sql, schema, leaseSeconds } = this.#o;
    const timer = setInterval(
      () => {
        sql
          .query(
            `update "${schema}".processed_requests set locked_until = now() + make_interval(secs => ?)
              where scope = ? and idempotency_key = ? and status is null`,
            [leaseSeconds, ref.scope, ref.key],
          )
          .catch((err: unknown) => this.#o.onError(err, 'idempotency lease renewal failed'));
      },
      Math.max(200, (leaseSeconds * 1000) / 3),
    );
    timer.unref();
    return () => clearInterval(timer);
  }

  async #complete(ref: RequestKey, status: number, body: unknown): Promise<void> {
    const seal = ref.scope === 'admin' ? this.#o.sealAdminAnswersWith : undefined;
    const text = JSON.stringify(body);
    try {
      await this.#o.sql.query(
        `update "${this.#o.schema}".processed_requests set status = ?, body = ?::json, locked_until = null
          where scope = ? and idempotency_key = ? and status is null`,
        [status, seal ? JSON.stringify(sealSecret(text, seal)) : text, ref.scope, ref.key],
      );
    } catch (err) {
      this.#o.onError(err, 'could not store the idempotent answer; the key is released when its lease lapses');
    }
  }

  async #release(ref: RequestKey): Promise<void> {
    await this.#o.sql
      .query(`delete from "${this.#o.schema}".processed_requests where scope = ? and idempotency_key = ? and status is null`, [ref.scope, ref.key])
      .catch((err: unknown) => this.#o.onError(err, 'could not release the idempotency key; it lapses with its lease'));
  }
}
