// The daily regulator files (compliance and finance; docs/aml.md): the kept files newest day
// first (production unless the switch says the sandbox; one brand, a range of days), each with its
// brand by name, its time zone, whether its last check tied, its line counts and its downloads (the
// whole file as JSON, each part as CSV); a day's file checked now (made first when the day is over
// and the job has not made it), for a brand picked from ours: never a name typed (issue #61).
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, useAction, useEnvironment, Loaded, ErrorNote, ZonedTime, BrandName, Day, money, say, label, may } from './kit.js';
import { BrandPicker } from './pickers.js';
import { SigapSection } from './page-sigap.js';

const PARTS = ['bettors', 'accounts', 'deposits', 'withdrawals', 'rounds', 'provider_transactions', 'status_changes'];
const base = (f) => `/admin/reports/daily/files/${encodeURIComponent(f.brandId)}/${f.date}`;
const ties = (v) => (v === true ? say('confere', 'ties') : v === false ? say('não confere', 'does not tie') : say('não verificado', 'not checked'));
/** Where a file's time zone came from (its operator's compliance profile, or the default). */
const source = (s) => (s ? label(s) : say('desconhecida', 'unknown'));
/** The parts of a day's file, as people read them. */
const PART_NAMES = {
  bettors: ['apostadores', 'bettors'],
  accounts: ['contas', 'accounts'],
  deposits: ['depósitos', 'deposits'],
  withdrawals: ['saques', 'withdrawals'],
  rounds: ['rodadas', 'rounds'],
  provider_transactions: ['transações de provedores', 'provider transactions'],
  status_changes: ['mudanças de situação', 'status changes'],
};
const partName = (p) => say(...(PART_NAMES[p] ?? [p, p]));

function Downloads({ file }) {
  const url = `${base(file)}/download`;
  return html`<span class="downloads">
    <a href=${`${url}?format=json`} download>JSON</a>
    ${PARTS.map((p) => html` · <a href=${`${url}?format=csv&part=${p}`} download>${p}.csv</a>`)}
  </span>`;
}

function Check({ check }) {
  return html`<article class="card" data-file=${`${check.brandId}/${check.date}`} aria-label=${`File ${check.brandId} ${check.date}`}>
    <h2><${BrandName} brandId=${check.brandId} /> · <${Day} date=${check.date} /> <small>${ties(check.ties)}</small></h2>
    <p class="muted">${check.timeZone} (${source(check.timeZoneSource)}) · ${say('gerado', 'made')} <${ZonedTime} iso=${check.madeAt} zone=${check.timeZone} /> · ${say('verificado', 'checked')} <${ZonedTime} iso=${check.checkedAt} zone=${check.timeZone} /></p>
    <p>${say('Razão', 'Ledger')}: ${say('abertura', 'opening')} ${money(check.totals.opening)}, ${say('depósitos', 'deposits')} ${money(check.totals.deposits)}, ${say('saques', 'withdrawals')} ${money(check.totals.withdrawals)}, ${say('apostas', 'bets')} ${money(check.totals.bets)}, ${say('prêmios', 'wins')} ${money(check.totals.wins)}, ${say('outros', 'other')} ${money(check.totals.other)}, ${say('fechamento', 'closing')} ${money(check.totals.closing)}</p>
    <p>${say('Linhas', 'Line items')}: ${say('depósitos', 'deposits')} ${money(check.lineTotals.deposits)}, ${say('saques', 'withdrawals')} ${money(check.lineTotals.withdrawals)}, ${say('apostas', 'stakes')} ${money(check.lineTotals.stakes)}, ${say('pagamentos', 'payouts')} ${money(check.lineTotals.payouts)}; ${say('dos provedores: apostas', "providers' bets")} ${money(check.lineTotals.providerBets)}, ${say('prêmios', 'wins')} ${money(check.lineTotals.providerWins)}, ${say('estornos', 'rollbacks')} ${money(check.lineTotals.providerRollbacks)}, ${say('correções', 'corrections')} ${money(check.lineTotals.providerCorrections)}</p>
    ${check.problems.length ? html`<ul class="error">${check.problems.map((p) => html`<li>${p}</li>`)}</ul>` : null}
    <p><${Downloads} file=${check} /></p>
  </article>`;
}

// A file made before providers' lines were listed has no count of them (it had none).
const counts = (c) => (c ? PARTS.map((p) => `${c[p] ?? 0} ${partName(p)}`).join(' · ') : say('só a parte do razão', 'ledger part only'));

