// Our internal impediments registry (compliance; Lei 14.790/2023 art. 26, docs/eligibility.md): the
// list, newest first, or one CPF; put a CPF on it with its category and a note (the production br-spa
// players it restricts at once are shown); take one off after a confirmation (that lifts nothing).
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, useAction, Loaded, ErrorNote, ZonedTime, cpf as cpfShown, may, person, label, say } from './kit.js';

/**
 * The categories of the contract (INTERNAL_IMPEDIMENT_CATEGORIES): each with its label in Portuguese
 * (as Lei 14.790/2023 art. 26 words it) and in English, and whom it covers (docs/eligibility.md).
 */
const CATEGORIES = [
  ['operator_staff', 'Sócio, dirigente ou empregado do operador', 'Operator staff', "the operator's owner, director, manager or employee"],
  ['regulator', 'Agente público de regulação ou fiscalização', 'Regulator', 'a public agent who regulates or supervises betting'],
  ['system_access', 'Acesso aos sistemas de apostas', 'Access to the betting systems', 'has or may have access to the betting systems'],
  ['athlete', 'Atleta', 'Athlete', 'an athlete of the events bet on'],
  ['referee', 'Árbitro ou assistente', 'Referee', 'a referee or assistant referee'],
  ['coach', 'Treinador ou membro de comissão técnica', 'Coach', 'a coach or member of a technical staff'],
  ['sports_official', 'Dirigente esportivo', 'Sports official', 'an official of a sports body or competition'],
  ['sports_agent', 'Empresário ou agente esportivo', 'Sports agent', 'an agent or representative of athletes or coaches'],
  ['gambling_disorder', 'Ludopatia diagnosticada', 'Diagnosed gambling disorder', 'diagnosed gambling disorder'],
  ['court_or_administrative_order', 'Decisão judicial ou administrativa', 'Court or administrative order', 'barred by a court or administrative order'],
  ['relative', 'Cônjuge ou parente até 2º grau', 'Relative', 'a spouse or relative to the 2nd degree of one of the above'],
];
const LABELS = new Map(CATEGORIES.map(([code, pt, en]) => [code, [pt, en]]));
/** A category as our team reads it, in the person's language (the law's words in Portuguese), the code on hover. */
const categoryName = (code) => (LABELS.has(code) ? say(...LABELS.get(code)) : label(code));
export const CategoryLabel = ({ code }) => html`<span title=${code} data-category=${code}>${categoryName(code)}</span>`;

function AddEntry({ onAdded }) {
  const action = useAction();
  const [added, setAdded] = useState(undefined);
  const submit = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const body = { cpf: f.cpf.value.trim(), category: f.category.value, note: f.note.value.trim() };
    const result = await action.run(() => api('POST', '/admin/impediments', body));
    if (result) {
      setAdded(result);
      f.reset();
      onAdded();
    }
  };
  return html`<form class="decide" onSubmit=${submit} aria-label="Add to the list">
    <label>CPF <input name="cpf" required maxlength="14" placeholder="000.000.000-00" /></label>
    <label>${say('Categoria', 'Category')} <select name="category">${CATEGORIES.map(([c, , , what]) => html`<option value=${c} title=${what}>${categoryName(c)}</option>`)}</select></label>
    <label>${say('Nota', 'Note')} <input name="note" required maxlength="500" placeholder=${say('por quê: a fonte, a relação, a referência da ordem', "why: the source, the relation, the order's reference")} /></label>
    <button type="submit" disabled=${action.busy}>${say('Incluir na lista', 'Add to the list')}</button>
    ${
      added
        ? html`<p class="ok" role="status">${added.entry.cpf} ${say('está na lista.', 'is on the list.')}${
            added.restricted.length
              ? html` ${say('Restritos agora:', 'Restricted now:')} ${added.restricted.map((id) => html` <a href=${`/players?id=${encodeURIComponent(id)}`}><code>${id}</code></a>`)}`
              : ` ${say('Nenhum apostador restrito agora.', 'No player restricted now.')}`
          }</p>`
        : null
    }
    <${ErrorNote} error=${action.error} />
  </form>`;
}

