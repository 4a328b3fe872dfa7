// The sandbox's made-up histories (issue #68 item 4): each marker alone, every pair, all of them and
// none fire exactly as asked under the default thresholds and under other sets an operator may have;
// thresholds under which a pattern would fire another marker are found, never shown as something else.
import t from 'tap';
import { HARM_MARKERS, type HarmMarker } from '@bo/contracts';
import { DEFAULT_HARM_THRESHOLDS as T, harmThresholdsOf } from '../../src/harm/harm-thresholds.ts';
import { impossibleTogether, sandboxHarmAssessment } from '../../src/harm/sandbox-markers.ts';

const AS_OF = '2026-11-28';
const fired = (markers: HarmMarker[], thresholds = T) => {
  const { assessment, missing, extra } = sandboxHarmAssessment(new Set(markers), AS_OF, thresholds);
  return { fired: assessment.markers.map((m) => m.marker).sort(), missing, extra, assessment };
};

t.test('each marker alone fires alone, with its evidence', async (t) => {
  for (const marker of HARM_MARKERS) {
    const { fired: got, assessment } = fired([marker]);
    t.same(got, [marker], `${marker}: only it fires`);
    t.equal(assessment.asOf, AS_OF);
  }
});

/** The markers that compare a player with their usual, which a new player (new_player_intensity) has not. */
const USUAL: HarmMarker[] = ['deposit_escalation', 'deposit_frequency', 'loss_escalation', 'stake_escalation'];
/** Every marker but the new player's; and the new player's with every marker a new player can show. */
const WITH_A_USUAL = HARM_MARKERS.filter((m) => m !== 'new_player_intensity');
const AS_A_NEWCOMER = HARM_MARKERS.filter((m) => !USUAL.includes(m));

t.test('none: a quiet player; all that can show together: every one, the level high', async (t) => {
  t.same(fired([]).fired, [], 'no marker asked: none fires');
  t.equal(fired([]).assessment.level, 'none');
  for (const set of [WITH_A_USUAL, AS_A_NEWCOMER]) {
    const all = fired(set);
    t.same(all.fired, [...set].sort(), `all of ${set.length} asked: all fire`);
    t.equal(all.assessment.level, 'high');
  }
});

t.test('every pair fires exactly as asked; a new player with a usual is refused by name', async (t) => {
  const wrong: string[] = [];
  let impossible = 0;
  for (const [i, a] of HARM_MARKERS.entries()) {
    for (const b of HARM_MARKERS.slice(i + 1)) {
      const why = impossibleTogether(new Set([a, b]));
      if ((a === 'new_player_intensity' && USUAL.includes(b)) || (b === 'new_player_intensity' && USUAL.includes(a))) {
        impossible++;
        if (!why?.includes(a === 'new_player_intensity' ? b : a)) wrong.push(`${a}+${b}: not refused by name`);
        continue;
      }
      if (why) wrong.push(`${a}+${b}: refused (${why})`);
      const { fired: got } = fired([a, b]);
      if (got.join() !== [a, b].sort().join()) wrong.push(`${a}+${b}: ${got.join()}`);
    }
  }
  t.same(wrong, [], `all ${(HARM_MARKERS.length * (HARM_MARKERS.length - 1)) / 2} pairs`);
  t.equal(impossible, USUAL.length, 'the four that compare with a usual, each refused with the new player');
});

t.test("under an operator's other thresholds too", async (t) => {
  const sets = {
    stricter: harmThresholdsOf({ depositFactor: 2, depositFloor: '100.00', lossFactor: 2, stakeVariation: 1.5, minBets: 10, nightMinutes: 60, longDays: 2 }),
    looser: harmThresholdsOf({
      depositFactor: 5,
      depositFloor: '2000.00',
      lossFloor: '5000.00',
      stakeFactor: 4,
      stakeVariation: 6,
      minBets: 200,
      recentDays: 14,
    }),
    shortBaseline: harmThresholdsOf({ baselineDays: 20, recentDays: 3, accountDays: 10, longDays: 3, longDayMinutes: 600, nightMinutes: 900 }),
  };
  for (const [name, thresholds] of Object.entries(sets)) {
    const wrong = HARM_MARKERS.map((m) => ({ m, got: fired([m], thresholds).fired })).filter(({ m, got }) => got.join() !== m);
    t.same(wrong, [], `${name}: each marker alone`);
    for (const set of [WITH_A_USUAL, AS_A_NEWCOMER]) t.same(fired(set, thresholds).fired, [...set].sort(), `${name}: all of ${set.length} together`);
  }
});

t.test('thresholds under which a pattern fires another marker: found, not shown', async (t) => {
  // A floor of one deposit a week at the factor 1: any deposit is "frequent", so chasing's deposits are too.
  const { missing, extra } = fired(['chasing'], harmThresholdsOf({ depositCountFloor: 1, depositCountFactor: 1 }));
  t.same({ missing, extra }, { missing: [], extra: ['deposit_frequency'] }, 'the extra marker named');
  // More night minutes than the recent window's days can hold under a long day.
  const night = fired(['night_play'], harmThresholdsOf({ recentDays: 1, nightMinutes: 600, longDayMinutes: 240 }));
  t.same(night.missing, ['night_play'], 'a marker that cannot fire alone is named missing');
});
