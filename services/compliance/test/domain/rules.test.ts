// The watch's rules and the case lifecycle as plain functions: each threshold at and just under.
import t from 'tap';
import type { AppError } from '@bo/contracts';
import {
  depositRulesBySums,
  evaluateMoneyRules,
  highValue,
  inAndOut,
  largeWinOut,
  riskOfRule,
  sharedDestination,
  splitDeposits,
  velocity,
  type MoneyEvent,
  type VelocityWindow,
} from '../../src/domain/rules.ts';
import { addMoney } from '@bo/service-kit';
import { DEFAULT_THRESHOLDS as T, thresholdsOf } from '../../src/domain/thresholds.ts';
import { checkDecision } from '../../src/domain/case-lifecycle.ts';

const now = Date.parse('2026-11-20T12:00:00Z');
let n = 0;
const ev = (kind: MoneyEvent['kind'], amount: string, hoursAgo: number, destination: string | null = null): MoneyEvent => ({
  eventId: `evt_${++n}`,
  kind,
  reference: `ref_${n}`,
  amount,
  destination,
  at: new Date(now - hoursAgo * 3_600_000),
});

t.test('high value at the threshold, not a cent under', async (t) => {
  t.ok(highValue(ev('deposit', '50000.00', 0), T));
  t.ok(highValue(ev('withdrawal', '50000.00', 0), T));
  t.notOk(highValue(ev('deposit', '49999.99', 0), T));
});

t.test('split deposits: the count, the band and the window', async (t) => {
  const four = [1, 2, 3, 4].map((h) => ev('deposit', '9000.00', h));
  const fifth = ev('deposit', '9999.99', 0);
  t.ok(splitDeposits(fifth, [...four, fifth], T), 'five in the band within 24 h');
  t.notOk(splitDeposits(fifth, [...four.slice(1), fifth], T), 'four');
  const under = ev('deposit', '8999.99', 0);
  t.notOk(splitDeposits(under, [...four, under], T), 'the fifth under the band');
  const old = [...four.slice(1), ev('deposit', '9000.00', 24)];
  t.notOk(splitDeposits(fifth, [...old, fifth], T), 'one of them 24 h old: outside the window');
});

t.test('in and out: under 30% staked within 48 h', async (t) => {
  const dep = ev('deposit', '1000.00', 47);
  const wd = ev('withdrawal', '900.00', 0);
  t.ok(inAndOut(wd, [dep, wd], '299.99', T), 'under 30%');
  t.notOk(inAndOut(wd, [dep, wd], '300.00', T), 'at 30%');
  t.notOk(inAndOut(wd, [ev('deposit', '1000.00', 48), wd], '0.00', T), 'deposit 48 h before: outside');
  t.notOk(inAndOut(ev('deposit', '1.00', 0), [dep], '0.00', T), 'only a withdrawal is tested');
});

t.test('velocity against the 30-day pattern', async (t) => {
  const before = [ev('deposit', '300.00', 24 * 10)]; // daily average 10.00
  const big = ev('deposit', '5000.00', 0);
  t.ok(velocity(big, [...before, big], T));
  const small = ev('deposit', '4999.99', 0);
  t.notOk(velocity(small, [...before, small], T), 'under the minimum amount');
  t.notOk(velocity(big, [big], T), 'no pattern yet');
  const busy = [ev('deposit', '30000.00', 24 * 10)]; // average 1000.00: 5000 is 5x
  t.ok(velocity(big, [...busy, big], T), 'five times the average');
  const busier = [ev('deposit', '30000.30', 24 * 10)];
  t.notOk(velocity(big, [...busier, big], T), 'just under five times');
});

t.test("a deposit judged on its window's sums agrees with the rules on its history, or defers to them", async (t) => {
  // The sums the watch's statement computes (store/watch.ts depositWindow), here from the history.
  const windowOf = (e: MoneyEvent, history: MoneyEvent[]): VelocityWindow => {
    const end = e.at.getTime();
    const deposits = history.filter((h) => h.kind === 'deposit');
    const recent = deposits.filter((h) => h.at.getTime() > end - 24 * 3_600_000 && h.at.getTime() <= end);
    const before = deposits.filter((h) => h.at.getTime() > end - 31 * 24 * 3_600_000 && h.at.getTime() <= end - 24 * 3_600_000);
    return { recent: addMoney(...recent.map((h) => h.amount)), before: addMoney(...before.map((h) => h.amount)), beforeCount: before.length };
  };
  const pattern = [ev('deposit', '300.00', 24 * 10), ev('withdrawal', '50.00', 24 * 2)]; // daily average 10.00
  const cases: Array<[string, MoneyEvent, MoneyEvent[], 'judged' | 'deferred']> = [
    ['an ordinary deposit', ev('deposit', '100.00', 0), pattern, 'judged'],
    ['a first deposit at the high-value threshold', ev('deposit', '50000.00', 0), [], 'judged'],
    ['a deposit just under the minimum of velocity', ev('deposit', '4999.99', 0), pattern, 'judged'],
    ['a deposit over the bar of velocity', ev('deposit', '5000.00', 0), pattern, 'deferred'],
    ["a deposit in the split rule's band", ev('deposit', '9000.00', 0), [], 'deferred'],
    ['a deposit one cent under the band', ev('deposit', '8999.99', 0), [], 'judged'],
    ['a deposit over the bar of velocity and in the band', ev('deposit', '9500.00', 0), pattern, 'deferred'],
  ];
  for (const [what, e, earlier, expected] of cases) {
    const history = [...earlier, e];
    const bySums = depositRulesBySums(e, windowOf(e, history), T);
    const onHistory = evaluateMoneyRules({ event: e, history, thresholds: T, otherPlayersOfDestination: [] });
    if (expected === 'deferred') t.equal(bySums, undefined, `${what}: left to the rules on the history`);
    else t.same(bySums, onHistory, `${what}: the same hits as on the history`);
  }
  t.equal(depositRulesBySums(ev('withdrawal', '10.00', 0), windowOf(ev('deposit', '1.00', 0), []), T), undefined, 'a withdrawal is never judged on sums');
});