function Remove({ entry, onRemoved }) {
  const action = useAction();
  const remove = async () => {
    if (
      !confirm(
        say(
          `Tirar ${entry.cpf} da lista? Um apostador já restrito continua restrito.`,
          `Take ${entry.cpf} off the list? A player already restricted stays restricted.`,
        ),
      )
    )
      return;
    if (await action.run(() => api('DELETE', `/admin/impediments/${encodeURIComponent(entry.cpf)}`))) onRemoved();
  };
  return html`<button type="button" class="danger" disabled=${action.busy} onClick=${remove}>${say('Remover', 'Remove')}</button><${ErrorNote} error=${action.error} />`;
}

export function ImpedimentsPage() {
  const [cpf, setCpf] = useState(new URLSearchParams(location.search).get('cpf') ?? '');
  const [cursor, setCursor] = useState(undefined);
  const list = useLoad(() => api('GET', `/admin/impediments${query({ cpf, cursor, limit: 50 })}`), [cpf, cursor]);
  const reload = () => (cursor === undefined ? list.reload() : setCursor(undefined));
  const search = (e) => {
    e.preventDefault();
    setCursor(undefined);
    setCpf(e.currentTarget.cpf.value.trim());
  };
  return html`<div>
    <p class="muted">${say(
      'Quem não pode apostar segundo a Lei 14.790/2023 art. 26, mantido pelo nosso compliance. As marcas de produção de operadores br-spa o consultam no cadastro, no primeiro login do dia e na varredura, como o cadastro da SPA; ao operador só se diz "Esta pessoa não pode apostar com este operador."',
      'Who may not bet under Lei 14.790/2023 art. 26, kept by our compliance team. Production brands of br-spa operators consult it at registration, at the first login of the day and in the sweep, as the SPA registry; operators are only ever told "This person cannot bet with this operator."',
    )}</p>
    ${may('compliance') ? html`<${AddEntry} onAdded=${reload} />` : null}
    <form class="search" onSubmit=${search} aria-label="Find a CPF">
      <label>CPF <input name="cpf" value=${cpf} maxlength="14" placeholder=${say('todos', 'all')} /></label>
      <button type="submit">${say('Buscar', 'Find')}</button>
    </form>
    <${Loaded} state=${list}>${(page) =>
      page.data.length === 0
        ? html`<p class="empty">${cpf ? say('Este CPF não está na lista.', 'This CPF is not on the list.') : say('A lista está vazia.', 'The list is empty.')}</p>`
        : html`<table class="stack impediments"><thead><tr><th>CPF</th><th>${say('Categoria', 'Category')}</th><th>${say('Nota', 'Note')}</th><th>${say('Incluído por', 'Added by')}</th><th>${say('Quando', 'When')}</th><th></th></tr></thead>
          <tbody>${page.data.map(
            (e) =>
              html`<tr data-cpf=${e.cpf}><td data-label="CPF"><code>${cpfShown(e.cpf)}</code></td><td data-label=${say('Categoria', 'Category')}><${CategoryLabel} code=${e.category} /></td><td data-label=${say('Nota', 'Note')}>${e.note}</td><td data-label=${say('Incluído por', 'Added by')}>${person(e.addedBy)}</td><td data-label=${say('Quando', 'When')}><${ZonedTime} iso=${e.addedAt} /></td>
                <td>${may('compliance') ? html`<${Remove} entry=${e} onRemoved=${reload} />` : null}</td></tr>`,
          )}</tbody></table>
          ${page.nextCursor ? html`<button type="button" onClick=${() => setCursor(page.nextCursor)}>${say('Próxima página', 'Next page')}</button>` : null}`}<//>
  </div>`;
}
