// AML cases (compliance only). The queue: one line per case (the player by name, the amount, risk,
// rules, operator and brand by name, opened and age in the brand's time zone, status, COS, assignee,
// whether it holds payouts, a sandbox case marked), production unless the switch says the sandbox,
// the riskiest first (or the largest, the oldest, the newest), with filters (status, risk, rule,
// operator, assignee, age), a page at a time. A case's own page (`/aml?case=ID`): the evidence (a payer
// mismatch names the payer), the steps, the player's file and whole money picture, the COS download,
// the assignment, and the decision form (under review, reported with the Siscoaf receipt, dismissed;
// four eyes: whoever reviewed a case does not report it, nor dismiss one that holds payouts).
import { useState } from 'preact/hooks';
import {
  html,
  api,
  query,
  useLoad,
  useAction,
  useStatusPages,
  useEnvironment,
  Loaded,
  ErrorNote,
  OperatorBrand,
  ZonedTime,
  age,
  me,
  may,
  money,
  cpf,
  person,
  label,
  say,
  SawWords,
} from './kit.js';
import { amlEvidenceWords } from './evidence-words.js';
import { OperatorPicker } from './pickers.js';
import { PlayerKyc } from './page-kyc.js';
import { Money } from './page-players.js';
import { AnalysisClock, AnalysisLeft, AnnualReports, CosDeadline, CosLeft, CosQueue, Links, RiskRegister } from './page-aml-duties.js';
import { RiskAssessments } from './page-risk-assessment.js';

const STATUSES = ['open', 'under_review', 'reported', 'dismissed'];
const NEXT = { open: ['under_review', 'dismissed'], under_review: ['reported', 'dismissed'], reported: [], dismissed: [] };
/** The rules, in the person's language (docs/aml.md gives each rule's source). */
const RULES = ['in_and_out', 'split_deposits', 'high_value', 'shared_destination', 'payer_mismatch', 'velocity', 'pep', 'sanctions'];
const RISKS = ['high', 'medium', 'low'];
const AGES = () => [
  ['', say('qualquer idade', 'any age')],
  ['1', say('mais de um dia', 'older than a day')],
  ['7', say('mais de uma semana', 'older than a week')],
  ['30', say('mais de 30 dias', 'older than 30 days')],
];
/** The queue's orders: the riskiest first by default (issue #61). */
const ORDERS = () => [
  ['risk', say('maior risco primeiro', 'riskiest first')],
  ['amount', say('maior valor primeiro', 'largest amount first')],
  ['oldest', say('mais antigo primeiro', 'oldest first')],
  ['newest', say('mais recente primeiro', 'newest first')],
];
const ruleLabel = (r) => label(r);
const caseLink = (id) => `/aml${query({ case: id })}`;

function Evidence({ items, zone, payers }) {
  return html`<table class="stack"><thead><tr><th>${say('Quando', 'When')}</th><th>${say('Regra', 'Rule')}</th><th>${say('O que viu', 'What it saw')}</th><th>${say('Eventos', 'Events')}</th></tr></thead>
    <tbody>${items.map(
      (
        e,
      ) => html`<tr><td data-label=${say('Quando', 'When')}><${ZonedTime} iso=${e.at} zone=${zone} /></td><td data-label=${say('Regra', 'Rule')}><strong>${ruleLabel(e.rule)}</strong></td><td data-label=${say('O que', 'What')}><${SawWords} words=${amlEvidenceWords(e)} /></td>
        <td data-label=${say('Eventos', 'Events')}>${(e.facts.events ?? []).map((x) => {
          const payer = e.rule === 'payer_mismatch' ? payers?.get(x.reference) : undefined;
          return html`<div><code>${x.reference ?? x.id}</code> ${label(x.type)} ${x.amount ? money(x.amount) : ''} <span class="muted"><${ZonedTime} iso=${x.at} zone=${zone} /></span>${
            payer
              ? html` · <span data-evidence-payer=${payer.cpf}>${say('pago por', 'paid by')} ${cpf(payer.cpf)}${payer.name ? ` ${payer.name}` : ''}</span>`
              : null
          }</div>`;
        })}</td></tr>`,
    )}</tbody></table>`;
}

/** Why a player's risk rose: the watch writes `case <id>: <rule>` (store/watch.ts), said here in words; anything else as written. */
function RiskReason({ reason }) {
  const [, id, rule] = /^case (\S+): ([a-z_]+)$/.exec(reason ?? '') ?? [];
  return id ? html`${say('caso', 'case')} <code>${id}</code>: ${label(rule)}` : html`<q data-verbatim>${reason}</q>`;
}

