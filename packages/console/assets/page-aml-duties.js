// AML beyond the players (compliance; issue #46, docs/aml.md), parts of the AML page: a case's COS
// deadline (decided by whom and when, due when in the brand's time zone, the time left or how late)
// and the decision to report it (not by its reviewer); the COS awaiting filing (`/aml?view=cos`); the
// risk register of team members, partners and suppliers with the reviews past due first
// (`/aml?view=register`, one subject at `&subject=ID`: its ratings, a review, its end); and the yearly
// reports to the SPA per operator (`/aml?view=annual`): due dates, state, made and downloaded with
// their SHA-256.
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
  time,
  utcTime,
  zoneName,
  me,
  may,
  money,
  cpf,
  cnpj,
  day,
  person,
  label,
  say,
  locale,
} from './kit.js';

/** Seconds as our team reads a deadline: "1 d 4 h", "3 h 20 min", "12 min". */
export function duration(seconds) {
  const s = Math.abs(seconds);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return d ? `${d} d ${h} h` : h ? `${h} h ${m} min` : `${m} min`;
}

const COS_STATE = {
  due: (c) => say(`restam ${duration(c.secondsLeft)}`, `${duration(c.secondsLeft)} left`),
  near: (c) => say(`restam ${duration(c.secondsLeft)} — envie agora`, `${duration(c.secondsLeft)} left — file it now`),
  overdue: (c) => say(`vencida há ${duration(c.secondsLeft)}`, `overdue by ${duration(c.secondsLeft)}`),
  filed: () => say('enviada no prazo', 'filed on time'),
  filed_late: () => say('enviada com atraso', 'filed late'),
};
/** A COS's state in one line (the queue's cell, the case's badge). */
export const CosLeft = ({ cos }) =>
  cos ? html`<span class=${`cos cos-${cos.state}`} data-cos-state=${cos.state}>${COS_STATE[cos.state]?.(cos) ?? cos.state}</span>` : null;

/**
 * A case's 30-day analysis clock (issue #60 item 5; Portaria SPA/MF 1.143/2024, docs/aml.md "The
 * analysis clock"): the time left while it runs, marked when near (less than the service's margin
 * left) or overdue; once concluded, in time or late. The due time in the brand's zone on hover.
 */
const ANALYSIS_STATE = {
  due: (a) => say(`${duration(a.secondsLeft)} para concluir`, `${duration(a.secondsLeft)} left`),
  near: (a) => say(`${duration(a.secondsLeft)} para concluir — perto do prazo`, `${duration(a.secondsLeft)} left — near its deadline`),
  overdue: (a) => say(`vencida há ${duration(a.secondsLeft)}`, `overdue by ${duration(a.secondsLeft)}`),
  concluded: () => say('concluída no prazo', 'concluded in time'),
  concluded_late: () => say('concluída com atraso', 'concluded late'),
};
export const AnalysisLeft = ({ analysis, zone }) =>
  analysis
    ? html`<span class=${`cos analysis cos-${analysis.state === 'concluded_late' ? 'filed_late' : analysis.state}`} data-analysis-state=${analysis.state}
        title=${`${say('Prazo da análise', 'Analysis due')} ${time(analysis.dueAt, zone)}`}>${ANALYSIS_STATE[analysis.state]?.(analysis) ?? analysis.state}</span>`
    : null;

/** The analysis clock on a case's page: started when, due when, and the time left or how it ended. */
export function AnalysisClock({ c }) {
  const a = c.analysis;
  if (!a) return null;
  return html`<section aria-label="Analysis clock" data-analysis=${a.state}>
    <h3>${say('Prazo de análise (30 dias)', 'Analysis deadline (30 days)')}</h3>
    <p>${say('Iniciada', 'Started')} <${ZonedTime} iso=${a.startedAt} zone=${c.timeZone} /> · ${say('prazo', 'due')} <strong><${ZonedTime} iso=${a.dueAt} zone=${c.timeZone} /></strong> · <${AnalysisLeft} analysis=${a} zone=${c.timeZone} />
      ${a.concludedAt ? html` · ${say('concluída', 'concluded')} <${ZonedTime} iso=${a.concludedAt} zone=${c.timeZone} />` : null}</p>
    ${
      a.state === 'near' || a.state === 'overdue'
        ? html`<p class="note" data-analysis-warning>${say(
            'Conclua a análise: decida comunicar à COAF ou arquivar com o motivo (Portaria SPA/MF 1.143/2024).',
            'Conclude the analysis: decide to report it to COAF or dismiss it with a reason (Portaria SPA/MF 1.143/2024).',
          )}</p>`
        : null
    }
  </section>`;
}

