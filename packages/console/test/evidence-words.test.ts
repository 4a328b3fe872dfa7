// What a rule or a marker saw, written from its figures in the person's language (assets/evidence-words.js,
// issue #70): every AML rule and every harm marker has its sentence in both languages, with money as the
// language writes it and no word of the other; a record whose figures are missing shows the service's own
// sentence, marked as written. The facts' shapes are the compliance rules' (their test checks that a hit's
// facts hold every figure of its summary).
import t from 'tap';
import { AML_RULES, HARM_MARKERS } from '@bo/contracts';

let chosen = 'pt';
Object.defineProperty(globalThis, 'localStorage', { configurable: true, value: { getItem: () => chosen, setItem: () => undefined } });
const { amlEvidenceWords, harmMarkerWords } = await import(new URL('../assets/evidence-words.js', import.meta.url).href);

const at = '2026-11-20T12:00:00.000Z';
const event = (type: string, amount: string, reference = 'ref_1') => ({ id: 'evt_1', type, reference, amount, at });
const inAndOut = {
  deposited: '4000.00',
  stakes: '0.00',
  stakePercentBar: 30,
  hours: 48,
  events: [event('deposit', '4000.00'), event('withdrawal', '3900.00')],
};
/** One evidence of each rule, as the compliance service records it. */
const EVIDENCE: Record<string, Record<string, unknown>> = {
  in_and_out: inAndOut,
  split_deposits: { threshold: '10000.00', floor: '9000.00', count: 5, total: '47500.00', hours: 24, events: [event('deposit', '9500.00')] },
  high_value: { threshold: '50000.00', events: [event('deposit', '60000.00')] },
  shared_destination: { destination: '11144477735', otherPlayers: [{ playerId: 'plr_a' }, { playerId: 'plr_b' }, { playerId: 'plr_a' }], events: [] },
  payer_mismatch: { events: [event('deposit.failed', '1500.00', 'psp-9')] },
  velocity: { kind: 'withdrawal', recent: '12000.00', dailyAverage: '100.00', factor: 5, events: [event('withdrawal', '12000.00')] },
  pep: { list: 'pep', detail: 'Mayor of a capital (2025-2028)', reference: 'pep-1' },
  sanctions: { list: 'sanctions', detail: 'UN 1267', reference: 'un-1' },
};
/** One hit of each marker: a figure, what it was held to, the player's usual where the marker has one. */
const MARKER_FIGURES: Record<string, [string, string, string?]> = {
  deposit_escalation: ['12500.00', '3000.00', '1000.00'],
  deposit_frequency: ['14', '9.0', '3.0'],
  loss_escalation: ['8000.00', '2500.00', '500.00'],
  chasing: ['4', '3'],
  night_play: ['62', '50'],
  long_days: ['4', '3'],
  cancelled_withdrawals: ['3', '2'],
  limits_loosened: ['2', '2'],
  limits_reached: ['5', '3'],
  stake_escalation: ['250.00', '150.00', '50.00'],
  stake_variability: ['3.25', '3'],
  failed_deposits: ['6', '5'],
  payment_methods: ['4', '3'],
  reality_checks_dismissed: ['7', '5'],
  new_player_intensity: ['4.5', '3'],
};
const marker = (code: string) => {
  const [value, threshold, baseline] = MARKER_FIGURES[code]!;
  return {
    marker: code,
    weight: 2,
    value,
    threshold,
    ...(baseline ? { baseline } : {}),
    from: '2026-11-14',
    to: '2026-11-20',
    summary: 'the service wrote this',
  };
};

/** English words no Portuguese sentence holds, and the reverse. */
const OTHER = {
  pt: /\b(of|within|deposits?|withdrawals?|the|player|over|under|stakes?|loss|and|or more|refused)\b/i,
  en: /\b(de|depósitos?|saques?|apostador|ou mais|acima|perda|recusado|apostas?)\b/i,
};
const UNFORMATTED = /(?<![\d.,])\d+\.\d{2}(?!\d)/;