/** A step's reason: a person's as they wrote it; the watch's, which is an evidence's summary, written as that evidence. */
function Reason({ reason, evidence }) {
  const e = evidence.find((x) => x.summary === reason);
  return e ? html`<${SawWords} words=${amlEvidenceWords(e)} />` : html`<q data-verbatim>${reason}</q>`;
}

function Steps({ steps, zone, evidence }) {
  return html`<ol>${steps.map(
    (s) =>
      html`<li><strong>${label(s.status)}</strong> ${say('por', 'by')} ${person(s.by)} <span class="muted"><${ZonedTime} iso=${s.at} zone=${zone} /></span> — <${Reason} reason=${s.reason} evidence=${evidence} />${s.receipt ? html` · ${say('recibo', 'receipt')} <code>${s.receipt}</code>` : null}</li>`,
  )}</ol>`;
}

function PlayerFile({ c }) {
  const file = useLoad(async () => {
    const [player, risk] = await Promise.all([
      api('GET', `/admin/players/${encodeURIComponent(c.playerId)}`),
      api('GET', `/admin/aml/players/${encodeURIComponent(c.playerId)}/risk`),
    ]);
    return { player, risk };
  }, [c.id]);
  return html`<${Loaded} state=${file}>${({ player, risk }) => html`
    <p><a href=${`/players?id=${encodeURIComponent(c.playerId)}`}>${player.player.name}</a> <code>${player.player.externalId}</code> · CPF ${cpf(player.player.cpf)} · ${say('situação', 'status')} ${label(player.player.status)} · KYC ${label(player.player.kycStatus)}</p>
    <p>${say('Risco', 'Risk')} <strong>${label(risk.level)}</strong></p>
    <ul>${risk.history.map((h) => html`<li>${label(h.level)} <span class="muted"><${ZonedTime} iso=${h.at} zone=${c.timeZone} /></span> ${say('por', 'by')} ${person(h.by)} — <${RiskReason} reason=${h.reason} /></li>`)}</ul>
    <details><summary>KYC</summary><${PlayerKyc} file=${player} /></details>
    <details open><summary>${say('Dinheiro: carteira, razão, depósitos com o pagador, saques com destino e retenções', 'Money: wallet, ledger, deposits with their payer, withdrawals with destination and holds')}</summary><${Money} player=${player.player} /></details>
  `}<//>`;
}

/** The COS of a case under review or reported, as the CSV to file with Siscoaf (the admin API's `cos`), downloaded here. */
function CosExport({ c }) {
  const action = useAction();
  if (c.status !== 'under_review' && c.status !== 'reported') return null;
  const download = async () => {
    const cos = await action.run(() => api('GET', `/admin/aml/cases/${encodeURIComponent(c.id)}/cos`));
    if (!cos) return;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([cos.csv], { type: 'text/csv;charset=utf-8' }));
    link.download = `cos-${c.id}.csv`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  };
  return html`<div class="actions"><button type="button" onClick=${download} disabled=${action.busy}>${say('Baixar a COS (CSV)', 'Download the COS (CSV)')}</button><${ErrorNote} error=${action.error} /></div>`;
}

function Assignment({ c, onDone }) {
  const action = useAction();
  const give = (assignee) => action.run(() => api('PUT', `/admin/aml/cases/${encodeURIComponent(c.id)}/assignee`, { assignee })).then((r) => r && onDone());
  const mine = c.assignee === me();
  return html`<p class="actions" aria-label="Assignment">
    ${c.assignee ? html`${say('Com', 'Assigned to')} <strong data-assignee=${c.assignee}>${mine ? say('você', 'you') : person(c.assignee)}</strong> ${say('desde', 'since')} <${ZonedTime} iso=${c.assignedAt} zone=${c.timeZone} />` : html`<span class="muted">${say('Ninguém trabalha nele ainda.', 'Nobody works it yet.')}</span>`}
    ${mine ? null : html` <button type="button" onClick=${() => give('me')} disabled=${action.busy}>${say('Assumir', 'Assign to me')}</button>`}
    ${c.assignee ? html` <button type="button" onClick=${() => give(null)} disabled=${action.busy}>${say('Liberar', 'Unassign')}</button>` : null}
    <${ErrorNote} error=${action.error} />
  </p>`;
}