/**
 * A deadline at the end of a day (the COS's: the next business day's end, midnight after it) as people
 * say it: "by the end of 27/11/2026" in the brand's zone, not "28/11 00:00"; the UTC time on hover.
 */
export function EndOfDay({ iso, zone }) {
  const at = new Date(iso);
  const hm = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: zone });
  if (hm !== '00:00') return html`<${ZonedTime} iso=${iso} zone=${zone} />`;
  const lastDay = new Date(at.getTime() - 1).toLocaleDateString(locale(), { dateStyle: 'short', timeZone: zone });
  return html`<time datetime=${iso} title=${utcTime(iso)} data-end-of-day>${say(`até o fim de ${lastDay}`, `by the end of ${lastDay}`)} ${zoneName(zone)}</time>`;
}

/** A case's COS deadline, once our team decided to report it; the decision form until then (a case under review). */
export function CosDeadline({ c, onDone }) {
  if (c.cos) {
    const k = c.cos;
    return html`<section aria-label="COS deadline" data-cos=${k.state}>
      <h3>${say('COS ao COAF', 'COS to COAF')}</h3>
      <p>${say('Decidida por', 'Decided by')} ${person(k.decidedBy)} <${ZonedTime} iso=${k.decidedAt} zone=${c.timeZone} /> — “${k.reason}”</p>
      <p>${say('Prazo', 'Due')} <strong><${EndOfDay} iso=${k.dueAt} zone=${c.timeZone} /></strong> ${say('(o fim do próximo dia útil)', '(the end of the next business day)')} · <${CosLeft} cos=${k} />
        ${k.filedAt ? html` · ${say('enviada', 'filed')} <${ZonedTime} iso=${k.filedAt} zone=${c.timeZone} />` : null}</p>
      ${
        k.filedAt
          ? null
          : html`<p class="note">${say(
              `Envie-a no Siscoaf (a COS para baixar abaixo) e registre a decisão “${label('reported')}” com o recibo.`,
              `File it in Siscoaf (the COS download below), then record the decision “${label('reported')}” with the receipt.`,
            )}</p>`
      }
    </section>`;
  }
  return c.status === 'under_review' && may('compliance') ? html`<${ReportDecision} c=${c} onDone=${onDone} />` : null;
}

function ReportDecision({ c, onDone }) {
  const action = useAction();
  const reviewedByMe = c.steps.some((s) => s.status === 'under_review' && s.by === me());
  const submit = async (e) => {
    e.preventDefault();
    const reason = e.currentTarget.reason.value.trim();
    if (await action.run(() => api('POST', `/admin/aml/cases/${encodeURIComponent(c.id)}/report-decision`, { reason }))) onDone();
  };
  return html`<form class="decide" onSubmit=${submit} aria-label=${`Decide to report case ${c.id}`}>
    <label>${say('Decidir comunicar ao COAF', 'Decide to report to COAF')} <input name="reason" required maxlength="2000" placeholder=${say(
      'por quê (a COS vence então no fim do próximo dia útil)',
      'why (the COS is then due by the end of the next business day)',
    )} /></label>
    <button type="submit" disabled=${action.busy}>${say('Decidir comunicar', 'Decide to report')}</button>
    ${
      reviewedByMe
        ? html`<p class="note">${say(
            'Quatro olhos: você colocou este caso em análise, então outra pessoa decide comunicá-lo.',
            'Four eyes: you took this case under review, so another person decides to report it.',
          )}</p>`
        : null
    }
    <${ErrorNote} error=${action.error} />
  </form>`;
}

