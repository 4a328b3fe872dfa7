// The per-endpoint in-flight limit (WEBHOOK_ENDPOINT_CONCURRENCY, across replicas) as rows: every
// endpoint (operator + environment) has MAX_ENDPOINT_CONCURRENCY slot rows, created with it by a
// trigger. An attempt in flight holds one slot, numbered at most the limit, carrying the
// delivery's lease token and lease end; a slot is free when it holds no lease or its lease has
// lapsed (a crashed worker's slot frees itself, like its delivery's lease).
//
// Why slots and not a count: a statement that counts leased deliveries sees its snapshot, taken
// before it waited for any lock, so two intakes racing for the last slot would both count 15 and
// both lease. Taking a slot is `select … for update skip locked` on the slot row itself: Postgres
// re-checks "free" on the newest version of a row it locks, so a slot is never held twice, and
// concurrent intakes take different slots instead of queueing on one counter row. A counter
// (leases per endpoint) would be as exact, but every intake and record of a busy endpoint would
// wait for the one row lock through the previous commit, and a crashed worker's increment would
// never come back by itself.

/** The slot `s` is free: no lease, or a lapsed one. */
export const SLOT_IS_FREE = '(s.lease_token is null or s.lease_until <= now())';

/** `now()` plus a lease of `?` milliseconds: the same expression for a delivery's lease and its slot's. */
export const LEASE_END = `now() + (?::double precision * interval '1 millisecond')`;
