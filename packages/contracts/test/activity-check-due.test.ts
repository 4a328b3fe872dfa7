// activityCheckDue: payments and the wallet ask players.activity.check only when a br-spa player
// was not checked yet today in the operator's time zone.
import t from 'tap';
import { activityCheckDue } from '../src/index.ts';

const SP = { timeZone: 'America/Sao_Paulo' };
// 23:59 and 00:01 São Paulo time (UTC−3) on either side of a midnight.
const lateEvening = '2026-11-23T02:59:00.000Z';
const justAfterMidnight = new Date('2026-11-23T03:01:00.000Z');
const laterThatDay = new Date('2026-11-23T20:00:00.000Z');

t.equal(
  activityCheckDue({ compliance: 'br-spa', impedimentCheckedAt: justAfterMidnight.toISOString(), rg: SP }, laterThatDay),
  false,
  'checked earlier the same day: not asked',
);
t.equal(
  activityCheckDue({ compliance: 'br-spa', impedimentCheckedAt: lateEvening, rg: SP }, justAfterMidnight),
  true,
  'checked at 23:59 the day before: asked at 00:01',
);
t.equal(activityCheckDue({ compliance: 'br-spa', impedimentCheckedAt: null, rg: SP }, laterThatDay), true, 'never checked: asked');
t.equal(activityCheckDue({ compliance: 'br-spa', impedimentCheckedAt: lateEvening }, laterThatDay), true, 'no zone known: asked');
t.equal(activityCheckDue({ impedimentCheckedAt: null }, laterThatDay), false, 'profile off: never asked');
t.equal(
  activityCheckDue({ compliance: 'br-spa', impedimentCheckedAt: lateEvening, rg: { timeZone: 'UTC' } }, justAfterMidnight),
  false,
  "the operator's zone decides the day (in UTC both fall on the 23rd)",
);
