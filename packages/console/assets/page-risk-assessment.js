// The yearly internal risk assessment (issue #60 item 5; Portaria SPA/MF 1.143/2024, art. 14 as
// summarised, docs/aml.md "The internal risk assessment"), a view of the AML page (`/aml?view=assessment`,
// compliance): an operator picked by name, whether this year's assessment is kept, every version kept
// (newest year and version first, each readable in full), and the form that keeps a new version (the
// year's first, or a change of its last, saying what changed), started from the year's last version.
import { useState } from 'preact/hooks';
import { html, api, useLoad, useAction, Loaded, ErrorNote, ZonedTime, may, label, say } from './kit.js';
import { OperatorPicker } from './pickers.js';
import { Links } from './page-aml-duties.js';

const LEVELS = ['high', 'medium', 'low'];
/** The areas the assessment covers, as the ordinance lists them (a risk may name another). */
const AREAS = () => [
  say('Produtos e serviços', 'Products and services'),
  say('Apostadores', 'Customers'),
  say('Meios de pagamento', 'Payment methods'),
  say('Canais de distribuição', 'Distribution channels'),
  say('Novas tecnologias', 'New technologies'),
];
const blankRisk = () => ({ area: '', description: '', likelihood: 'medium', impact: 'medium', controls: '', residual: 'low' });
const todayIn = (zone = 'America/Sao_Paulo') => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());

function Level({ name, value, onChange, text }) {
  return html`<label>${text} <select name=${name} onChange=${(e) => onChange(e.currentTarget.value)}>${LEVELS.map(
    (l) => html`<option value=${l} selected=${l === value}>${label(l)}</option>`,
  )}</select></label>`;
}

/** One kept version, in full. */
function Version({ v }) {
  return html`<details class="card" data-assessment=${`${v.year}/v${v.version}`}>
    <summary><strong>${v.year} · v${v.version}</strong> ${say('realizada em', 'carried out on')} ${v.assessedOn} · ${say('aprovada por', 'approved by')} ${v.approvedBy}
      <span class="muted">· ${say('registrada por', 'kept by')} ${v.madeBy} <${ZonedTime} iso=${v.madeAt} /></span></summary>
    ${v.change ? html`<p class="note">${say('O que mudou', 'What changed')}: ${v.change}</p>` : null}
    <h4>${say('Metodologia', 'Methodology')}</h4><p class="prose">${v.methodology}</p>
    <table class="stack assessment-risks"><thead><tr><th>${say('Área', 'Area')}</th><th>${say('Risco', 'Risk')}</th><th>${say('Probabilidade', 'Likelihood')}</th><th>${say('Impacto', 'Impact')}</th><th>${say('Controles', 'Controls')}</th><th>${say('Residual', 'Residual')}</th></tr></thead>
      <tbody>${v.risks.map(
        (r) => html`<tr>
          <td data-label=${say('Área', 'Area')}>${r.area}</td><td data-label=${say('Risco', 'Risk')}>${r.description}</td>
          <td data-label=${say('Probabilidade', 'Likelihood')}>${label(r.likelihood)}</td><td data-label=${say('Impacto', 'Impact')}>${label(r.impact)}</td>
          <td data-label=${say('Controles', 'Controls')}>${r.controls}</td><td data-label=${say('Residual', 'Residual')}><strong>${label(r.residual)}</strong></td>
        </tr>`,
      )}</tbody></table>
    <h4>${say('Conclusões', 'Conclusions')}</h4><p class="prose">${v.conclusions}</p>
    ${v.actionPlan ? html`<h4>${say('Plano de ação', 'Action plan')}</h4><p class="prose">${v.actionPlan}</p>` : null}
  </details>`;
}