/** The COS decided and not filed yet, the deadline nearest first: whose, how much, due when (issue #61). */
export function CosQueue() {
  const [overdue, setOverdue] = useState(false);
  const { environment, toggle } = useEnvironment();
  const list = useLoad(
    () => api('GET', `/admin/aml/cases${query({ cos: overdue ? 'overdue' : 'awaiting', order: 'oldest', environment, limit: 200 })}`),
    [overdue, environment],
  );
  return html`<div>
    <${Links} />
    ${toggle}
    <label><input type="checkbox" checked=${overdue} onChange=${(e) => setOverdue(e.currentTarget.checked)} /> ${say('só os vencidos', 'overdue only')}</label>
    <${Loaded} state=${list}>${(page) => {
      const rows = [...page.data].sort((a, b) => a.cos.dueAt.localeCompare(b.cos.dueAt));
      return rows.length === 0
        ? html`<p class="empty">${say('Nenhuma COS aguarda envio.', 'No COS waits to be filed.')}</p>`
        : html`<table class="stack cos-queue"><thead><tr><th>${say('Apostador', 'Player')}</th><th class="num">${say('Valor', 'Amount')}</th><th>${say('Operador / marca', 'Operator / brand')}</th><th>${say('Decidido por', 'Decided by')}</th><th>${say('Prazo', 'Due')}</th><th>${say('Resta', 'Left')}</th></tr></thead>
          <tbody>${rows.map(
            (c) => html`<tr data-cos-row=${c.id} data-environment=${c.environment}>
              <td data-label=${say('Apostador', 'Player')}><a href=${`/aml${query({ case: c.id })}`} title=${`${c.id} · ${c.playerId}`} data-player-name>${c.playerName ?? c.playerId}</a></td>
              <td data-label=${say('Valor', 'Amount')} class="num" data-amount=${c.amount}>${money(c.amount)}</td>
              <td data-label=${say('Operador / marca', 'Operator / brand')}><${OperatorBrand} player=${c} /></td>
              <td data-label=${say('Decidido por', 'Decided by')}>${person(c.cos.decidedBy)}</td>
              <td data-label=${say('Prazo', 'Due')} data-due><${EndOfDay} iso=${c.cos.dueAt} zone=${c.timeZone} /></td>
              <td data-label=${say('Resta', 'Left')}><${CosLeft} cos=${c.cos} /></td>
            </tr>`,
          )}</tbody></table>`;
    }}<//>
  </div>`;
}

/** The AML page's views. */
export function Links() {
  return html`<nav class="toolbar" aria-label="AML views">
    <a href="/aml">${say('Casos', 'Cases')}</a> · <a href="/aml?view=cos">${say('COS a enviar', 'COS to file')}</a> · <a href="/aml?view=register">${say(
      'Registro de riscos',
      'Risk register',
    )}</a> · <a href="/aml?view=annual">${say('Relatórios anuais', 'Yearly reports')}</a> · <a href="/aml?view=assessment">${say('Avaliação interna de risco', 'Internal risk assessment')}</a>
  </nav>`;
}

const KINDS = ['team_member', 'partner', 'supplier'];
const kindLabel = (k) => label(k);
const RATINGS = ['high', 'medium', 'low'];

function useOperatorNames() {
  const ops = useLoad(() => api('GET', '/admin/operators').then((p) => p.data));
  return { list: ops.data ?? [], name: (id) => (id ? ((ops.data ?? []).find((o) => o.id === id)?.name ?? id) : say('nosso', 'ours')) };
}

