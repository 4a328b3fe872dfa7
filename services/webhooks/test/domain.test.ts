// Plain rules of the webhooks domain: the retry schedule, the URL and address policy (signatures:
// packages/contracts/test/signing.test.ts).
import t from 'tap';
import {
  DEFAULT_RETRY_SCHEDULE_MS,
  maxAttemptsOf,
  nextStepAfter,
  parseRetryAfter,
  parseRetrySchedule,
  type AttemptResult,
} from '../src/domain/retry-schedule.ts';
import { isNonPublicAddress, urlShapeProblem } from '../src/domain/url-policy.ts';

const fail = (extra: Partial<AttemptResult> = {}): AttemptResult => ({ delivered: false, statusCode: 500, error: 'HTTP 500', durationMs: 1, ...extra });

t.test('retry schedule: 8 attempts, the contract delays with ±10 % jitter, Retry-After within the schedule', async (t) => {
  t.equal(maxAttemptsOf(DEFAULT_RETRY_SCHEDULE_MS), 8);
  t.same(DEFAULT_RETRY_SCHEDULE_MS, [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  for (let attempt = 1; attempt <= 7; attempt++) {
    const base = DEFAULT_RETRY_SCHEDULE_MS[attempt - 1];
    t.same(
      nextStepAfter(attempt, 8, fail(), DEFAULT_RETRY_SCHEDULE_MS, () => 0.5),
      { status: 'pending', delayMs: base },
    );
    const lo = nextStepAfter(attempt, 8, fail(), DEFAULT_RETRY_SCHEDULE_MS, () => 0);
    const hi = nextStepAfter(attempt, 8, fail(), DEFAULT_RETRY_SCHEDULE_MS, () => 0.999999);
    t.ok(lo.status === 'pending' && lo.delayMs === Math.round(base! * 0.9));
    t.ok(hi.status === 'pending' && hi.delayMs <= Math.round(base! * 1.1) && hi.delayMs > base!);
  }
  t.same(nextStepAfter(8, 8, fail(), DEFAULT_RETRY_SCHEDULE_MS), { status: 'failed' }, 'the 8th failure ends it');
  t.same(nextStepAfter(1, 1, fail(), DEFAULT_RETRY_SCHEDULE_MS), { status: 'failed' }, 'a test delivery is not retried');
  t.same(nextStepAfter(3, 8, { delivered: true, statusCode: 204, error: null, durationMs: 1 }, DEFAULT_RETRY_SCHEDULE_MS), { status: 'delivered' });
  // Retry-After: postpones beyond the step, never beyond the longest step, never sooner than the step.
  t.same(
    nextStepAfter(1, 8, fail({ retryAfterMs: 60_000 }), DEFAULT_RETRY_SCHEDULE_MS, () => 0.5),
    { status: 'pending', delayMs: 60_000 },
  );
  t.same(
    nextStepAfter(1, 8, fail({ retryAfterMs: 1_000 }), DEFAULT_RETRY_SCHEDULE_MS, () => 0.5),
    { status: 'pending', delayMs: 5_000 },
  );
  t.same(
    nextStepAfter(1, 8, fail({ retryAfterMs: 1e12 }), DEFAULT_RETRY_SCHEDULE_MS, () => 0.5),
    { status: 'pending', delayMs: 36_000_000 },
  );
  t.same(nextStepAfter(8, 8, fail({ retryAfterMs: 1_000 }), DEFAULT_RETRY_SCHEDULE_MS), { status: 'failed' }, 'Retry-After adds no attempts');
});

t.test('schedule and Retry-After parsing', async (t) => {
  t.same(parseRetrySchedule(' 10, 20,30,40,50,60,70 '), [10, 20, 30, 40, 50, 60, 70]);
  t.throws(() => parseRetrySchedule('1,2,3'));
  t.throws(() => parseRetrySchedule('1,2,3,4,5,6,x'));
  t.equal(parseRetryAfter('120'), 120_000);
  t.equal(parseRetryAfter(new Date(1_000_000 + 30_000).toUTCString(), 1_000_000), 30_000);
  t.equal(parseRetryAfter('soon'), undefined);
  t.equal(parseRetryAfter(undefined), undefined);
});

t.test('non-public addresses', async (t) => {
  for (const a of [
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fd12:3456::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    'ff02::1',
    'not-an-ip',
  ]) {
    t.ok(isNonPublicAddress(a), `${a} is non-public`);
  }
  for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
    t.notOk(isNonPublicAddress(a), `${a} is public`);
  }
});

t.test('URL shape rules', async (t) => {
  const strict = { allowHttp: false, allowPrivate: false };
  t.equal(urlShapeProblem('https://hooks.example.com/x', 'production', strict), undefined);
  t.match(urlShapeProblem('http://hooks.example.com/x', 'production', strict), /https/);
  t.equal(urlShapeProblem('http://hooks.example.com/x', 'production', { allowHttp: true, allowPrivate: false }), undefined);
  t.equal(urlShapeProblem('http://127.0.0.1:3000/x', 'sandbox', strict), undefined, 'sandbox may use http and local addresses');
  t.match(urlShapeProblem('https://127.0.0.1/x', 'production', strict), /private/);
  t.equal(urlShapeProblem('https://127.0.0.1/x', 'production', { allowHttp: false, allowPrivate: true }), undefined);
  t.match(urlShapeProblem('file:///etc/passwd', 'sandbox', strict), /https/);
});
