// The harm markers (issue #68) as plain functions: each fires on its pattern with its evidence and
// stays quiet on a recreational player who spends as much, steadily; the level adds the weights.
import t from 'tap';
import type { HarmMarker } from '@bo/contracts';
import { DEFAULT_HARM_THRESHOLDS as T, harmThresholdsOf } from '../../src/harm/harm-thresholds.ts';
import { assessPlayer, changeOf, levelOf } from '../../src/harm/markers.ts';
import { addDays, emptyDay, type PlayerDay } from '../../src/harm/player-day.ts';
import { detectionFigures, simulatePopulation } from '../../src/harm/simulation.ts';

const START = '2026-03-01';
const AS_OF = addDays(START, 41); // 42 days of history: 35 days of baseline (more than half of 56) before the recent week (7).
type DayFields = Partial<Omit<PlayerDay, 'day'>>;

/** A player's days: `each(n)` gives day n's fields (n = 0 is START). */
function history(each: (n: number) => DayFields | undefined, length = 42): PlayerDay[] {
  const out: PlayerDay[] = [];
  for (let n = 0; n < length; n++) {
    const f = each(n);
    if (f) out.push({ ...emptyDay(addDays(START, n)), ...f });
  }
  return out;
}
const recent = (n: number) => n >= 35;
const markersOf = (days: PlayerDay[], asOf = AS_OF, thresholds = T) => assessPlayer(days, asOf, thresholds, START).markers.map((m) => m.marker);
const hit = (days: PlayerDay[], marker: HarmMarker) => assessPlayer(days, AS_OF, T, START).markers.find((m) => m.marker === marker);

/** Bets of one stake each: count, sum and sum of squares as a day holds them. */
const bets = (stakes: number[], winShare = 0.9): DayFields => {
  const sum = stakes.reduce((a, b) => a + b, 0);
  const squares = stakes.reduce((a, b) => a + b * b, 0);
  return { bets: stakes.length, stakeSum: sum.toFixed(2), stakeSquares: squares.toFixed(4), winSum: (sum * winShare).toFixed(2) };
};