function AddSubject({ operators, onAdded }) {
  const action = useAction();
  const submit = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const v = (name) => f[name].value.trim() || undefined;
    const body = {
      kind: f.kind.value,
      name: v('name'),
      document: v('document'),
      teamMemberId: v('teamMemberId'),
      operatorId: v('operatorId'),
      rating: f.rating.value,
      rationale: v('rationale'),
    };
    if (await action.run(() => api('POST', '/admin/aml/risk-subjects', body))) {
      f.reset();
      onAdded();
    }
  };
  return html`<form class="decide" onSubmit=${submit} aria-label="Register a subject">
    <label>${say('Tipo', 'Kind')} <select name="kind">${KINDS.map((v) => html`<option value=${v}>${label(v)}</option>`)}</select></label>
    <label>${say('Nome', 'Name')} <input name="name" required maxlength="200" /></label>
    <label>CPF / CNPJ <input name="document" maxlength="18" placeholder=${say('obrigatório para parceiro ou fornecedor', 'required for a partner or supplier')} /></label>
    <label>${say('Id do membro da equipe', 'Team member id')} <input name="teamMemberId" maxlength="36" placeholder=${say('usr_… (um dos nossos)', 'usr_… (one of ours)')} /></label>
    <label>${say('Operador', 'Operator')} <select name="operatorId"><option value="">${say('nosso (todos os operadores)', 'ours (every operator)')}</option>${operators.map(
      (o) => html`<option value=${o.id}>${o.name}</option>`,
    )}</select></label>
    <label>${say('Classificação', 'Rating')} <select name="rating">${RATINGS.map((r) => html`<option value=${r}>${label(r)}</option>`)}</select></label>
    <label>${say('Justificativa', 'Rationale')} <input name="rationale" required maxlength="2000" placeholder=${say('por que esta classificação', 'why this rating')} /></label>
    <button type="submit" disabled=${action.busy}>${say('Registrar', 'Register')}</button>
    <p class="muted">${say(
      `Revisado de novo após 6 meses (${label('high').toLowerCase()}), 12 (${label('medium').toLowerCase()}) ou 24 (${label('low').toLowerCase()}).`,
      `Reviewed again after 6 months (${label('high').toLowerCase()}), 12 (${label('medium').toLowerCase()}) or 24 (${label('low').toLowerCase()}).`,
    )}</p>
    <${ErrorNote} error=${action.error} />
  </form>`;
}

function Subject({ id, names }) {
  const subject = useLoad(() => api('GET', `/admin/aml/risk-subjects/${encodeURIComponent(id)}`), [id]);
  const review = useAction();
  const end = useAction();
  const rate = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    if (
      await review.run(() =>
        api('POST', `/admin/aml/risk-subjects/${encodeURIComponent(id)}/ratings`, { rating: f.rating.value, rationale: f.rationale.value.trim() }),
      )
    )
      subject.reload();
  };
  const finish = async (e) => {
    e.preventDefault();
    const reason = e.currentTarget.reason.value.trim();
    if (
      !confirm(
        say(
          'Encerrar a relação? Nenhuma revisão será devida; o sujeito e suas classificações ficam guardados.',
          'End the relationship? No review will be due; the subject and its ratings are kept.',
        ),
      )
    )
      return;
    if (await end.run(() => api('POST', `/admin/aml/risk-subjects/${encodeURIComponent(id)}/end`, { reason }))) subject.reload();
  };
  const documentShown = (d) => (String(d).replace(/\D/g, '').length === 14 ? cnpj(d) : cpf(d));
  const pastDue = html` <strong class="hold">${say('revisão vencida', 'past due')}</strong>`;
  return html`<p><a href="/aml?view=register">← ${say('Registro de riscos', 'Risk register')}</a></p>
    <${Loaded} state=${subject}>${(s) => html`<article class="card" data-subject=${s.id}>
      <h2>${s.name} <small>${kindLabel(s.kind)} · ${names(s.operatorId)} · <strong data-rating=${s.rating}>${label(s.rating)}</strong> · ${label(s.status)}</small></h2>
      <p class="muted">${s.document ? html`${say('Documento', 'Document')} ${documentShown(s.document)} · ` : null}${s.teamMemberId ? html`${say('Membro da equipe', 'Team member')} <code>${s.teamMemberId}</code> · ` : null}
        ${say('revisão até', 'review due')} ${time(s.reviewDueAt)}${s.reviewOverdue ? pastDue : null}</p>
      ${s.endedAt ? html`<p class="note">${say('Encerrado', 'Ended')} ${time(s.endedAt)} ${say('por', 'by')} ${person(s.endedBy)} — “${s.endReason}”</p>` : null}
      <section><h3>${say('Classificações', 'Ratings')}</h3><ol>${s.history.map(
        (h) =>
          html`<li><strong>${label(h.rating)}</strong> ${say('por', 'by')} ${person(h.ratedBy)} ${time(h.ratedAt)} — “${h.rationale}” <span class="muted">(${say('revisão até', 'review due')} ${time(h.reviewDueAt)})</span></li>`,
      )}</ol></section>
      ${
        s.status === 'active' && may('compliance')
          ? html`<form class="decide" onSubmit=${rate} aria-label="Review the rating">
              <label>${say('Nova classificação', 'New rating')} <select name="rating">${RATINGS.map((r) => html`<option value=${r} selected=${r === s.rating}>${label(r)}</option>`)}</select></label>
              <label>${say('Justificativa', 'Rationale')} <input name="rationale" required maxlength="2000" /></label>
              <button type="submit" disabled=${review.busy}>${say('Registrar a revisão', 'Record the review')}</button><${ErrorNote} error=${review.error} />
            </form>
            <form class="decide" onSubmit=${finish} aria-label="End the relationship">
              <label>${say('Motivo', 'Reason')} <input name="reason" required maxlength="2000" placeholder=${say('o contrato terminou, a pessoa saiu', 'the contract ended, the person left')} /></label>
              <button type="submit" class="danger" disabled=${end.busy}>${say('Encerrar', 'End')}</button><${ErrorNote} error=${end.error} />
            </form>`
          : null
      }
    </article>`}<//>`;
}