function Decide({ c, onDone }) {
  const action = useAction();
  // Decided for reporting (issue #46): its COS is filed, the case is not dismissed.
  const choices = c.cos && !c.cos.filedAt ? ['reported'] : NEXT[c.status];
  const [choice, setChoice] = useState(choices[0]);
  if (choices.length === 0) return null;
  const reviewedByMe = c.status === 'under_review' && c.steps.some((s) => s.status === 'under_review' && s.by === me());
  // Four eyes on dismissing a case that holds payouts (issue #61): reviewed by one person, dismissed by another.
  const dismissBlocked = !c.holdsPayouts
    ? undefined
    : c.status === 'open'
      ? say(
          'Quatro olhos: um caso que retém pagamentos é colocado em análise por uma pessoa e arquivado, com motivo, por outra.',
          'Four eyes: a case that holds payouts is taken under review by one person and dismissed, with a reason, by another.',
        )
      : reviewedByMe
        ? say(
            'Quatro olhos: você colocou este caso em análise, então outra pessoa o arquiva.',
            'Four eyes: you took this case under review, so another person dismisses it.',
          )
        : undefined;
  const blocked = choice === 'dismissed' ? dismissBlocked : undefined;
  const submit = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const body = { status: f.status.value, reason: f.reason.value.trim(), ...(f.receipt.value.trim() ? { receipt: f.receipt.value.trim() } : {}) };
    if (await action.run(() => api('POST', `/admin/aml/cases/${encodeURIComponent(c.id)}/decision`, body))) onDone();
  };
  return html`<form class="decide" onSubmit=${submit} aria-label=${`Decision on case ${c.id}`}>
    <label>${say('Decisão', 'Decision')} <select name="status" onChange=${(e) => setChoice(e.currentTarget.value)}>${choices.map(
      (s) => html`<option value=${s} selected=${s === choice}>${label(s)}</option>`,
    )}</select></label>
    <label>${say('Motivo', 'Reason')} <input name="reason" required minlength="3" maxlength="2000" placeholder=${say('por quê (fica no caso e no registro de auditoria)', 'why (kept in the case and the audit log)')} /></label>
    <label>${say('Recibo do Siscoaf', 'Siscoaf receipt')} <input name="receipt" maxlength="128" placeholder=${say('só ao comunicar', 'only when reported')} /></label>
    <button type="submit" disabled=${action.busy || blocked !== undefined} aria-describedby=${blocked ? `decide-blocked-${c.id}` : undefined}>${say('Registrar decisão', 'Record decision')}</button>
    ${blocked ? html`<p class="note" id=${`decide-blocked-${c.id}`} data-four-eyes="dismiss">${blocked}</p>` : null}
    ${reviewedByMe && choice === 'reported' ? html`<p class="note">${say('Quatro olhos: você colocou este caso em análise, então outra pessoa o comunica.', 'Four eyes: you took this case under review, so another person reports it.')}</p>` : null}
    <${ErrorNote} error=${action.error} />
  </form>`;
}

/** A case's own page: everything about it, and what our team does with it. */
function CasePage({ id }) {
  const full = useLoad(async () => {
    const c = await api('GET', `/admin/aml/cases/${encodeURIComponent(id)}`);
    // Who paid each deposit, for a payer mismatch's evidence (our team sees the payer unmasked).
    const deposits = c.rules.includes('payer_mismatch') ? (await api('GET', `/admin/deposits${query({ playerId: c.playerId, limit: 200 })}`)).data : [];
    return { c, payers: new Map(deposits.filter((d) => d.paidBy).map((d) => [d.id, d.paidBy])) };
  }, [id]);
  return html`<p><a href="/aml">← ${say('Todos os casos', 'All cases')}</a></p>
    <${Loaded} state=${full}>${({ c, payers }) => html`<article class="card" data-case=${c.id}>
      <h2>${c.playerName ?? c.playerId} · ${money(c.amount)} <small>${c.rules.map(ruleLabel).join(', ')} · ${say('risco', 'risk')} <strong>${label(c.risk)}</strong> · ${label(c.status)}</small></h2>
      <p class="muted case-line"><code>${c.id}</code> · <${OperatorBrand} player=${c} /> · ${say('aberto', 'opened')} <${ZonedTime} iso=${c.openedAt} zone=${c.timeZone} /> (${age(c.openedAt)})</p>
      ${
        c.holdsPayouts
          ? html`<p class="note" data-holds-payouts>${say(
              'Pagamento retido: os saques do apostador não são pagos enquanto este caso está aberto ou em análise.',
              "Payout held: the player's withdrawals are not paid while this case is open or under review.",
            )}</p>`
          : null
      }
      ${may('compliance') ? html`<${Assignment} c=${c} onDone=${full.reload} />` : null}
      <section><h3>${say('Evidências', 'Evidence')}</h3><${Evidence} items=${c.evidence} zone=${c.timeZone} payers=${payers} /></section>
      <section><h3>${say('Passos', 'Steps')}</h3><${Steps} steps=${c.steps} zone=${c.timeZone} evidence=${c.evidence} /></section>
      <section><h3>${say('Apostador', 'Player')}</h3><${PlayerFile} c=${c} /></section>
      <${AnalysisClock} c=${c} />
      <${CosDeadline} c=${c} onDone=${full.reload} />
      <${CosExport} c=${c} />
      ${may('compliance') ? html`<${Decide} c=${c} onDone=${full.reload} />` : null}
    </article>`}<//>`;
}

