// Players at risk of harm (compliance; issue #68 item 3; docs/player-protection.md, "Our team's cases").
// The queue: one line per case, the riskiest first (level, then score, then the recent deposits, then
// the one waiting longest), the player by name, the level, the markers, the recent deposits, the
// interactions and the follow-up date; production unless the switch says the sandbox; open, closed, or
// only the open ones whose follow-up is due. A case's own page (`/harm?case=ID`): each marker with what it
// measured against what it was held to, the player's changes of level, the interactions, the form to
// record one (the operator's message names its id), the measures taken from the case with the form to take
// one (a pause, a stricter limit, a reality check more often, a recommendation to self-exclude) and the
// closing with the outcome seen.
import { useState } from 'preact/hooks';
import {
  html,
  api,
  query,
  useLoad,
  useAction,
  useEnvironment,
  Loaded,
  ErrorNote,
  OperatorBrand,
  ZonedTime,
  Day,
  money,
  person,
  label,
  say,
  may,
  count,
  SawWords,
  decimalTyped,
} from './kit.js';
import { harmMarkerWords } from './evidence-words.js';

/** The queue's tabs: the case's status, and the open cases whose follow-up date has come. */
const TABS = () => [
  ['open', say('Abertos', 'Open')],
  ['due', say('Acompanhamento vencido', 'Follow-up due')],
  ['closed', say('Encerrados', 'Closed')],
];
/** The channels a person records by hand (`measure` is the case's own record of a measure taken). */
const CHANNELS = ['operator_message', 'phone', 'email', 'chat', 'note'];
const MEASURES = ['pause', 'stricter_limit', 'reality_check', 'recommend_self_exclusion'];
const OUTCOMES = ['play_reduced', 'play_unchanged', 'self_excluded', 'not_at_risk', 'unreachable'];
/** The markers whose figures are amounts (the others count, or are a percent or a ratio). */
const IN_MONEY = new Set(['deposit_escalation', 'loss_escalation', 'stake_escalation']);
/** A marker's figure as the person's language writes it. */
const figure = (marker, value) => {
  if (value === undefined || value === null) return '—';
  if (IN_MONEY.has(marker)) return money(value);
  return marker === 'night_play' ? `${count(value)}%` : count(value);
};
const caseLink = (id) => `/harm${query({ case: id })}`;
const statusWord = (status) => (status === 'open' ? say('Aberto', 'Open') : say('Encerrado', 'Closed'));
const Level = ({ level }) => html`<strong class=${`risk risk-${level}`} data-level=${level}>${label(level)}</strong>`;
const PlayerCell = ({ c }) =>
  html`<a href=${caseLink(c.id)} title=${c.playerId} data-player-name>${c.playerName ?? html`<span class="muted">${say('sem nome ainda', 'no name yet')}</span>`}</a>`;

/** Each marker that fired: what it measured, what it was held to, the player's own usual, its days, and that in a sentence. */
function Markers({ markers }) {
  if (markers.length === 0) return html`<p class="empty">${say('Nenhum marcador no momento.', 'No marker now.')}</p>`;
  return html`<table class="stack markers"><thead><tr><th>${say('Marcador', 'Marker')}</th><th class="num">${say('Medido', 'Measured')}</th><th class="num">${say('Limiar', 'Threshold')}</th><th class="num">${say('Usual do apostador', "Player's usual")}</th><th>${say('Dias', 'Days')}</th><th>${say('O que viu', 'What it saw')}</th></tr></thead>
    <tbody>${markers.map(
      (m) => html`<tr data-marker=${m.marker}>
        <td data-label=${say('Marcador', 'Marker')}><strong>${label(m.marker)}</strong> <small class="muted">${say(`peso ${m.weight}`, `weight ${m.weight}`)}</small></td>
        <td data-label=${say('Medido', 'Measured')} class="num">${figure(m.marker, m.value)}</td>
        <td data-label=${say('Limiar', 'Threshold')} class="num">${figure(m.marker, m.threshold)}</td>
        <td data-label=${say('Usual do apostador', "Player's usual")} class="num">${figure(m.marker, m.baseline)}</td>
        <td data-label=${say('Dias', 'Days')}><${Day} date=${m.from} /> – <${Day} date=${m.to} /></td>
        <td data-label=${say('O que viu', 'What it saw')}><${SawWords} words=${harmMarkerWords(m)} /></td>
      </tr>`,
    )}</tbody></table>`;
}