for (const lang of ['pt', 'en'] as const) {
  t.test(`every rule and marker in ${lang}, from its figures`, async (t) => {
    chosen = lang;
    for (const rule of AML_RULES) {
      const facts = EVIDENCE[rule];
      t.ok(facts, `${rule}: a fixture`);
      const words = amlEvidenceWords({ rule, eventId: 'evt_1', at, summary: 'the service wrote this', facts });
      t.notOk(words.verbatim, `${rule}: written, not the service's sentence`);
      t.notMatch(words.text, OTHER[lang], `${rule}: no word of the other language (${words.text})`);
      if (lang === 'pt') t.notMatch(words.text, UNFORMATTED, `${rule}: money as Portuguese writes it`);
    }
    for (const code of HARM_MARKERS) {
      const words = harmMarkerWords(marker(code));
      t.notOk(words.verbatim, `${code}: written, not the service's sentence`);
      t.notMatch(words.text, OTHER[lang], `${code}: no word of the other language (${words.text})`);
      if (lang === 'pt') t.notMatch(words.text, UNFORMATTED, `${code}: money and ratios as Portuguese writes them`);
    }
  });
}

t.test('the sentences, word for word', async (t) => {
  chosen = 'pt';
  const nbsp = (s: string) => s.replace(/\u00a0/g, ' ');
  t.equal(
    nbsp(amlEvidenceWords({ rule: 'in_and_out', eventId: 'e', at, summary: '', facts: { ...inAndOut, leaving: 'paused' } }).text),
    'Saque de R$ 3.900,00 até 48 h depois de depósitos de R$ 4.000,00, com apostas de R$ 0,00 (menos de 30%); esperado: o apostador está em pausa',
  );
  t.equal(
    nbsp(amlEvidenceWords({ rule: 'shared_destination', eventId: 'e', at, summary: '', facts: EVIDENCE.shared_destination }).text),
    'Destino de pagamento já usado por 2 outros apostadores',
    'players counted once',
  );
  t.same(
    amlEvidenceWords({ rule: 'pep', eventId: 'e', at, summary: '', facts: EVIDENCE.pep }),
    { text: 'Pessoa politicamente exposta', quoted: 'Mayor of a capital (2025-2028)' },
    "the list's entry quoted as written",
  );
  t.equal(nbsp(harmMarkerWords(marker('stake_variability')).text), 'Apostas variando 3,25 vezes a sua média (3 ou mais)');
  chosen = 'en';
  t.equal(
    nbsp(
      amlEvidenceWords({
        rule: 'high_value',
        eventId: 'e',
        at,
        summary: '',
        facts: { threshold: '50000.00', hours: 48, win: { amount: '60000.00' }, events: [event('withdrawal', '100.00')] },
      }).text,
    ),
    'A withdrawal of R$ 100,00 within 48 h of a win of R$ 60.000,00, at or over R$ 50.000,00', // BRL as Brazil writes it, in either language
  );
  t.equal(nbsp(harmMarkerWords(marker('deposit_frequency')).text), "14 deposits; 9 or more by the player's usual (3)");
});

t.test("a record whose figures cannot be read: the service's sentence, as written", async (t) => {
  chosen = 'pt';
  t.same(amlEvidenceWords({ rule: 'in_and_out', eventId: 'e', at, summary: 'withdrawal of 10.00', facts: { events: [] } }), {
    verbatim: 'withdrawal of 10.00',
  });
  t.same(
    amlEvidenceWords({ rule: 'high_value', eventId: 'e', at, summary: 'x', facts: { threshold: '1.00', events: [event('bet', '2.00')] } }),
    { verbatim: 'x' },
    'an event of no known kind',
  );
  t.same(
    amlEvidenceWords({ rule: 'in_and_out', eventId: 'e', at, summary: 'y', facts: { ...inAndOut, leaving: 'moved_abroad' } }),
    { verbatim: 'y' },
    'a reason it has no words for',
  );
  const { baseline: _, ...noBaseline } = marker('loss_escalation');
  t.same(harmMarkerWords(noBaseline), { verbatim: 'the service wrote this' }, "a marker that compares with the player's usual, without it");
  t.same(harmMarkerWords({ ...marker('chasing'), marker: 'a_marker_of_tomorrow' }), { verbatim: 'the service wrote this' });
  const withoutHours = amlEvidenceWords({ rule: 'split_deposits', eventId: 'e', at, summary: '', facts: { ...EVIDENCE.split_deposits, hours: undefined } });
  t.equal(
    withoutHours.text.replace(/\u00a0/g, ' '),
    '5 depósitos, cada um entre R$ 9.000,00 e R$ 10.000,00, somando R$ 47.500,00',
    'a record from before its hours were kept',
  );
});
