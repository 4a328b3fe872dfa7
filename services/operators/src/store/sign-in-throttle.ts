// The console sign-in's back-off: after a few failed sign-ins for one account (the e-mail as typed,
// so an unknown one behaves like a known one) or from one address, each further failure blocks that
// key for twice as long as the last, up to a ceiling. The counts live in the database
// (operators.sign_in_throttle), so every replica of the service refuses the same attempts; a
// success clears its account's count (not its address's: one good account must not let an address
// keep guessing others), and a count is forgotten after a quiet spell. Times come from the
// service's clock, which tests move.
import type { SqlRunner } from '@bo/service-kit';
import type { ThrottleKeys, ThrottlePolicy } from '../domain/sign-in-throttle.ts';

export class SignInThrottle {
  readonly #policy: ThrottlePolicy;
  readonly #now: () => number;
  constructor(policy: ThrottlePolicy, now: () => number) {
    this.#policy = policy;
    this.#now = now;
  }

  /** Seconds until a sign-in may be tried for these keys, or undefined when none is blocked. */
  async blockedFor(sql: SqlRunner, keys: ThrottleKeys): Promise<number | undefined> {
    const now = new Date(this.#now());
    const [row] = await sql.query<{ until: Date | string | null }>(
      `select max(blocked_until) as until from operators.sign_in_throttle where key in (?, ?) and blocked_until > ?`,
      [keys.account, keys.address, now],
    );
    return row?.until ? Math.max(1, Math.ceil((new Date(row.until).getTime() - now.getTime()) / 1000)) : undefined;
  }

  /** Counts a failure for both keys (atomically per key: concurrent failures all count). */
  async fail(sql: SqlRunner, keys: ThrottleKeys): Promise<void> {
    const p = this.#policy;
    const now = new Date(this.#now());
    const forgetBefore = new Date(now.getTime() - p.forgetAfterMinutes * 60_000);
    for (const [key, free] of [
      [keys.account, p.accountFreeFailures],
      [keys.address, p.addressFreeFailures],
    ] as const) {
      // n: this failure's count (1 again after a quiet spell); blocked for base·2^(n-free-1) s past `free`.
      const n = `case when t.last_failure_at < $3 then 1 else t.failures + 1 end`;
      const until = (count: string) =>
        `case when ${count} > $4 then $2::timestamptz + make_interval(secs => least($5::float8, $6::float8 * power(2, ${count} - $4 - 1))) else null end`;
      await sql.query(
        `insert into operators.sign_in_throttle as t (key, failures, last_failure_at, blocked_until) values ($1, 1, $2, ${until('1')})
         on conflict (key) do update set failures = ${n}, last_failure_at = excluded.last_failure_at, blocked_until = ${until(n)}`,
        [key, now, forgetBefore, free, p.maxSeconds, p.baseSeconds],
      );
    }
  }

  async clearAccount(sql: SqlRunner, keys: ThrottleKeys): Promise<void> {
    await sql.query(`delete from operators.sign_in_throttle where key = ?`, [keys.account]);
  }

  /** Drops counts nobody will read again (quiet for longer than forgetAfterMinutes, not blocked). */
  async deleteForgotten(sql: SqlRunner): Promise<void> {
    const now = this.#now();
    await sql.query(`delete from operators.sign_in_throttle where last_failure_at < ? and (blocked_until is null or blocked_until < ?)`, [
      new Date(now - this.#policy.forgetAfterMinutes * 60_000),
      new Date(now),
    ]);
  }
}