/** The queue's filters, kept in the address so a filtered queue can be shared. */
function Filters({ filters, onChange }) {
  const set = (name) => (e) => onChange({ ...filters, [name]: e.currentTarget.value || undefined });
  // Folded on a phone, where they would fill the first screen before the first case (issue #70); open
  // on a wider screen, or when a filter is set. The order stays in the summary.
  const chosen = Object.entries(filters).filter(([k, v]) => v && k !== 'order').length;
  const open = chosen > 0 || matchMedia('(min-width: 48rem)').matches;
  const order = ORDERS().find(([o]) => o === (filters.order ?? 'risk'))?.[1];
  return html`<details class="filters" open=${open} data-filters>
    <summary>${say('Filtros e ordem', 'Filters and order')}: ${order}${chosen ? say(` · ${chosen} filtro(s)`, ` · ${chosen} filter(s)`) : ''}</summary>
    <form class="inline filters" aria-label=${say('Filtrar casos', 'Filter cases')} onSubmit=${(e) => e.preventDefault()}>
    <label>${say('Ordem', 'Order')} <select name="order" onChange=${set('order')}>${ORDERS().map(
      ([o, text]) => html`<option value=${o} selected=${(filters.order ?? 'risk') === o}>${text}</option>`,
    )}</select></label>
    <label>${say('Risco', 'Risk')} <select name="risk" onChange=${set('risk')}><option value="">${say('qualquer', 'any')}</option>${RISKS.map(
      (r) => html`<option value=${r} selected=${filters.risk === r}>${label(r)}</option>`,
    )}</select></label>
    <label>${say('Regra', 'Rule')} <select name="rule" onChange=${set('rule')}><option value="">${say('qualquer', 'any')}</option>${RULES.map(
      (r) => html`<option value=${r} selected=${filters.rule === r}>${label(r)}</option>`,
    )}</select></label>
    <${OperatorPicker} name="operatorId" value=${filters.operatorId} onChange=${(id) => onChange({ ...filters, operatorId: id || undefined })} />
    <label>${say('Responsável', 'Assignee')} <select name="assignee" onChange=${set('assignee')}>
      <option value="">${say('qualquer pessoa', 'anyone')}</option><option value="me" selected=${filters.assignee === 'me'}>${say('eu', 'me')}</option><option value="none" selected=${filters.assignee === 'none'}>${say('ninguém', 'nobody')}</option>
    </select></label>
    <label>${say('Idade', 'Age')} <select name="olderThanDays" onChange=${set('olderThanDays')}>${AGES().map(
      ([d, text]) => html`<option value=${d} selected=${(filters.olderThanDays ?? '') === d}>${text}</option>`,
    )}</select></label>
  </form></details>`;
}

const FILTER_KEYS = ['risk', 'rule', 'operatorId', 'assignee', 'olderThanDays', 'order'];

/** A case's player: their name (a link to the case), the id on hover. */
const PlayerCell = ({ c }) =>
  html`<a href=${caseLink(c.id)} title=${c.playerId} data-player-name>${c.playerName ?? html`<span class="muted">${say('sem nome ainda', 'no name yet')}</span>`}</a>`;

