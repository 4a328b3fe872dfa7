// What a rule or a marker saw, written in the person's language from the figures it recorded (issue #70):
// an AML rule's evidence from its `facts`, a harm marker from its value, threshold and baseline. The
// service's own `summary` is an English sentence with its amounts as the database holds them ("withdrawal
// of 3900.00 within 48 h…"); it stays in the API and the regulator's files, and is shown here only for a
// record whose figures this module cannot read (an older shape, a rule it does not know).
import { count, label, language, money, say } from './language.js';

/** The kinds of a money event, in the plural (the singular is language.js's `label`). */
const KINDS = {
  deposit: ['Depósitos', 'Deposits'],
  withdrawal: ['Saques', 'Withdrawals'],
};
const LEAVING = {
  self_excluded: ['o apostador se autoexcluiu', 'the player is self-excluded'],
  paused: ['o apostador está em pausa', 'the player is paused'],
  impeded: ['o apostador está restrito por um impedimento', 'the player is restricted by an impediment'],
};
const pick = (pair) => (pair ? pair[language() === 'pt' ? 0 : 1] : undefined);
const has = (...values) => values.every((v) => v !== undefined && v !== null && v !== '');

/** Each rule's sentence from its facts; undefined when a figure it needs is missing. */
const RULES = {
  high_value(f) {
    const event = f.events?.[0];
    if (!has(event?.amount, f.threshold)) return undefined;
    if (f.win) {
      if (!has(f.win.amount)) return undefined;
      const within = has(f.hours) ? say(` até ${count(f.hours)} h depois`, ` within ${count(f.hours)} h`) : say(' depois', ' after');
      return say(
        `Saque de ${money(event.amount)}${within} de um ganho de ${money(f.win.amount)}, de ${money(f.threshold)} ou mais`,
        `A withdrawal of ${money(event.amount)}${within} of a win of ${money(f.win.amount)}, at or over ${money(f.threshold)}`,
      );
    }
    if (!Object.hasOwn(KINDS, event.type)) return undefined;
    const kind = label(event.type);
    return say(`${kind} de ${money(event.amount)}, de ${money(f.threshold)} ou mais`, `${kind} of ${money(event.amount)}, at or over ${money(f.threshold)}`);
  },
  split_deposits(f) {
    if (!has(f.count, f.floor, f.threshold, f.total)) return undefined;
    const within = has(f.hours) ? say(` em ${count(f.hours)} h`, ` in ${count(f.hours)} h`) : '';
    return say(
      `${count(f.count)} depósitos${within}, cada um entre ${money(f.floor)} e ${money(f.threshold)}, somando ${money(f.total)}`,
      `${count(f.count)} deposits${within}, each between ${money(f.floor)} and ${money(f.threshold)}, together ${money(f.total)}`,
    );
  },
  in_and_out(f) {
    const out = [...(f.events ?? [])].reverse().find((e) => e.type === 'withdrawal');
    if (!has(out?.amount, f.deposited, f.stakes, f.stakePercentBar)) return undefined;
    const within = has(f.hours) ? say(` até ${count(f.hours)} h depois`, ` within ${count(f.hours)} h`) : say(' depois', ' after');
    let text = say(
      `Saque de ${money(out.amount)}${within} de depósitos de ${money(f.deposited)}, com apostas de ${money(f.stakes)} (menos de ${count(f.stakePercentBar)}%)`,
      `A withdrawal of ${money(out.amount)}${within} of deposits of ${money(f.deposited)}, with stakes of ${money(f.stakes)} (under ${count(f.stakePercentBar)}%)`,
    );
    if (has(f.cashedOut, f.partialPercentBar))
      text += say(
        `; um saque parcial: ${money(f.cashedOut)} de ${money(f.deposited)} (no máximo ${count(f.partialPercentBar)}%), da conta do próprio apostador para ela`,
        `; a partial cash-out: ${money(f.cashedOut)} of ${money(f.deposited)} (at most ${count(f.partialPercentBar)}%), to and from the player's own account`,
      );
    if (f.leaving) {
      const why = pick(LEAVING[f.leaving]);
      if (!why) return undefined;
      text += say(`; esperado: ${why}`, `; expected: ${why}`);
    }
    return text;
  },
  velocity(f) {
    const kinds = pick(KINDS[f.kind ?? f.events?.[0]?.type]);
    if (!kinds || !has(f.recent, f.factor, f.dailyAverage)) return undefined;
    return say(
      `${kinds} de ${money(f.recent)} em 24 h: ${count(f.factor)}× ou mais a média diária de ${money(f.dailyAverage)} nos 30 dias anteriores`,
      `${kinds} of ${money(f.recent)} in 24 h: ${count(f.factor)}× or more the daily average of ${money(f.dailyAverage)} over the 30 days before`,
    );
  },
  shared_destination(f) {
    if (!Array.isArray(f.otherPlayers)) return undefined;
    const n = new Set(f.otherPlayers.map((o) => o.playerId)).size;
    return n === 1
      ? say('Destino de pagamento já usado por outro apostador', 'A payout destination already used by another player')
      : say(`Destino de pagamento já usado por ${count(n)} outros apostadores`, `A payout destination already used by ${count(n)} other players`);
  },
  payer_mismatch(f) {
    const event = f.events?.[0];
    if (!has(event?.amount)) return undefined;
    return say(
      `Depósito de ${money(event.amount)} recusado: o pagador não era o apostador`,
      `A deposit of ${money(event.amount)} refused: the payer was not the player`,
    );
  },
};