export function RiskRegister() {
  const params = new URLSearchParams(location.search);
  const subjectId = params.get('subject');
  const ops = useOperatorNames();
  const [filters, setFilters] = useState({ kind: undefined, reviewDue: undefined, status: undefined });
  const [cursor, setCursor] = useState(undefined);
  const list = useLoad(() => api('GET', `/admin/aml/risk-subjects${query({ ...filters, cursor, limit: 50 })}`), [JSON.stringify(filters), cursor, subjectId]);
  if (subjectId) return html`<${Subject} id=${subjectId} names=${ops.name} />`;
  const set = (name) => (e) => {
    setCursor(undefined);
    setFilters({ ...filters, [name]: e.currentTarget.value || undefined });
  };
  return html`<div>
    <${Links} />
    <p class="muted">${say(
      'Conheça seu funcionário, parceiro e fornecedor (Portaria SPA/MF 1.143/2024): cada um classificado com a justificativa e revisado na data. As revisões vencidas vêm primeiro.',
      'Know your employee, partner and supplier (Portaria SPA/MF 1.143/2024): each rated with its rationale, and reviewed by its date. The reviews past due come first.',
    )}</p>
    ${may('compliance') ? html`<${AddSubject} operators=${ops.list} onAdded=${list.reload} />` : null}
    <form class="inline filters" aria-label="Filter the register" onSubmit=${(e) => e.preventDefault()}>
      <label>${say('Tipo', 'Kind')} <select onChange=${set('kind')}><option value="">${say('qualquer', 'any')}</option>${KINDS.map((v) => html`<option value=${v}>${label(v)}</option>`)}</select></label>
      <label>${say('Revisão', 'Review')} <select onChange=${set('reviewDue')}><option value="">${say('qualquer', 'any')}</option><option value="overdue">${say('vencida', 'past due')}</option></select></label>
      <label>${say('Situação', 'Status')} <select onChange=${set('status')}><option value="">${label('active')}</option><option value="ended">${label('ended')}</option></select></label>
    </form>
    <${Loaded} state=${list}>${(page) =>
      page.data.length === 0
        ? html`<p class="empty">${say('Nenhum sujeito corresponde.', 'No subject matches.')}</p>`
        : html`<table class="stack risk-register"><thead><tr><th>${say('Nome', 'Name')}</th><th>${say('Tipo', 'Kind')}</th><th>${say('Operador', 'Operator')}</th><th>${say('Classificação', 'Rating')}</th><th>${say('Revisão até', 'Review due')}</th><th>${say('Classificado por', 'Rated by')}</th></tr></thead>
          <tbody>${page.data.map(
            (s) => html`<tr data-subject-row=${s.id} data-overdue=${s.reviewOverdue}>
              <td data-label=${say('Nome', 'Name')}><a href=${`/aml${query({ view: 'register', subject: s.id })}`}>${s.name}</a></td>
              <td data-label=${say('Tipo', 'Kind')}>${kindLabel(s.kind)}</td>
              <td data-label=${say('Operador', 'Operator')}>${ops.name(s.operatorId)}</td>
              <td data-label=${say('Classificação', 'Rating')}><strong data-rating=${s.rating}>${label(s.rating)}</strong></td>
              <td data-label=${say('Revisão até', 'Review due')}>${time(s.reviewDueAt)}${s.reviewOverdue ? html` <strong class="hold">${say('vencida', 'past due')}</strong>` : null}</td>
              <td data-label=${say('Classificado por', 'Rated by')}>${person(s.ratedBy)}</td>
            </tr>`,
          )}</tbody></table>
          ${page.nextCursor ? html`<button type="button" onClick=${() => setCursor(page.nextCursor)}>${say('Próxima página', 'Next page')}</button>` : null}`}<//>
  </div>`;
}

