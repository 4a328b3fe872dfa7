// The credential cache never puts back state from before a change: a load in flight when the
// operator is invalidated answers its own request but is not cached. A key's end is checked at every
// lookup: a cached key stops at its expiresAt without being read again.
import t from 'tap';
import { sealSecret } from '@bo/service-kit';
import type { CredentialRecord } from '@bo/contracts';
import { CredentialCache, type CredentialLoader } from '../src/edge/auth/credential-cache.ts';

const MASTER = 'credential-cache-test-master-key-0123456789';
const KEY = 'bk_test_AAAAAAAAAAAAAAAAAAAAAAAA';

/** The operators service's answers, as a function: the cache's one collaborator. */
function fakeOwner() {
  const state = { status: 'active' as 'active' | 'suspended', reads: 0, hold: undefined as Promise<void> | undefined, expiresAt: null as Date | null };
  const record = (): CredentialRecord => ({
    operatorId: 'op_1',
    operatorName: 'One',
    operatorStatus: state.status,
    environment: 'sandbox',
    brand: { id: 'br_1', name: 'One (sandbox)', currency: 'BRL' },
    rateLimitPerMinute: 600,
    allowedIps: [],
    secretSealed: sealSecret('s3cret', MASTER),
    expiresAt: state.expiresAt?.toISOString() ?? null,
  });
  const load: CredentialLoader = async () => {
    state.reads++;
    const snapshot = record(); // read before the hold: what a slow answer saw when it was made
    if (state.hold) await state.hold;
    return snapshot;
  };
  return { state, load };
}

t.test('an invalidation during a load keeps the stale answer out of the cache', async (t) => {
  const { state, load } = fakeOwner();
  const cache = new CredentialCache(load, MASTER, 600_000);
  let release!: () => void;
  state.hold = new Promise((r) => {
    release = r;
  });
  const inFlight = cache.lookup(KEY);
  await new Promise((r) => setImmediate(r));
  state.status = 'suspended';
  cache.invalidateOperator('op_1');
  release();
  state.hold = undefined;
  t.equal((await inFlight)?.operatorStatus, 'active', 'the request that started before the change sees the old state');
  t.equal((await cache.lookup(KEY))?.operatorStatus, 'suspended', 'the next lookup reads again and sees the change');
  t.equal(state.reads, 2);
  t.equal((await cache.lookup(KEY))?.operatorStatus, 'suspended');
  t.equal(state.reads, 2, 'and that answer is cached');
});

t.test('an invalidation drops a cached operator at once', async (t) => {
  const { state, load } = fakeOwner();
  const cache = new CredentialCache(load, MASTER, 600_000);
  t.equal((await cache.lookup(KEY))?.operatorStatus, 'active');
  state.status = 'suspended';
  t.equal((await cache.lookup(KEY))?.operatorStatus, 'active', 'cached within the TTL');
  cache.invalidateOperator('op_1');
  t.equal((await cache.lookup(KEY))?.operatorStatus, 'suspended');
});

t.test('a cached key is refused from its end on, without a re-read', async (t) => {
  const { state, load } = fakeOwner();
  let now = Date.parse('2026-11-21T10:00:00.000Z');
  const cache = new CredentialCache(load, MASTER, 600_000, () => now);
  state.expiresAt = new Date(now + 60_000);
  t.equal((await cache.lookup(KEY))?.operatorId, 'op_1', 'in force before its end');
  now += 59_999;
  t.equal((await cache.lookup(KEY))?.operatorId, 'op_1', 'still in force a millisecond before');
  now += 1;
  t.equal(await cache.lookup(KEY), undefined, 'refused at its end');
  t.equal(state.reads, 1, 'from the cached entry: the TTL has not passed');
});