/** The lists' hits: our words, then the list's own entry (the list's text, as it wrote it). */
const LISTS = {
  pep: ['Pessoa politicamente exposta', 'Politically exposed person'],
  sanctions: ['Em uma lista de sanções', 'On a sanctions list'],
};

/**
 * An AML evidence's sentence: `{ text, quoted }`, `quoted` being a list's own words to show as
 * written; `{ verbatim }` (the service's English sentence) when its figures cannot be read.
 */
export function amlEvidenceWords(e) {
  const facts = e.facts ?? {};
  if (LISTS[e.rule]) return { text: pick(LISTS[e.rule]), quoted: facts.detail ?? undefined };
  const text = RULES[e.rule]?.(facts);
  return text ? { text } : { verbatim: e.summary };
}

/** Each marker's sentence from what it measured (`v`), what it was held to (`t`) and the player's usual (`b`). */
const MARKERS = {
  deposit_escalation: (v, t, b) =>
    say(
      `Depósitos de ${money(v)}, acima de ${money(t)} (o usual do apostador: ${money(b)})`,
      `Deposits of ${money(v)}, over ${money(t)} (the player's usual: ${money(b)})`,
    ),
  deposit_frequency: (v, t, b) =>
    say(
      `${count(v)} depósitos; ${count(t)} ou mais pelo usual do apostador (${count(b)})`,
      `${count(v)} deposits; ${count(t)} or more by the player's usual (${count(b)})`,
    ),
  loss_escalation: (v, t, b) =>
    say(
      `Perda líquida de ${money(v)}, acima de ${money(t)} (o usual do apostador: ${money(b)})`,
      `A net loss of ${money(v)}, over ${money(t)} (the player's usual: ${money(b)})`,
    ),
  chasing: (v, t) =>
    say(
      `${count(v)} depósitos logo após jogo que terminou em perda (${count(t)} ou mais)`,
      `${count(v)} deposits soon after play that ended in a loss (${count(t)} or more)`,
    ),
  night_play: (v, t) =>
    say(
      `${count(v)}% dos minutos jogados entre 00:00 e 06:00 (${count(t)}% ou mais)`,
      `${count(v)}% of the minutes played between 00:00 and 06:00 (${count(t)}% or more)`,
    ),
  long_days: (v, t) => say(`${count(v)} dias de jogo longo (${count(t)} ou mais)`, `${count(v)} long days of play (${count(t)} or more)`),
  cancelled_withdrawals: (v, t) =>
    say(`${count(v)} saques cancelados pelo apostador (${count(t)} ou mais)`, `${count(v)} withdrawals cancelled by the player (${count(t)} or more)`),
  limits_loosened: (v, t) =>
    say(`${count(v)} limites aumentados ou removidos (${count(t)} ou mais)`, `${count(v)} limits raised or removed (${count(t)} or more)`),
  limits_reached: (v, t) =>
    say(
      `${count(v)} recusas pelos próprios limites do apostador (${count(t)} ou mais)`,
      `${count(v)} refusals by the player's own limits (${count(t)} or more)`,
    ),
  stake_escalation: (v, t, b) =>
    say(
      `Aposta média de ${money(v)}, ${money(t)} ou mais (o usual do apostador: ${money(b)})`,
      `A mean stake of ${money(v)}, ${money(t)} or more (the player's usual: ${money(b)})`,
    ),
  stake_variability: (v, t) =>
    say(`Apostas variando ${count(v)} vezes a sua média (${count(t)} ou mais)`, `Stakes varying ${count(v)} times their mean (${count(t)} or more)`),
  failed_deposits: (v, t) =>
    say(`${count(v)} depósitos recusados ou com falha (${count(t)} ou mais)`, `${count(v)} deposits declined or failed (${count(t)} or more)`),
  payment_methods: (v, t) =>
    say(`Depósitos por ${count(v)} meios de pagamento (${count(t)} ou mais)`, `Deposits through ${count(v)} payment methods (${count(t)} or more)`),
  reality_checks_dismissed: (v, t) =>
    say(
      `${count(v)} alertas de tempo de jogo dispensados para seguir jogando (${count(t)} ou mais)`,
      `${count(v)} reality checks acknowledged to play on (${count(t)} or more)`,
    ),
  new_player_intensity: (v, t) =>
    say(
      `Novo apostador, intenso desde o início: a aposta média subiu ${count(v)}× (${count(t)}× ou mais)`,
      `A player new to us, intense from the start: the mean stake up ${count(v)}× (${count(t)}× or more)`,
    ),
};
/** The markers that compare the player with their own usual: without it, their sentence cannot be written. */
const WITH_BASELINE = new Set(['deposit_escalation', 'deposit_frequency', 'loss_escalation', 'stake_escalation']);

/** A harm marker's sentence: `{ text }`, or `{ verbatim }` (the service's English sentence) for one it cannot write. */
export function harmMarkerWords(m) {
  const write = MARKERS[m.marker];
  if (!write || !has(m.value, m.threshold) || (WITH_BASELINE.has(m.marker) && !has(m.baseline))) return { verbatim: m.summary };
  return { text: write(m.value, m.threshold, m.baseline) };
}