function Interactions({ items }) {
  if (items.length === 0) return html`<p class="empty">${say('Nenhuma interação registrada ainda.', 'No interaction recorded yet.')}</p>`;
  return html`<ol class="interactions">${items.map(
    (
      i,
    ) => html`<li data-interaction=${i.id}><strong>${label(i.channel)}</strong>${i.operatorMessageId ? html` <code title=${say('id da mensagem do operador', "the operator's message id")}>${i.operatorMessageId}</code>` : null}
      ${' '}${say('por', 'by')} ${person(i.by)} <span class="muted"><${ZonedTime} iso=${i.at} /></span> — <q data-verbatim>${i.summary}</q>${
        i.followUpOn ? html` · ${say('acompanhar em', 'follow up on')} <${Day} date=${i.followUpOn} />` : null
      }</li>`,
  )}</ol>`;
}

function RecordInteraction({ c, onDone }) {
  const action = useAction();
  const [channel, setChannel] = useState('operator_message');
  const submit = async (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const body = { channel, summary: form.summary.value.trim() };
    if (channel === 'operator_message') body.operatorMessageId = form.operatorMessageId.value.trim();
    if (form.followUpOn.value) body.followUpOn = form.followUpOn.value;
    if (await action.run(() => api('POST', `/admin/harm/cases/${encodeURIComponent(c.id)}/interactions`, body))) {
      form.reset();
      onDone();
    }
  };
  return html`<form class="stacked" aria-label=${say('Registrar uma interação', 'Record an interaction')} onSubmit=${submit} data-record-interaction>
    <label>${say('Canal', 'Channel')} <select name="channel" onChange=${(e) => setChannel(e.currentTarget.value)}>${CHANNELS.map(
      (ch) => html`<option value=${ch} selected=${ch === channel}>${label(ch)}</option>`,
    )}</select></label>
    ${channel === 'operator_message' ? html`<label>${say('Id da mensagem do operador', "The operator's message id")} <input name="operatorMessageId" required maxlength="200" /></label>` : null}
    <label>${say('O que foi dito ou feito', 'What was said or done')} <textarea name="summary" required minlength="3" maxlength="2000"></textarea></label>
    <label>${say('Acompanhar em', 'Follow up on')} <input type="date" name="followUpOn" min=${new Date().toISOString().slice(0, 10)} /></label>
    <button type="submit" disabled=${action.busy}>${say('Registrar', 'Record')}</button>
    <${ErrorNote} error=${action.error} />
  </form>`;
}

/** What a measure set, in the person's language: the pause's end, the limit, the reality check's interval. */
function MeasureDetail({ m }) {
  const d = m.detail;
  if (m.measure === 'pause') return html`${say('até', 'until')} <${ZonedTime} iso=${d.until} />`;
  if (m.measure === 'reality_check') return say(`a cada ${d.minutes} min`, `every ${d.minutes} min`);
  if (m.measure === 'stricter_limit') return `${label(d.type)} / ${label(d.period)}: ${d.type === 'time' ? `${count(d.value)} min` : money(d.value)}`;
  return '';
}