function download(r) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([r.file], { type: 'application/json;charset=utf-8' }));
  link.download = `aml-annual-report_${r.operatorId}_${r.year}_v${r.version}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

function AnnualRow({ r, name, onMade }) {
  const make = useAction();
  const get = useAction();
  const latest = r.versions[0];
  const run = async () => {
    if (await make.run(() => api('POST', `/admin/aml/operators/${encodeURIComponent(r.operatorId)}/annual-reports`, { year: r.year }))) onMade();
  };
  const fetchFile = async () => {
    const full = await get.run(() => api('GET', `/admin/aml/operators/${encodeURIComponent(r.operatorId)}/annual-reports/${r.year}`));
    if (full?.file) download(full);
  };
  return html`<tr data-annual-row=${r.operatorId} data-state=${r.state}>
    <td data-label=${say('Operador', 'Operator')}>${name(r.operatorId)}</td>
    <td data-label=${say('Estado', 'State')}><strong>${label(r.state)}</strong></td>
    <td data-label=${say('Prazo', 'Due')}>${day(r.dueDate)} <span class="muted">(${say('sem ocorrência', 'no occurrence')}: ${day(r.noOccurrenceDueDate)})</span></td>
    <td data-label=${say('Última', 'Latest')}>${latest ? html`v${latest.version} ${time(latest.madeAt)} ${say('por', 'by')} ${person(latest.madeBy)} <code title="SHA-256">${latest.sha256.slice(0, 12)}…</code>` : '—'}</td>
    <td>
      ${may('compliance') ? html`<button type="button" onClick=${run} disabled=${make.busy}>${latest ? say('Gerar de novo', 'Make again') : say('Gerar', 'Make')}</button>` : null}
      ${latest ? html` <button type="button" onClick=${fetchFile} disabled=${get.busy}>${say('Baixar', 'Download')}</button>` : null}
      <${ErrorNote} error=${make.error ?? get.error} />
    </td>
  </tr>`;
}

export function AnnualReports() {
  const thisYear = new Date().getUTCFullYear();
  const [year, setYear] = useState(thisYear - 1);
  const ops = useOperatorNames();
  const list = useLoad(() => api('GET', `/admin/aml/annual-reports${query({ year })}`), [year]);
  return html`<div>
    <${Links} />
    <p class="muted">${say(
      'O relatório anual que cada operador envia à SPA até 1º de fevereiro, feito dos casos, COS e registro de riscos do ano e guardado com o SHA-256; sem COS enviada, leva a declaração de “sem ocorrência” (enviada pelo SIGAP até o último dia útil de janeiro).',
      'The yearly report each operator sends the SPA by 1 February, made from the year\'s cases, COS and risk register and kept with its SHA-256; with no COS filed, it carries the "no occurrence" statement (sent through SIGAP by January\'s last business day).',
    )}</p>
    <label>${say('Ano', 'Year')} <select onChange=${(e) => setYear(Number(e.currentTarget.value))}>${[0, 1, 2].map(
      (n) => html`<option value=${thisYear - n} selected=${year === thisYear - n}>${thisYear - n}</option>`,
    )}</select></label>
    <${Loaded} state=${list}>${(page) =>
      page.data.length === 0
        ? html`<p class="empty">${say(`Nenhum operador teve atividade em produção em ${year}.`, `No operator had production activity in ${year}.`)}</p>`
        : html`<table class="stack annual-reports"><thead><tr><th>${say('Operador', 'Operator')}</th><th>${say('Estado', 'State')}</th><th>${say('Prazo', 'Due')}</th><th>${say('Última versão', 'Latest version')}</th><th></th></tr></thead>
          <tbody>${page.data.map((r) => html`<${AnnualRow} r=${r} name=${ops.name} onMade=${list.reload} />`)}</tbody></table>`}<//>
  </div>`;
}