t.test("every figure of a hit's summary is in its facts: the console writes the sentence from them", async (t) => {
  const figures = (value: unknown): string[] =>
    value === null || value === undefined ? [] : typeof value === 'object' ? Object.values(value as object).flatMap(figures) : [String(value)];
  const dep = ev('deposit', '1000.00', 47);
  const small = ev('withdrawal', '200.00', 1);
  const wd = ev('withdrawal', '900.00', 0);
  const band = [1, 2, 3, 4].map((h) => ev('deposit', '9000.00', h));
  const fifth = ev('deposit', '9999.99', 0);
  const big = ev('deposit', '5000.00', 0);
  const hits = [
    highValue(ev('withdrawal', '60000.00', 0), T),
    largeWinOut(ev('withdrawal', '100.00', 0), { amount: '60000.00', referenceId: 'ptx_1', at: new Date(now).toISOString() }, T),
    splitDeposits(fifth, [...band, fifth], T),
    inAndOut(wd, [dep, wd], '0.00', T),
    inAndOut(small, [dep, small], '0.00', T),
    inAndOut(wd, [dep, wd], '0.00', T, 'paused'),
    velocity(big, [ev('deposit', '300.00', 24 * 10), big], T),
  ];
  t.equal(hits.filter(Boolean).length, hits.length, 'each rule fired');
  for (const hit of hits) {
    const have = new Set(figures(hit!.facts));
    // 24 h and 30 days are velocity's own windows, named in its sentence, not settings.
    const missing = [...hit!.summary.matchAll(/\d+(?:\.\d+)?/g)].map((m) => m[0]).filter((n) => !have.has(n) && n !== '24' && n !== '30');
    t.same(missing, [], `${hit!.rule}: ${hit!.summary}`);
  }
  t.equal(inAndOut(wd, [dep, wd], '0.00', T, 'paused')!.facts.leaving, 'paused', 'why the player is leaving, by its code');
  t.equal(velocity(big, [ev('deposit', '300.00', 24 * 10), big], T)!.facts.kind, 'deposit', "velocity's kind");
});

t.test('shared destination and the risk of each rule', async (t) => {
  t.ok(sharedDestination(ev('withdrawal', '10.00', 0, 'k'), [{ playerId: 'p2', eventId: 'e', at: new Date(now) }]));
  t.notOk(sharedDestination(ev('withdrawal', '10.00', 0, 'k'), []));
  t.same((['in_and_out', 'split_deposits', 'high_value', 'shared_destination', 'payer_mismatch', 'velocity'] as const).map(riskOfRule), [
    'high',
    'medium',
    'medium',
    'high',
    'high',
    'medium',
  ]);
  t.equal(thresholdsOf({ highValue: '1.00' }).splitCount, 5, 'a stored setting over the defaults');
});

t.test('case transitions and four eyes', async (t) => {
  const code = (f: () => void) => {
    try {
      f();
      return 'ok';
    } catch (e) {
      return (e as AppError).code;
    }
  };
  t.equal(
    code(() => checkDecision({ status: 'open', reviewerId: null }, { status: 'under_review', reason: 'r' }, 'a')),
    'ok',
  );
  t.equal(
    code(() => checkDecision({ status: 'open', reviewerId: null }, { status: 'reported', reason: 'r', receipt: 'x' }, 'a')),
    'AML_CASE_INVALID_TRANSITION',
  );
  t.equal(
    code(() => checkDecision({ status: 'under_review', reviewerId: 'a' }, { status: 'reported', reason: 'r', receipt: 'x' }, 'a')),
    'FOUR_EYES_REQUIRED',
  );
  t.equal(
    code(() => checkDecision({ status: 'under_review', reviewerId: 'a' }, { status: 'reported', reason: 'r', receipt: 'x' }, 'b')),
    'ok',
  );
  t.equal(
    code(() => checkDecision({ status: 'under_review', reviewerId: 'a' }, { status: 'reported', reason: 'r' }, 'b')),
    'VALIDATION_ERROR',
  );
  t.equal(
    code(() => checkDecision({ status: 'dismissed', reviewerId: 'a' }, { status: 'under_review', reason: 'r' }, 'b')),
    'AML_CASE_INVALID_TRANSITION',
  );
});