/** The form of a new version: the year's last version to start from, if any. */
function NewVersion({ operatorId, currentYear, versions, onSaved }) {
  const [year, setYear] = useState(currentYear);
  const last = versions.find((v) => v.year === year);
  const [risks, setRisks] = useState(last?.risks.map((r) => ({ ...r })) ?? [blankRisk()]);
  const action = useAction();
  const setRisk = (i, field) => (value) => setRisks(risks.map((r, j) => (j === i ? { ...r, [field]: value } : r)));
  const text = (i, field) => (e) => setRisk(i, field)(e.currentTarget.value);
  const submit = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const v = (name) => f[name]?.value.trim() || undefined;
    const body = {
      year,
      assessedOn: f.assessedOn.value,
      approvedBy: v('approvedBy'),
      methodology: v('methodology'),
      risks: risks.map((r) => ({ ...r, area: r.area.trim(), description: r.description.trim(), controls: r.controls.trim() })),
      conclusions: v('conclusions'),
      ...(v('actionPlan') ? { actionPlan: v('actionPlan') } : {}),
      ...(last ? { change: v('change') } : {}),
    };
    if (await action.run(() => api('POST', `/admin/aml/operators/${encodeURIComponent(operatorId)}/risk-assessments`, body))) onSaved();
  };
  // A new version of another year starts again from its own last version (or blank).
  const chooseYear = (y) => {
    setYear(y);
    const from = versions.find((x) => x.year === y);
    setRisks(from?.risks.map((r) => ({ ...r })) ?? [blankRisk()]);
  };
  return html`<form class="decide assessment-form" onSubmit=${submit} aria-label="New version of the risk assessment" key=${`${operatorId}/${year}/${last?.version ?? 0}`}>
    <h3>${last ? say(`Nova versão de ${year} (a partir da v${last.version})`, `A new version of ${year} (from v${last.version})`) : say(`A avaliação de ${year}`, `The assessment of ${year}`)}</h3>
    <label>${say('Ano avaliado', 'Year assessed')} <select name="year" onChange=${(e) => chooseYear(Number(e.currentTarget.value))}>${[
      currentYear,
      currentYear - 1,
    ].map((y) => html`<option value=${y} selected=${y === year}>${y}</option>`)}</select></label>
    <label>${say('Realizada em', 'Carried out on')} <input name="assessedOn" type="date" required max=${todayIn()} defaultValue=${last?.assessedOn ?? todayIn()} /></label>
    <label>${say('Aprovada por (nome e cargo)', 'Approved by (name and role)')} <input name="approvedBy" required maxlength="200" defaultValue=${last?.approvedBy ?? ''} /></label>
    <label class="wide">${say('Metodologia', 'Methodology')} <textarea name="methodology" required maxlength="20000" rows="3" defaultValue=${last?.methodology ?? ''}></textarea></label>
    <fieldset class="risks"><legend>${say('Riscos', 'Risks')}</legend>
      ${risks.map(
        (r, i) => html`<div class="risk-entry" data-risk-entry=${i}>
          <label>${say('Área', 'Area')} <input name=${`area-${i}`} required maxlength="200" list="assessment-areas" value=${r.area} onInput=${text(i, 'area')} /></label>
          <label class="wide">${say('Risco', 'Risk')} <textarea name=${`description-${i}`} required maxlength="20000" rows="2" value=${r.description} onInput=${text(i, 'description')}></textarea></label>
          <${Level} name=${`likelihood-${i}`} value=${r.likelihood} onChange=${setRisk(i, 'likelihood')} text=${say('Probabilidade', 'Likelihood')} />
          <${Level} name=${`impact-${i}`} value=${r.impact} onChange=${setRisk(i, 'impact')} text=${say('Impacto', 'Impact')} />
          <label class="wide">${say('Controles', 'Controls')} <textarea name=${`controls-${i}`} required maxlength="20000" rows="2" value=${r.controls} onInput=${text(i, 'controls')}></textarea></label>
          <${Level} name=${`residual-${i}`} value=${r.residual} onChange=${setRisk(i, 'residual')} text=${say('Risco residual', 'Residual risk')} />
          ${risks.length > 1 ? html`<button type="button" class="link" onClick=${() => setRisks(risks.filter((_, j) => j !== i))}>${say('Remover este risco', 'Remove this risk')}</button>` : null}
        </div>`,
      )}
      <datalist id="assessment-areas">${AREAS().map((a) => html`<option value=${a} />`)}</datalist>
      <button type="button" onClick=${() => setRisks([...risks, blankRisk()])}>${say('Adicionar um risco', 'Add a risk')}</button>
    </fieldset>
    <label class="wide">${say('Conclusões', 'Conclusions')} <textarea name="conclusions" required maxlength="20000" rows="3" defaultValue=${last?.conclusions ?? ''}></textarea></label>
    <label class="wide">${say('Plano de ação (responsáveis e datas)', 'Action plan (owners and dates)')} <textarea name="actionPlan" maxlength="20000" rows="2" defaultValue=${last?.actionPlan ?? ''}></textarea></label>
    ${last ? html`<label class="wide">${say('O que mudou desde a', 'What changed from')} v${last.version} <input name="change" required maxlength="2000" /></label>` : null}
    <button type="submit" disabled=${action.busy}>${say('Registrar esta versão', 'Keep this version')}</button>
    <${ErrorNote} error=${action.error} />
  </form>`;
}

export function RiskAssessments() {
  const [operatorId, setOperatorId] = useState(new URLSearchParams(location.search).get('operatorId') ?? '');
  const choose = (id) => {
    setOperatorId(id);
    history.replaceState(null, '', `/aml?view=assessment${id ? `&operatorId=${encodeURIComponent(id)}` : ''}`);
  };
  const list = useLoad(
    () => (operatorId ? api('GET', `/admin/aml/operators/${encodeURIComponent(operatorId)}/risk-assessments`) : Promise.resolve(undefined)),
    [operatorId],
  );
  return html`<div>
    <${Links} />
    <p class="muted">${say(
      'A avaliação interna de risco de cada operador, ao menos uma vez por ano (Portaria SPA/MF 1.143/2024): cada versão é guardada com a data em que foi feita e quem a aprovou; nenhuma é substituída.',
      "Each operator's internal risk assessment, at least once a year (Portaria SPA/MF 1.143/2024): every version is kept with the date it was carried out and who approved it; none is replaced.",
    )}</p>
    <form class="inline" aria-label="Choose the operator" onSubmit=${(e) => e.preventDefault()}>
      <${OperatorPicker} value=${operatorId} onChange=${choose} />
    </form>
    ${
      operatorId
        ? html`<${Loaded} state=${list}>${(r) =>
            r
              ? html`<p data-current-year=${r.currentYear} data-assessed=${r.currentYearAssessed}>${
                  r.currentYearAssessed
                    ? say(`A avaliação de ${r.currentYear} está registrada.`, `The assessment of ${r.currentYear} is kept.`)
                    : html`<strong class="hold">${say(`A avaliação de ${r.currentYear} ainda não foi feita.`, `The assessment of ${r.currentYear} is not done yet.`)}</strong>`
                }</p>
                <section aria-label="Versions"><h3>${say('Versões', 'Versions')}</h3>${
                  r.data.length === 0
                    ? html`<p class="empty">${say('Nenhuma versão ainda.', 'No version yet.')}</p>`
                    : r.data.map((v) => html`<${Version} v=${v} />`)
                }</section>
                ${may('compliance') ? html`<${NewVersion} key=${`${operatorId}/${r.data.length}`} operatorId=${operatorId} currentYear=${r.currentYear} versions=${r.data} onSaved=${list.reload} />` : null}`
              : null}<//>`
        : html`<p class="muted">${say('Escolha um operador.', 'Choose an operator.')}</p>`
    }
  </div>`;
}
