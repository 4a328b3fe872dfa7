// The operator-status lease (src/operator-status-lease.ts) against a real NATS: kept for the lease,
// counted from before the question; dropped by the change's broadcast; a read in flight across a
// broadcast is not kept. The clock is the test's, so nothing waits for wall-clock time.
import t from 'tap';
import { connect } from '@nats-io/transport-node';
import { gatewayInvalidateSubject, OPERATOR_STATUS_LEASE_MS } from '@bo/contracts';
import { operatorStatusLease, type OperatorStatus } from '../src/operator-status-lease.ts';
import { testNatsUrl, testPrefix } from '../src/testing.ts';

t.test('operator status lease', async (t) => {
  const nc = await connect({ servers: testNatsUrl().split(',') });
  const prefix = testPrefix('lease');
  let now = 0;
  let status: OperatorStatus = 'active';
  const asked: string[] = [];
  // Each question takes 100 ms of the test's clock; `hold` keeps the next one open until released.
  let hold: Promise<void> | undefined;
  const lease = operatorStatusLease({
    nc,
    prefix,
    clock: () => now,
    ask: async (operatorId) => {
      asked.push(operatorId);
      const answer = status;
      now += 100;
      if (hold) await hold;
      return answer;
    },
  });
  t.teardown(async () => {
    lease.stop();
    await nc.close();
  });
  // A broadcast as the operators service sends it, seen by the lease's subscription once NATS has routed it.
  const broadcast = async (operatorId: string) => {
    nc.publish(gatewayInvalidateSubject(prefix), JSON.stringify({ operatorId }));
    await nc.flush();
  };

  t.equal(await lease.status('op_1', 'r1'), 'active', 'asked');
  t.equal(await lease.status('op_1', 'r2'), 'active', 'kept');
  t.same(asked, ['op_1'], 'one question for two reads within the lease');

  // The lease ran from before the question (t = 0), not from its answer (t = 100).
  status = 'suspended';
  now = OPERATOR_STATUS_LEASE_MS - 1;
  t.equal(await lease.status('op_1', 'r3'), 'active', 'still the lease at its last millisecond');
  now = OPERATOR_STATUS_LEASE_MS;
  t.equal(await lease.status('op_1', 'r4'), 'suspended', 'asked again when the lease ends, counted from before the question');
  t.equal(asked.length, 2);

  // The change's broadcast drops the entry at once.
  status = 'active';
  await broadcast('op_1');
  t.equal(await lease.status('op_1', 'r5'), 'active', 'asked again after the broadcast, within the lease');
  t.equal(asked.length, 3);

  // Another operator's broadcast leaves this one's entry.
  await broadcast('op_other');
  t.equal(await lease.status('op_1', 'r6'), 'active');
  t.equal(asked.length, 3, 'kept across another operator’s change');

  // A read in flight across a broadcast answers its own request but is not kept.
  let release!: () => void;
  hold = new Promise((resolve) => (release = resolve));
  await broadcast('op_2');
  const inFlight = lease.status('op_2', 'r7');
  await broadcast('op_2');
  release();
  hold = undefined;
  t.equal(await inFlight, 'active');
  t.equal(await lease.status('op_2', 'r8'), 'active');
  t.same(asked.slice(3), ['op_2', 'op_2'], 'the read that crossed the broadcast was asked again');
});