t.test('deposit_escalation: past three times the usual and the largest week before; a steady spender of the same total is quiet', async (t) => {
  // 42 days, R$ 6.000 in total either way.
  const escalating = history((n) => (recent(n) ? { deposits: 1, depositSum: '600.00' } : n % 7 === 0 ? { deposits: 1, depositSum: '300.00' } : undefined));
  const steady = history((n) => (n % 7 === 0 || n % 7 === 3 ? { deposits: 1, depositSum: '500.00' } : undefined));
  const h = hit(escalating, 'deposit_escalation');
  t.ok(h, 'fires');
  t.match(h, { value: '4200.00', baseline: '300.00', threshold: '900.00', weight: 2, from: addDays(AS_OF, -6), to: AS_OF });
  t.match(h!.summary, /deposits of 4200\.00 in the last 7 days: 3× or more the player's usual 300\.00/);
  t.notOk(markersOf(steady).includes('deposit_escalation'), 'a steady R$ 1.000 a week is quiet');
  // A high spender: R$ 5.000 a week, every week.
  t.same(markersOf(history((n) => (n % 7 === 1 ? { deposits: 1, depositSum: '5000.00' } : undefined))), [], 'a high spender who always spends so is quiet');
  // A burst no larger than one the player had before is their usual.
  const bursty = history((n) =>
    n === 10
      ? { deposits: 3, depositSum: '1500.00' }
      : n === 36
        ? { deposits: 3, depositSum: '1500.00' }
        : n % 7 === 0
          ? { deposits: 1, depositSum: '100.00' }
          : undefined,
  );
  t.notOk(markersOf(bursty).includes('deposit_escalation'), 'a burst as large as one in the baseline is quiet');
});

t.test('a player new to us has no usual: the escalation markers wait for half a baseline window', async (t) => {
  const newcomer = history((n) => (n >= 30 ? { deposits: 3, depositSum: '3000.00', ...bets(Array(40).fill(20)) } : undefined));
  const a = assessPlayer(newcomer, AS_OF, T, addDays(START, 30));
  t.same(
    a.markers.map((m) => m.marker).filter((m) => ['deposit_escalation', 'deposit_frequency', 'loss_escalation', 'stake_escalation'].includes(m)),
    [],
    'no escalation against a baseline of days the player was not with us',
  );
  t.ok(
    assessPlayer(newcomer, AS_OF, T, START).markers.some((m) => m.marker === 'deposit_escalation'),
    'the same days read as if the player had been with us from the start (idle weeks as a baseline) would fire',
  );
  t.same(assessPlayer(newcomer, AS_OF, T), a, 'without `since`, the first day of the history is the first day with us');
});

t.test("new_player_intensity: intense from the first weeks (Braverman and Shaffer's first month), not a newcomer who spends as much steadily", async (t) => {
  const since = addDays(AS_OF, -13); // two weeks with us: no baseline yet
  const fresh = (n: number) => n >= 28; // history() counts from START: day 28 is `since`
  const days = (stake: (n: number) => number, plays: (n: number) => boolean = () => true) =>
    history((n) => (fresh(n) && plays(n) ? { deposits: 1, depositSum: '150.00', minutesPlayed: 40, ...bets(Array(20).fill(stake(n)), 1) } : undefined));
  const newcomer = (d: PlayerDay[], asOf = AS_OF) => assessPlayer(d, asOf, T, since).markers.find((m) => m.marker === 'new_player_intensity');
  const rising = days((n) => (n < 35 ? 1 : 2));
  const h = newcomer(rising);
  t.match(h, { value: '2.00', threshold: '1.5', weight: 2, from: since, to: AS_OF }, 'fires: the later week staked twice the first');
  t.match(
    h!.summary,
    /with us for 14 days: played on 14 of them, deposits of 1050\.00 a 7-day window on average \(900\.00 or more\), the mean stake up from 1\.00 to 2\.00/,
  );
  t.notOk(newcomer(days(() => 1.5)), 'the same deposits and play at a steady stake: quiet');
  t.notOk(
    newcomer(
      days(
        (n) => (n < 35 ? 1 : 2),
        (n) => n % 3 === 0,
      ),
    ),
    'the same rise on a third of the days: not frequent, quiet',
  );
  t.notOk(
    newcomer(history((n) => (fresh(n) ? { deposits: 1, depositSum: '50.00', ...bets(Array(20).fill(n < 35 ? 1 : 2), 1) } : undefined))),
    'small deposits: not intensive, quiet',
  );
  t.notOk(newcomer(rising, addDays(since, 5)), 'under a week with us: too soon to say');
  const settled = assessPlayer(
    history((n) => ({ deposits: 1, depositSum: '150.00', ...bets(Array(20).fill(n < 35 ? 1 : 2), 1) })),
    AS_OF,
    T,
    START,
  );
  t.notOk(
    settled.markers.some((m) => m.marker === 'new_player_intensity'),
    'a player with a usual (42 days with us) is read by the escalation markers instead',
  );
  t.ok(
    settled.markers.some((m) => m.marker === 'stake_escalation'),
    'the same rise after 42 days: stake_escalation',
  );
});

t.test('deposit_frequency: many more deposits than usual, not larger ones', async (t) => {
  const frequent = history((n) => (recent(n) ? { deposits: 2, depositSum: '40.00' } : n % 7 === 0 ? { deposits: 1, depositSum: '280.00' } : undefined));
  t.match(hit(frequent, 'deposit_frequency'), { value: '14', baseline: '1.0', threshold: '9.0' });
  t.notOk(hit(frequent, 'deposit_escalation'), 'the same money: no deposit escalation');
  const steady = history((n) => (n % 3 === 0 ? { deposits: 2, depositSum: '40.00' } : undefined));
  t.notOk(hit(steady, 'deposit_frequency'), 'a player who always deposits often is quiet');
});

t.test('loss_escalation: a week lost past three times the usual and past any week before', async (t) => {
  const losing = history((n) => (recent(n) ? bets(Array(50).fill(20), 0.2) : n % 2 === 0 ? bets(Array(50).fill(20), 0.9) : undefined));
  const h = hit(losing, 'loss_escalation');
  t.ok(h, 'fires');
  t.equal(h!.value, '5600.00', 'seven days of R$ 1.000 staked, R$ 200 back');
  t.equal(h!.weight, 1);
  const sameLossSpread = history(() => bets(Array(50).fill(20), 0.8));
  t.notOk(hit(sameLossSpread, 'loss_escalation'), 'the same stakes lost evenly are quiet');
});

t.test('chasing, cancelled withdrawals, limits, failed deposits, reality checks: counts against their thresholds', async (t) => {
  const cases: Array<[HarmMarker, (n: number) => DayFields | undefined, (n: number) => DayFields | undefined, string]> = [
    [
      'chasing',
      (n) => (n >= 38 ? { deposits: 1, depositSum: '50.00', depositsAfterLoss: 1 } : undefined),
      (n) => (n >= 38 ? { deposits: 1, depositSum: '50.00' } : undefined),
      '4',
    ],
    [
      'cancelled_withdrawals',
      (n) => (n === 20 || n === 40 ? { withdrawalsCancelled: 1 } : undefined),
      (n) => (n === 5 || n === 40 ? { withdrawalsCancelled: 1 } : undefined),
      '2',
    ],
    [
      'limits_loosened',
      (n) => (n === 15 ? { limitsRaised: 1 } : n === 30 ? { limitsRemoved: 1 } : undefined),
      (n) => (n === 5 ? { limitsRaised: 1 } : n === 30 ? { limitsRemoved: 1 } : undefined),
      '2',
    ],
    ['limits_reached', (n) => (n >= 39 ? { limitsReached: 1 } : undefined), (n) => (n >= 40 ? { limitsReached: 1 } : undefined), '3'],
    ['failed_deposits', (n) => (n >= 39 ? { failedDeposits: 1 } : undefined), (n) => (n === 41 ? { failedDeposits: 2 } : undefined), '3'],
    [
      'reality_checks_dismissed',
      (n) => (recent(n) ? { realityChecksDismissed: 2 } : undefined),
      (n) => (recent(n) && n < 41 ? { realityChecksDismissed: 2 } : undefined),
      '14',
    ],
  ];
  for (const [marker, fires, quiet, value] of cases) {
    t.match(hit(history(fires), marker), { marker, value, to: AS_OF }, `${marker} fires`);
    t.notOk(hit(history(quiet), marker), `${marker} quiet below its threshold or outside its window`);
  }
  t.equal(hit(history(cases[1]![1]), 'cancelled_withdrawals')!.from, addDays(AS_OF, -29), 'an account marker reads 30 days');
});

t.test('payment_methods: several ways to pay in one week, not over months; a declined deposit counts its method', async (t) => {
  const methods = ['pix', 'debit_card', 'prepaid_card'];
  // R$ 100 a week either way; the one pays three ways in the recent week, the other a new way every few weeks.
  const scattered = history((n) =>
    n % 7 === 0 || n >= 38 ? { deposits: 1, depositSum: n >= 38 ? '33.33' : '100.00', depositMethods: [methods[n % 3]!] } : undefined,
  );
  const h = hit(scattered, 'payment_methods');
  t.match(h, { value: '3', threshold: '3', weight: 1, from: addDays(AS_OF, -6), to: AS_OF });
  t.match(h!.summary, /deposits through 3 payment methods \(debit_card, pix, prepaid_card\) in the last 7 days/);
  const steady = history((n) => (n % 7 === 0 || n === 41 ? { deposits: 1, depositSum: '100.00', depositMethods: [methods[((n / 7) % 3) | 0]!] } : undefined));
  t.notOk(hit(steady, 'payment_methods'), 'three methods over six weeks, one or two a week: quiet');
  const declinedThenAnother = history((n) =>
    n === 40
      ? { failedDeposits: 2, depositMethods: ['debit_card', 'prepaid_card'] }
      : n === 41
        ? { deposits: 1, depositSum: '50.00', depositMethods: ['pix'] }
        : undefined,
  );
  t.ok(hit(declinedThenAnother, 'payment_methods'), "two cards declined, then PIX: the declined deposits' methods count");
});

t.test('night_play and long_days: time of day and length of play, not money', async (t) => {
  const nights = history((n) => (recent(n) ? { minutesPlayed: 60, nightMinutes: 40 } : undefined));
  t.match(hit(nights, 'night_play'), { value: '66', threshold: '50' });
  const evenings = history((n) => (recent(n) ? { minutesPlayed: 60, nightMinutes: 20 } : undefined));
  t.notOk(hit(evenings, 'night_play'), 'a third of play at night is quiet');
  const oneLateNight = history((n) => (n === 41 ? { minutesPlayed: 200, nightMinutes: 170 } : undefined));
  t.notOk(hit(oneLateNight, 'night_play'), 'under the minutes a week needs');
  const long = history((n) => (n >= 36 && n % 2 === 0 ? { minutesPlayed: 300 } : undefined));
  t.match(hit(long, 'long_days'), { value: '3' });
  t.notOk(
    hit(
      history((n) => (recent(n) ? { minutesPlayed: 200 } : undefined)),
      'long_days',
    ),
    'every day, never a long one: quiet',
  );
});

t.test('stakes: a rising mean and a wide spread, each over enough bets', async (t) => {
  const rising = history((n) => (recent(n) ? bets(Array(10).fill(10)) : n % 2 ? bets(Array(10).fill(4)) : undefined));
  t.match(hit(rising, 'stake_escalation'), { value: '10.00', baseline: '4.00', threshold: '8.00' });
  t.notOk(
    hit(
      history(() => bets(Array(10).fill(10))),
      'stake_escalation',
    ),
    'the same stake all along is quiet',
  );
  // Twenty cent stakes with one of R$ 20 in each ten: a coefficient of variation the money's two decimals would lose.
  const spread = history((n) => (recent(n) ? bets([...Array(9).fill(0.2), 20]) : undefined));
  const v = hit(spread, 'stake_variability');
  t.ok(v, 'fires');
  t.equal(v!.value, '2.72', 'sd / mean of 0.20 ×9 and 20.00');
  t.notOk(
    hit(
      history((n) => (recent(n) ? bets([...Array(9).fill(0.2), 0.4]) : undefined)),
      'stake_variability',
    ),
    'a narrow spread is quiet',
  );
  t.notOk(
    hit(
      history((n) => (n === 41 ? bets([0.2, 0.2, 20]) : undefined)),
      'stake_variability',
    ),
    'three bets say nothing',
  );
});

t.test("the level adds the weights; the thresholds are the operator's over the defaults", async (t) => {
  t.equal(levelOf(0, T), 'none');
  t.equal(levelOf(1, T), 'low');
  t.equal(levelOf(3, T), 'medium');
  t.equal(levelOf(5, T), 'high');
  // chasing (2) + cancelled withdrawals (2) + failed deposits (1)
  const harmed = history((n) =>
    n >= 38 ? { deposits: 1, depositSum: '50.00', depositsAfterLoss: 1, failedDeposits: 1, withdrawalsCancelled: n === 40 || n === 41 ? 1 : 0 } : undefined,
  );
  const a = assessPlayer(harmed, AS_OF, T, START);
  t.same(a.markers.map((m) => m.marker).sort(), ['cancelled_withdrawals', 'chasing', 'failed_deposits']);
  t.equal(a.score, 5);
  t.equal(a.level, 'high');
  const laxer = harmThresholdsOf({ chasingDeposits: 10, levelAt: { low: 1, medium: 3, high: 9 } });
  t.equal(laxer.depositFactor, T.depositFactor, 'an unset threshold keeps its default');
  const b = assessPlayer(harmed, AS_OF, laxer, START);
  t.equal(b.level, 'medium', "an operator's higher bar");
  t.same(changeOf(b, a), { from: 'medium', to: 'high', levelChanged: true, added: ['chasing'], removed: [] });
  t.same(changeOf(undefined, b), { from: 'none', to: 'medium', levelChanged: true, added: ['cancelled_withdrawals', 'failed_deposits'], removed: [] });
  t.equal(changeOf(a, a).levelChanged, false);
});

t.test('the simulated population: the same every run, escalating players found before their peak loss, few recreational flagged', async (t) => {
  const population = simulatePopulation({ seed: 7, recreational: 60, escalating: 12, newcomers: 12, days: 100 });
  t.same(simulatePopulation({ seed: 7, recreational: 60, escalating: 12, newcomers: 12, days: 100 }), population, 'seeded: the same population');
  t.same(
    simulatePopulation({ seed: 7, recreational: 60, escalating: 12, days: 100 }),
    population.filter((p) => p.kind !== 'newcomer'),
    'the newcomers from streams of their own: the others the same without them',
  );
  t.equal(population.filter((p) => p.kind === 'escalating').length, 12);
  t.ok(
    population.filter((p) => p.kind === 'newcomer').every((p) => p.days[0]!.day === population[0]!.days[0]!.day && p.peakDay! <= addDays(p.days[0]!.day, 35)),
    "each newcomer's peak loss within their first five weeks",
  );
  const { high, medium } = detectionFigures(population, T, ['medium', 'high']);
  t.ok(high.found >= 8, `most escalating players reach high by their peak loss (${high.found} of 12)`);
  t.ok(high.flagged <= 3, `few recreational players reach high (${high.flagged} of 60)`);
  t.ok(
    high.leadDays.every((d) => d >= 0),
    'each found on or before the peak',
  );
  t.ok(medium.found >= high.found, 'medium finds at least as many as high');
  t.equal(high.newcomers.of, 12, 'the newcomers counted apart');
  t.ok(medium.newcomers.found >= 9, `most newcomers reach medium by their peak loss (${medium.newcomers.found} of 12)`);
});