function Measures({ items }) {
  if (items.length === 0) return html`<p class="empty">${say('Nenhuma medida tomada ainda.', 'No measure taken yet.')}</p>`;
  return html`<ol class="measures">${items.map(
    (
      m,
    ) => html`<li data-measure=${m.measure} data-measure-status=${m.status}><strong>${label(m.measure)}</strong> <${MeasureDetail} m=${m} /> · ${label(m.status)}
      ${' '}${say('por', 'by')} ${person(m.by)} <span class="muted"><${ZonedTime} iso=${m.requestedAt} /></span> — <q data-verbatim>${m.reason}</q>${
        m.refusal ? html` · <q data-verbatim lang="en" title=${say('como as regras o escreveram', 'as the rules wrote it')}>${m.refusal.message}</q>` : null
      }</li>`,
  )}</ol>`;
}

/** A measure from the case: applied by the player's own rules (never looser, never shorter), recorded in the case at once. */
function TakeMeasure({ c, onDone }) {
  const action = useAction();
  const [measure, setMeasure] = useState('pause');
  const [type, setType] = useState('deposit');
  const dayAhead = (days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const submit = async (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const body = { measure, reason: form.reason.value.trim() };
    if (measure === 'pause') body.until = new Date(`${form.until.value}T00:00:00`).toISOString();
    if (measure === 'stricter_limit') {
      body.type = type;
      body.period = form.period.value;
      body.value = type === 'time' ? Number(form.value.value) : decimalTyped(form.value.value);
    }
    if (measure === 'reality_check') body.minutes = Number(form.minutes.value);
    if (form.followUpOn.value) body.followUpOn = form.followUpOn.value;
    if (await action.run(() => api('POST', `/admin/harm/cases/${encodeURIComponent(c.id)}/measures`, body))) {
      form.reset();
      onDone();
    }
  };
  return html`<form class="stacked" aria-label=${say('Tomar uma medida', 'Take a measure')} onSubmit=${submit} data-take-measure>
    <label>${say('Medida', 'Measure')} <select name="measure" onChange=${(e) => setMeasure(e.currentTarget.value)}>${MEASURES.map(
      (m) => html`<option value=${m} selected=${m === measure}>${label(m)}</option>`,
    )}</select></label>
    ${measure === 'pause' ? html`<label>${say('Pausar até', 'Pause until')} <input type="date" name="until" required min=${dayAhead(2)} max=${dayAhead(42)} /></label>` : null}
    ${
      measure === 'stricter_limit'
        ? html`<label>${say('Limite', 'Limit')} <select name="type" onChange=${(e) => setType(e.currentTarget.value)}>${[
            'deposit',
            'loss',
            'wager',
            'time',
          ].map((ty) => html`<option value=${ty} selected=${ty === type}>${label(ty)}</option>`)}</select></label>
      <label>${say('Período', 'Period')} <select name="period">${['day', 'week', 'month'].map((pe) => html`<option value=${pe}>${label(pe)}</option>`)}</select></label>
      <label>${type === 'time' ? say('Minutos', 'Minutes') : say('Valor (R$)', 'Amount (R$)')} <input name="value" required inputmode="decimal" maxlength="20" /></label>`
        : null
    }
    ${measure === 'reality_check' ? html`<label>${say('Alerta de realidade a cada (minutos)', 'Reality check every (minutes)')} <input type="number" name="minutes" required min="1" max="1440" /></label>` : null}
    ${
      measure === 'recommend_self_exclusion'
        ? html`<p class="muted">${say(
            'O operador recebe a recomendação (webhook) e a leva ao apostador, com a sua autoexclusão e a plataforma central da SPA.',
            "The operator receives the recommendation (a webhook) and takes it to the player, with its self-exclusion and the SPA's central platform.",
          )}</p>`
        : null
    }
    <label>${say('Motivo', 'Reason')} <textarea name="reason" required minlength="3" maxlength="500"></textarea></label>
    <label>${say('Acompanhar em', 'Follow up on')} <input type="date" name="followUpOn" min=${new Date().toISOString().slice(0, 10)} /></label>
    <button type="submit" disabled=${action.busy}>${say('Tomar a medida', 'Take the measure')}</button>
    <${ErrorNote} error=${action.error} />
  </form>`;
}

function CloseCase({ c, onDone }) {
  const action = useAction();
  const submit = async (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const body = { outcome: form.outcome.value, reason: form.reason.value.trim() };
    if (await action.run(() => api('POST', `/admin/harm/cases/${encodeURIComponent(c.id)}/close`, body))) onDone();
  };
  return html`<form class="stacked" aria-label=${say('Encerrar o caso', 'Close the case')} onSubmit=${submit} data-close-case>
    <label>${say('O que se viu depois', 'What was seen afterwards')} <select name="outcome">${OUTCOMES.map((o) => html`<option value=${o}>${label(o)}</option>`)}</select></label>
    <label>${say('Motivo', 'Reason')} <textarea name="reason" required minlength="3" maxlength="2000"></textarea></label>
    <button type="submit" disabled=${action.busy}>${say('Encerrar', 'Close')}</button>
    <${ErrorNote} error=${action.error} />
  </form>`;
}

function CasePage({ id }) {
  const full = useLoad(() => api('GET', `/admin/harm/cases/${encodeURIComponent(id)}`), [id]);
  return html`<${Loaded} state=${full}>${(c) => html`<article data-harm-case=${c.id} data-status=${c.status}>
      <p><a href="/harm">${say('← Fila', '← Queue')}</a></p>
      <h2><${PlayerCell} c=${c} /> · <${Level} level=${c.level} /> · ${statusWord(c.status)}</h2>
      <p><${OperatorBrand} player=${c} /> · ${say('pontos', 'score')} ${c.score} · ${say('depósitos recentes', 'recent deposits')} ${money(c.recentDeposits)} · ${say('avaliado em', 'assessed on')} <${Day} date=${c.assessedOn} />
        ${' '}· ${say('aberto', 'opened')} <${ZonedTime} iso=${c.openedAt} /> · <a href=${`/players?id=${encodeURIComponent(c.playerId)}`}>${say('ver apostador (limites, pausa)', 'open the player (limits, pause)')}</a></p>
      ${
        c.status === 'closed'
          ? html`<p class="note" data-outcome=${c.outcome}>${say('Encerrado', 'Closed')}: <strong>${label(c.outcome)}</strong> ${say('por', 'by')} ${person(c.closedBy)} <span class="muted"><${ZonedTime} iso=${c.closedAt} /></span> — <q data-verbatim>${c.closeReason}</q></p>`
          : c.followUpOn
            ? html`<p>${say('Acompanhar em', 'Follow up on')} <${Day} date=${c.followUpOn} /></p>`
            : null
      }
      <section><h3>${say('Marcadores', 'Markers')}</h3><${Markers} markers=${c.markers} /></section>
      <section><h3>${say('Mudanças de nível', 'Changes of level')}</h3><ol>${c.levelChanges.map(
        (ch) =>
          html`<li>${label(ch.from)} → <${Level} level=${ch.to} /> <span class="muted"><${ZonedTime} iso=${ch.at} /></span>${
            ch.added.length ? html` · ${say('vieram', 'came')}: ${ch.added.map(label).join(', ')}` : null
          }${ch.removed.length ? html` · ${say('saíram', 'went')}: ${ch.removed.map(label).join(', ')}` : null}</li>`,
      )}</ol></section>
      <section><h3>${say('Interações', 'Interactions')}</h3><${Interactions} items=${c.interactionLog} /></section>
      <section><h3>${say('Medidas', 'Measures')}</h3><${Measures} items=${c.measures} /></section>
      ${
        c.status === 'open' && may('compliance')
          ? html`<section><h3>${say('Nova interação', 'New interaction')}</h3><${RecordInteraction} c=${c} onDone=${full.reload} /></section>
        <section><h3>${say('Nova medida', 'New measure')}</h3><${TakeMeasure} c=${c} onDone=${full.reload} /></section>
        <section><h3>${say('Encerrar', 'Close')}</h3><${CloseCase} c=${c} onDone=${full.reload} /></section>`
          : null
      }
    </article>`}<//>`;
}

function Queue() {
  const { environment, toggle } = useEnvironment();
  const [tab, setTab] = useState(new URLSearchParams(location.search).get('status') ?? 'open');
  const [cursor, setCursor] = useState(undefined);
  const choose = (t) => {
    setCursor(undefined);
    setTab(t);
  };
  const filter = tab === 'due' ? { status: 'open', followUp: 'due' } : { status: tab };
  const queue = useLoad(() => api('GET', `/admin/harm/cases${query({ ...filter, environment, cursor, limit: 25 })}`), [tab, environment, cursor]);
  return html`<div>
    <p>${say(
      'Apostadores cujo nível de risco de dano chegou a alto: o mais arriscado primeiro. Registre cada interação e encerre o caso com o que se viu depois.',
      'Players whose level of risk of harm reached high: the riskiest first. Record each interaction and close the case with what was seen afterwards.',
    )}</p>
    ${toggle}
    <div class="toolbar" role="group" aria-label=${say('Situação do caso', 'Case status')}>${TABS().map(
      ([t, text]) => html`<button type="button" aria-pressed=${t === tab} data-status=${t} onClick=${() => choose(t)}>${text}</button>`,
    )}</div>
    <${Loaded} state=${queue}>${(page) => html`
      ${
        page.data.length === 0
          ? html`<p class="empty">${say('Nenhum caso aqui.', 'No case here.')}</p>`
          : html`<table class="stack harm-cases"><thead><tr><th>${say('Nível', 'Level')}</th><th>${say('Apostador', 'Player')}</th><th class="num">${say('Depósitos recentes', 'Recent deposits')}</th><th>${say('Marcadores', 'Markers')}</th><th>${say('Operador / marca', 'Operator / brand')}</th><th>${say('Aberto', 'Opened')}</th><th class="num">${say('Interações', 'Interactions')}</th><th>${say('Acompanhar em', 'Follow up on')}</th><th>${say('Situação', 'Status')}</th></tr></thead>
        <tbody>${page.data.map(
          (c) => html`<tr data-harm-case-row=${c.id} data-level=${c.level} data-environment=${c.environment}>
            <td data-label=${say('Nível', 'Level')}><${Level} level=${c.level} /> <small class="muted">${c.score}</small></td>
            <td data-label=${say('Apostador', 'Player')}><${PlayerCell} c=${c} /></td>
            <td data-label=${say('Depósitos recentes', 'Recent deposits')} class="num">${money(c.recentDeposits)}</td>
            <td data-label=${say('Marcadores', 'Markers')}><a href=${caseLink(c.id)}>${c.markers.map((m) => label(m.marker)).join(', ')}</a></td>
            <td data-label=${say('Operador / marca', 'Operator / brand')}><${OperatorBrand} player=${c} /></td>
            <td data-label=${say('Aberto', 'Opened')}><${ZonedTime} iso=${c.openedAt} /></td>
            <td data-label=${say('Interações', 'Interactions')} class="num">${c.interactions}</td>
            <td data-label=${say('Acompanhar em', 'Follow up on')}>${c.followUpOn ? html`<${Day} date=${c.followUpOn} />` : '—'}</td>
            <td data-label=${say('Situação', 'Status')}>${c.status === 'closed' ? label(c.outcome) : statusWord(c.status)}</td>
          </tr>`,
        )}</tbody></table>`
      }
      ${page.nextCursor ? html`<button type="button" onClick=${() => setCursor(page.nextCursor)}>${say('Próxima página', 'Next page')}</button>` : null}
    `}<//>
  </div>`;
}

export function HarmPage() {
  const id = new URLSearchParams(location.search).get('case');
  return id ? html`<${CasePage} id=${id} />` : html`<${Queue} />`;
}