function Queue() {
  const { status, cursor, tabs, next } = useStatusPages(say('Situação do caso', 'Case status'), STATUSES);
  const { environment, toggle } = useEnvironment();
  const params = new URLSearchParams(location.search);
  const [filters, setFilters] = useState(Object.fromEntries(FILTER_KEYS.map((k) => [k, params.get(k) ?? undefined])));
  const playerId = params.get('playerId') ?? undefined;
  const change = (f) => {
    setFilters(f);
    next(undefined);
    history.replaceState(null, '', `/aml${query({ status, ...f, environment: environment === 'sandbox' ? 'sandbox' : undefined })}`);
  };
  const openedBefore = filters.olderThanDays ? new Date(Date.now() - Number(filters.olderThanDays) * 86_400_000).toISOString() : undefined;
  const apiFilters = Object.fromEntries(Object.entries(filters).filter(([k]) => k !== 'olderThanDays'));
  const queue = useLoad(
    () =>
      api('GET', `/admin/aml/cases${query({ status, cursor, playerId, ...apiFilters, order: filters.order ?? 'risk', openedBefore, environment, limit: 25 })}`),
    [status, cursor, environment, JSON.stringify(filters)],
  );
  return html`<div>
    <${Links} />
    ${toggle}
    ${tabs}
    <${Filters} filters=${filters} onChange=${change} />
    <${Loaded} state=${queue}>${(page) => html`
      ${
        page.data.length === 0
          ? html`<p class="empty">${say('Nenhum caso corresponde.', 'No case matches.')}</p>`
          : html`<table class="stack cases"><thead><tr><th>${say('Risco', 'Risk')}</th><th>${say('Apostador', 'Player')}</th><th class="num">${say('Valor', 'Amount')}</th><th>${say('Regras', 'Rules')}</th><th>${say('Operador / marca', 'Operator / brand')}</th><th>${say('Aberto', 'Opened')}</th><th>${say('Situação', 'Status')}</th><th>${say('Análise (30 dias)', 'Analysis (30 days)')}</th><th>COS</th><th>${say('Responsável', 'Assignee')}</th></tr></thead>
        <tbody>${page.data.map(
          (c) => html`<tr data-case-row=${c.id} data-risk=${c.risk} data-environment=${c.environment}>
            <td data-label=${say('Risco', 'Risk')}><strong class=${`risk risk-${c.risk}`}>${label(c.risk)}</strong></td>
            <td data-label=${say('Apostador', 'Player')}><${PlayerCell} c=${c} /></td>
            <td data-label=${say('Valor', 'Amount')} class="num" data-amount=${c.amount}>${money(c.amount)}</td>
            <td data-label=${say('Regras', 'Rules')}><a href=${caseLink(c.id)}>${c.rules.map(ruleLabel).join(', ')}</a></td>
            <td data-label=${say('Operador / marca', 'Operator / brand')}><${OperatorBrand} player=${c} /></td>
            <td data-label=${say('Aberto', 'Opened')}><${ZonedTime} iso=${c.openedAt} zone=${c.timeZone} /> <small data-age>(${age(c.openedAt)})</small></td>
            <td data-label=${say('Situação', 'Status')}>${label(c.status)}${c.holdsPayouts ? html` <strong class="hold">${say('pagamento retido', 'payout held')}</strong>` : null}</td>
            <td data-label=${say('Análise (30 dias)', 'Analysis (30 days)')}><${AnalysisLeft} analysis=${c.analysis} zone=${c.timeZone} /></td>
            <td data-label="COS"><${CosLeft} cos=${c.cos} /></td>
            <td data-label=${say('Responsável', 'Assignee')} data-assignee=${c.assignee ?? ''}>${person(c.assignee)}</td>
          </tr>`,
        )}</tbody></table>`
      }
      ${page.nextCursor ? html`<button type="button" onClick=${() => next(page.nextCursor)}>${say('Próxima página', 'Next page')}</button>` : null}
    `}<//>
  </div>`;
}

/** The views of AML beyond the players (issue #46): the COS to file, the risk register, the yearly reports, the yearly internal risk assessment (issue #60). */
const VIEWS = { cos: CosQueue, register: RiskRegister, annual: AnnualReports, assessment: RiskAssessments };

export function AmlPage() {
  const params = new URLSearchParams(location.search);
  const id = params.get('case');
  const View = VIEWS[params.get('view')];
  return id ? html`<${CasePage} id=${id} />` : View ? html`<${View} />` : html`<${Queue} />`;
}
