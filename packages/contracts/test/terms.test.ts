// The terms refusal every money path shares (issue 46): under br-spa a terms version due and not
// accepted is 403 TERMS_NOT_ACCEPTED, after the pause and the required limits; with the profile off
// nothing is refused. And the IP address format the registration and acceptances take.
import t from 'tap';
import { Value } from '@sinclair/typebox/value';
import { IpAddress, assertNotPausedOrIncomplete, isAppError, termsPending, type RgRules } from '../src/index.ts';

const now = new Date('2026-11-25T12:00:00.000Z');
const limits: RgRules['limits'] = [
  { type: 'loss', period: 'day', value: '100.00', pending: null },
  { type: 'time', period: 'day', value: '60', pending: null },
];
const rules = (over: Partial<RgRules>): RgRules => ({
  profile: 'br-spa',
  timeZone: 'America/Sao_Paulo',
  realityCheckMinutes: 60,
  pausedUntil: null,
  limits,
  ...over,
});
const refusal = (r: RgRules) => {
  try {
    assertNotPausedOrIncomplete(r, now);
    return 'ok';
  } catch (e) {
    return isAppError(e) ? `${e.code}${e.code === 'RG_BLOCKED' ? `:${(e.details as { reason: string }).reason}` : ''}` : 'thrown';
  }
};

t.test('termsPending: due once its time has come', async (t) => {
  t.equal(termsPending(null, now), false);
  t.equal(termsPending({ version: 'v2', dueAt: '2026-11-25T11:59:59.999Z' }, now), true);
  t.equal(termsPending({ version: 'v2', dueAt: '2026-11-25T12:00:00.000Z' }, now), true, 'at its moment');
  t.equal(termsPending({ version: 'v3', dueAt: '2026-11-25T12:00:00.001Z' }, now), false, 'scheduled later');
});

t.test('the refusal and its place among the shared checks', async (t) => {
  const due = { version: 'v2', dueAt: '2026-11-25T10:00:00.000Z' };
  t.equal(refusal(rules({ terms: null })), 'ok');
  t.equal(refusal(rules({ terms: due })), 'TERMS_NOT_ACCEPTED');
  t.equal(refusal(rules({ terms: { ...due, dueAt: '2026-11-26T00:00:00.000Z' } })), 'ok', 'a scheduled version is not due yet');
  t.equal(refusal(rules({ terms: due, limits: [] })), 'RG_BLOCKED:limits_required', 'the required limits come first');
  t.equal(refusal(rules({ terms: due, pausedUntil: '2026-11-26T00:00:00.000Z' })), 'RG_BLOCKED:paused', 'a pause comes first');
  t.equal(refusal(rules({ terms: due, profile: 'off' })), 'ok', 'the profile off refuses nothing for the terms');
  try {
    assertNotPausedOrIncomplete(rules({ terms: due }), now);
  } catch (e) {
    t.match(e, { status: 403, details: { version: 'v2', dueAt: due.dueAt } }, 'names the version to accept');
  }
});

t.test('IP addresses', async (t) => {
  for (const ok of ['203.0.113.7', '0.0.0.0', '2001:db8::7', '::1', '::ffff:192.0.2.1', 'fe80::1']) t.equal(Value.Check(IpAddress, ok), true, ok);
  for (const bad of ['300.1.1.1', '10.0.0.1:443', '01.2.3.4', 'fe80::1%eth0', 'localhost', '1.2.3', '', '[::1]', 'gggg::1'])
    t.equal(Value.Check(IpAddress, bad), false, `not ${JSON.stringify(bad)}`);
});