export function ReportsPage() {
  const params = new URLSearchParams(location.search);
  const { environment, toggle } = useEnvironment();
  const [filter, setFilter] = useState({ brandId: params.get('brandId') ?? '', from: params.get('from') ?? '', to: params.get('to') ?? '' });
  const [cursor, setCursor] = useState(undefined);
  const [check, setCheck] = useState(undefined);
  const [dayBrand, setDayBrand] = useState('');
  const action = useAction();
  const list = useLoad(
    () => api('GET', `/admin/reports/daily/files${query({ ...filter, environment, cursor, limit: 30 })}`),
    [filter.brandId, filter.from, filter.to, environment, cursor],
  );
  const submit = (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    setCursor(undefined);
    setFilter({ brandId: f.brandId.value, from: f.from.value, to: f.to.value });
  };
  const checkDay = async (brandId, date) => {
    const result = await action.run(() => api('GET', `/admin/reports/daily/files/${encodeURIComponent(brandId)}/${date}`));
    if (result) {
      setCheck(result);
      list.reload();
    }
  };
  const submitDay = (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    if (!f.brandId.value) return;
    checkDay(f.brandId.value, f.date.value);
  };
  return html`<div>
    <p>${say(
      'Um arquivo por marca e dia, no fuso da marca, feito logo após a meia-noite dela (Portaria SPA/MF 722/2024, art. 10; leiaute nosso: os formatos do SIGAP não são públicos).',
      "One file per brand and day, in the brand's time zone, made shortly after its midnight (SPA/MF Ordinance 722/2024, art. 10; our own layout: the SIGAP formats are not public).",
    )}</p>
    <h2>${say('O arquivo de um dia', "A day's file")}</h2>
    <form class="search" onSubmit=${submitDay} aria-label=${say('Verificar um dia', 'Check a day')}>
      <${BrandPicker} name="brandId" value=${dayBrand} onChange=${setDayBrand} required=${true} />
      <label>${say('Dia', 'Day')} <input name="date" type="date" required /></label>
      <button type="submit" disabled=${action.busy || !dayBrand}>${action.busy ? say('Verificando…', 'Checking…') : may('compliance', 'finance') ? say('Gerar ou verificar', 'Make or check') : say('Verificar', 'Check')}</button>
    </form>
    <${ErrorNote} error=${action.error} />
    ${check ? html`<${Check} check=${check} />` : null}
    <h2>${say('Arquivos guardados', 'Kept files')}</h2>
    ${toggle}
    <form class="search" onSubmit=${submit} aria-label=${say('Filtrar arquivos', 'Filter files')}>
      <${BrandPicker} name="brandId" environment=${environment} value=${filter.brandId} />
      <label>${say('De', 'From')} <input name="from" type="date" value=${filter.from} /></label>
      <label>${say('Até', 'To')} <input name="to" type="date" value=${filter.to} /></label>
      <button type="submit">${say('Listar', 'List')}</button>
    </form>
    <${Loaded} state=${list}>${(page) => html`
      ${
        page.data.length === 0
          ? html`<p class="empty">${say('Nenhum arquivo guardado para este filtro.', 'No file is kept for this filter.')}</p>`
          : html`<table class="stack files"><thead><tr><th>${say('Dia', 'Day')}</th><th>${say('Marca', 'Brand')}</th><th>${say('Fuso', 'Time zone')}</th><th>${say('Verificação', 'Check')}</th><th>${say('Gerado', 'Made')}</th><th>${say('Linhas', 'Lines')}</th><th>Download</th><th></th></tr></thead>
            <tbody>${page.data.map(
              (f) => html`<tr data-file=${`${f.brandId}/${f.date}`} data-environment=${f.environment ?? 'unknown'}>
                <td data-label=${say('Dia', 'Day')} data-date=${f.date}><${Day} date=${f.date} /></td>
                <td data-label=${say('Marca', 'Brand')}><${BrandName} brandId=${f.brandId} /></td>
                <td data-label=${say('Fuso', 'Time zone')}>${f.timeZone} <span class="muted">(${source(f.timeZoneSource)})</span></td>
                <td data-label=${say('Verificação', 'Check')}>${ties(f.ties)} <span class="muted"><${ZonedTime} iso=${f.checkedAt} zone=${f.timeZone} /></span></td>
                <td data-label=${say('Gerado', 'Made')}><${ZonedTime} iso=${f.madeAt} zone=${f.timeZone} /></td>
                <td data-label=${say('Linhas', 'Lines')}>${counts(f.counts)}</td>
                <td data-label="Download"><${Downloads} file=${f} /></td>
                <td><button type="button" onClick=${() => checkDay(f.brandId, f.date)} disabled=${action.busy}>${say('Verificar', 'Check')}</button></td>
              </tr>`,
            )}</tbody></table>`
      }
      ${page.nextCursor ? html`<button type="button" onClick=${() => setCursor(page.nextCursor)}>${say('Próxima página', 'Next page')}</button>` : null}
    `}<//>
    <${SigapSection} environment=${environment} />
  </div>`;
}
