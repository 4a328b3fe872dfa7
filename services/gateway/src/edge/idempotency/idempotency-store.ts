// HTTP idempotency (docs/decisions.md): a Postgres row per (operator, environment, key) holding the
// request fingerprint and, once done, the stored response. It answers replays, conflicts and
// in-progress without touching a service. 2xx and 4xx are stored; a 5xx deletes the row so the
// same key may be retried (the owning service dedupes money effects itself).
import { createHash } from 'node:crypto';
import { openSecret, sealSecret, type Sql } from '@bo/service-kit';

export const IDEMPOTENCY_KEY_FORMAT = /^[A-Za-z0-9_\-:.]{8,128}$/;

export interface IdemScope {
  operatorId: string;
  environment: string;
  key: string;
}

/** A key this request holds: its scope, the request's fingerprint and, when a service keeps the key's records, which. */
export interface ClaimedKey extends IdemScope {
  fingerprint: string;
  keptBy?: string;
}
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type ClaimResult = { kind: 'claimed' } | { kind: 'replay'; response: StoredResponse } | { kind: 'conflict' } | { kind: 'in_progress' };

export function fingerprint(method: string, rawPath: string, body: Buffer | undefined): string {
  const h = createHash('sha256');
  h.update(`${method.toUpperCase()}\n${rawPath}\n`);
  if (body) h.update(body);
  return h.digest('hex');
}

const HOLD_MAX_MS = 60_000;
const heldKey = (scope: IdemScope) => `${scope.operatorId}\n${scope.environment}\n${scope.key}`;

export class IdempotencyStore {
  readonly #sql: Sql;
  readonly #ttlSeconds: number;
  /**
   * An in_progress claim is a lease of this many seconds, renewed while its request runs; one
   * not renewed (its gateway died mid-request) is taken over by a retry once it lapses. Safe:
   * the retry reaches the owning service with the same key, and the service dedupes.
   */
  readonly #leaseSeconds: number;
  /**
   * Keys of operations whose service keeps the records, held while their request runs on this
   * replica (key → since when). A hold older than HOLD_MAX_MS is taken over, so a request that
   * never reached onSend/onResponse (its client went away) cannot block its key for good; a copy
   * that then runs is safe, the service dedupes.
   */
  readonly #heldLocally = new Map<string, number>();
  /** Seals stored answers at rest: the admin API's carry secrets shown once (new keys, passwords, tokens). */
  readonly #sealWith: string | undefined;
  constructor(sql: Sql, ttlSeconds: number, leaseSeconds: number, opts: { sealAnswersWith?: string } = {}) {
    this.#sql = sql;
    this.#ttlSeconds = ttlSeconds;
    this.#leaseSeconds = leaseSeconds;
    this.#sealWith = opts.sealAnswersWith;
  }

  /** A stored answer as sent; one stored before sealing was turned on is plain JSON, never `v1.`. */
  #openBody(body: string): string {
    return this.#sealWith && body.startsWith('v1.') ? openSecret(body, this.#sealWith) : body;
  }

  get leaseSeconds(): number {
    return this.#leaseSeconds;
  }

  /** Holds the key in this replica's memory; false when a request with it is running here already. */
  holdLocally(scope: IdemScope): boolean {
    const k = heldKey(scope);
    const since = this.#heldLocally.get(k);
    const now = Date.now();
    if (since !== undefined && now - since < HOLD_MAX_MS) return false;
    this.#heldLocally.set(k, now);
    return true;
  }

  releaseLocally(scope: IdemScope): void {
    this.#heldLocally.delete(heldKey(scope));
  }

  /** Renews the claim's lease every third of it until the returned stop is called. */
  keepAlive(scope: IdemScope, onError: (err: unknown) => void): () => void {
    const timer = setInterval(
      () => {
        this.#sql
          .query(
            `update gateway.idempotency_keys set locked_until = now() + make_interval(secs => ?)
          where operator_id = ? and environment = ? and idempotency_key = ? and state = 'in_progress'`,
            [this.#leaseSeconds, scope.operatorId, scope.environment, scope.key],
          )
          .catch(onError);
      },
      Math.max(200, (this.#leaseSeconds * 1000) / 3),
    );
    timer.unref();
    return () => clearInterval(timer);
  }

  async claim(scope: IdemScope, fp: string): Promise<ClaimResult> {
    // Expired rows behave as absent; a stale in_progress row is taken over by the same fingerprint.
    const rows = await this.#sql.query<{ inserted: boolean }>(
      `insert into gateway.idempotency_keys as k (operator_id, environment, idempotency_key, fingerprint, state, locked_until, expires_at)
       values (?, ?, ?, ?, 'in_progress', now() + make_interval(secs => ?), now() + make_interval(secs => ?))
       on conflict (operator_id, environment, idempotency_key) do update
         set fingerprint = excluded.fingerprint, state = 'in_progress', status = null, headers = null, body = null,
             locked_until = excluded.locked_until, created_at = now(), expires_at = excluded.expires_at
         where k.expires_at < now()
            or (k.state = 'in_progress' and k.locked_until < now() and k.fingerprint = excluded.fingerprint)
       returning (xmax = 0) as inserted`,
      [scope.operatorId, scope.environment, scope.key, fp, this.#leaseSeconds, this.#ttlSeconds],
    );
    if (rows.length > 0) return { kind: 'claimed' };
    const existing = await this.#sql.query<{
      fingerprint: string;
      state: string;
      status: number | null;
      headers: Record<string, string> | null;
      body: string | null;
    }>(
      `select fingerprint, state, status, headers, body from gateway.idempotency_keys
        where operator_id = ? and environment = ? and idempotency_key = ?`,
      [scope.operatorId, scope.environment, scope.key],
    );
    const row = existing[0];
    if (!row) return this.claim(scope, fp); // deleted (a 5xx released it) between our two statements
    if (row.fingerprint !== fp) return { kind: 'conflict' };
    if (row.state === 'in_progress') return { kind: 'in_progress' };
    return { kind: 'replay', response: { status: row.status ?? 200, headers: row.headers ?? {}, body: this.#openBody(row.body ?? '') } };
  }

  async complete(scope: IdemScope, response: StoredResponse): Promise<void> {
    await this.#sql.query(
      `update gateway.idempotency_keys set state = 'completed', status = ?, headers = ?, body = ?
        where operator_id = ? and environment = ? and idempotency_key = ? and state = 'in_progress'`,
      [
        response.status,
        JSON.stringify(response.headers),
        this.#sealWith ? sealSecret(response.body, this.#sealWith) : response.body,
        scope.operatorId,
        scope.environment,
        scope.key,
      ],
    );
  }

  async release(scope: IdemScope): Promise<void> {
    await this.#sql.query(`delete from gateway.idempotency_keys where operator_id = ? and environment = ? and idempotency_key = ? and state = 'in_progress'`, [
      scope.operatorId,
      scope.environment,
      scope.key,
    ]);
  }

  /** Removes keys past their 24 h memory; returns how many. */
  async deleteExpired(): Promise<number> {
    const rows = await this.#sql.query<{ n: string }>(
      `with d as (delete from gateway.idempotency_keys where expires_at < now() returning 1) select count(*) n from d`,
    );
    return Number(rows[0]?.n ?? 0);
  }
}
