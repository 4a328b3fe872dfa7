// SIGAP files on the Regulator files page (issue #46; docs/aml.md, "SIGAP files"). Three parts:
// - DayPicker: a brand picked from ours (never typed, issue #61) and a day: the day's files, made
//   first when the day is over and its daily file ties;
// - Day: each file with its version, part, status, SIGAP's receipt or the phase and reasons of its
//   rejection, its download, and whether it reached SIGAP on time (06:00 of the next day in the
//   brand's zone) or late; sending the day (disabled, with why, once SIGAP accepted it: the API
//   refuses a second sending too) and a rejected type again after a correction (compliance; finance
//   reads);
// - KeptFiles: the kept files, newest day first (the environment the page shows; one brand, a range
//   of days, one status, the overdue or late ones);
// - OperatorCnpj and MonthlyReports (issue #60 item 4): the operator's CNPJ every SIGAP file of its
//   brands carries (registered or corrected with a reason by compliance; read by finance), and a brand's
//   monthly report of a month that is over, every version kept (made by compliance; read by finance).
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, useAction, Loaded, ErrorNote, ZonedTime, Day as CalendarDay, BrandName, EnvMark, may, money, label, say } from './kit.js';
import { BrandPicker, OperatorPicker } from './pickers.js';

const STATUSES = ['made', 'sending', 'pending', 'accepted', 'rejected', 'failed'];
const TIMELINESS = ['overdue', 'late', 'due', 'on_time'];
const dayPath = (brandId, date) => `/admin/reports/sigap/files/${encodeURIComponent(brandId)}/${date}`;
const downloadOf = (f) => `${dayPath(f.brandId, f.date)}/${encodeURIComponent(f.id)}/download`;

/** On time, late, overdue or due: a mark beside the file or the day. */
export const Timeliness = ({ value }) => (value ? html`<span class=${`timeliness t-${value}`} data-timeliness=${value}>${label(value)}</span>` : null);

function Answer({ file }) {
  if (file.status === 'accepted') return html`<span>${say('recibo', 'receipt')} <code>${file.receipt}</code></span>`;
  if (file.status === 'rejected')
    return html`<details><summary>${file.phase} · ${file.reasons.length} ${say('motivo(s)', 'reason(s)')}</summary>
      <ul class="error">${file.reasons.map((r) => html`<li><code>${r.code}</code> ${r.message}</li>`)}</ul></details>`;
  if (file.status === 'pending') return html`<span class="muted">${say('protocolo', 'protocol')} <code>${file.protocol}</code></span>`;
  if (file.status === 'failed') return html`<span class="error">${say('não entregue', 'not delivered')}: ${file.lastError}</span>`;
  return html`<span class="muted">—</span>`;
}

function FilesTable({ files, zone }) {
  return html`<table class="stack sigap-files"><thead><tr><th>${say('Dia', 'Day')}</th><th>${say('Marca', 'Brand')}</th><th>${say('Tipo', 'Type')}</th><th>${say('Versão', 'Version')}</th><th>${say('Parte', 'Part')}</th><th>${say('Registros', 'Records')}</th><th>${say('Situação', 'Status')}</th><th>${say('Prazo', 'Deadline')}</th><th>SIGAP</th><th>${say('Enviado', 'Sent')}</th><th>${say('Arquivo', 'File')}</th></tr></thead>
    <tbody>${files.map(
      (f) => html`<tr data-sigap-file=${f.id} data-timeliness=${f.timeliness ?? 'replaced'} class=${f.supersededAt ? 'muted' : ''}>
        <td data-label=${say('Dia', 'Day')}><${CalendarDay} date=${f.date} /></td>
        <td data-label=${say('Marca', 'Brand')}><${BrandName} brandId=${f.brandId} /></td>
        <td data-label=${say('Tipo', 'Type')}>${label(f.fileType)}</td>
        <td data-label=${say('Versão', 'Version')}>${f.version}${f.supersededAt ? say(' (substituída)', ' (replaced)') : ''}${f.correction ? html`<br /><span class="muted">${f.correction}</span>` : null}</td>
        <td data-label=${say('Parte', 'Part')}>${f.part} ${say('de', 'of')} ${f.parts}</td>
        <td data-label=${say('Registros', 'Records')}>${f.records}</td>
        <td data-label=${say('Situação', 'Status')}>${label(f.status)} <span class="muted">(${f.via ?? say('não enviado', 'not sent')}, ${f.attempts} ${say('tentativa(s)', 'attempt(s)')})</span></td>
        <td data-label=${say('Prazo', 'Deadline')}><${Timeliness} value=${f.timeliness} /> <span class="muted"><${ZonedTime} iso=${f.deadline} zone=${zone} /></span></td>
        <td data-label="SIGAP"><${Answer} file=${f} /></td>
        <td data-label=${say('Enviado', 'Sent')}><${ZonedTime} iso=${f.submittedAt} zone=${zone} /></td>
        <td data-label=${say('Arquivo', 'File')}><a href=${downloadOf(f)} download>JSON</a></td>
      </tr>`,
    )}</tbody></table>`;
}

function Day({ day, onChange }) {
  const action = useAction();
  const rejected = [...new Set(day.files.filter((f) => !f.supersededAt && f.status === 'rejected').map((f) => f.fileType))];
  // Sent once SIGAP accepted the whole day: nothing to send again (the API refuses it too, issue #61).
  const sendBlocked =
    day.files.length === 0
      ? say('Nenhum arquivo foi gerado: o arquivo diário não fecha.', 'No file is made: the daily file does not tie.')
      : day.accepted
        ? say(
            'O SIGAP aceitou todos os arquivos deste dia: nada a reenviar. Um arquivo rejeitado é reenviado corrigido, abaixo.',
            'SIGAP accepted every file of this day: nothing to send again. A rejected file is sent again, corrected, below.',
          )
        : undefined;
  const send = async () => {
    const result = await action.run(() => api('POST', `${dayPath(day.brandId, day.date)}/submit`));
    if (result) onChange(result);
  };
  const resend = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const result = await action.run(() =>
      api('POST', `${dayPath(day.brandId, day.date)}/resend`, { fileType: f.fileType.value, correction: f.correction.value.trim() }),
    );
    if (result) onChange(result);
  };
  return html`<article class="card" data-sigap-day=${`${day.brandId}/${day.date}`} data-timeliness=${day.timeliness} aria-label=${`SIGAP ${day.brandId} ${day.date}`}>
    <h2><${BrandName} brandId=${day.brandId} /> · <${CalendarDay} date=${day.date} /> <small data-accepted=${day.accepted}>${day.accepted ? label('accepted') : say('não aceito', 'not accepted')}</small> <${Timeliness} value=${day.timeliness} /></h2>
    <p class="muted">${say('prazo', 'due by')} <${ZonedTime} iso=${day.deadline} zone=${day.timeZone} /> ${say('(06:00 do dia seguinte no fuso da marca)', "(06:00 the next day in the brand's zone)")}</p>
    ${day.dailyFileTies ? null : html`<p class="error">${say('O arquivo diário não fecha: nenhum arquivo SIGAP é gerado dele.', 'The daily file does not tie: no SIGAP file is made from it.')}</p><ul class="error">${day.problems.map((p) => html`<li>${p}</li>`)}</ul>`}
    ${day.files.length ? html`<${FilesTable} files=${day.files} zone=${day.timeZone} />` : null}
    ${
      may('compliance')
        ? html`<p><button type="button" onClick=${send} disabled=${action.busy || sendBlocked !== undefined} aria-describedby=${sendBlocked ? `send-blocked-${day.brandId}-${day.date}` : undefined}
              >${action.busy ? say('Enviando…', 'Sending…') : say('Enviar ao SIGAP', 'Send to SIGAP')}</button></p>
          ${sendBlocked ? html`<p class="note" id=${`send-blocked-${day.brandId}-${day.date}`} data-send-blocked>${sendBlocked}</p>` : null}
          ${
            rejected.length
              ? html`<form class="search" onSubmit=${resend} aria-label="Resend after a correction">
                  <label>${say('Tipo', 'Type')} <select name="fileType">${rejected.map((t) => html`<option value=${t}>${label(t)}</option>`)}</select></label>
                  <label>${say('Correção', 'Correction')} <input name="correction" required minlength="3" maxlength="500" placeholder=${say('O que foi corrigido', 'What was corrected')} /></label>
                  <button type="submit" disabled=${action.busy}>${say('Reenviar', 'Resend')}</button>
                </form>`
              : null
          }`
        : null
    }
    <${ErrorNote} error=${action.error} />
  </article>`;
}

/** A brand picked from ours and a day: the day's files (made first when due). */
function DayPicker({ onDay }) {
  const [brandId, setBrandId] = useState('');
  const action = useAction();
  const openDay = async (e) => {
    e.preventDefault();
    if (!brandId) return;
    const result = await action.run(() => api('GET', dayPath(brandId, e.currentTarget.date.value)));
    if (result) onDay(result);
  };
  return html`<form class="search" onSubmit=${openDay} aria-label="SIGAP day">
      <${BrandPicker} name="brandId" value=${brandId} onChange=${setBrandId} required=${true} />
      <label>${say('Dia', 'Day')} <input name="date" type="date" required /></label>
      <button type="submit" disabled=${action.busy || !brandId}>${action.busy ? say('Gerando…', 'Making…') : say('Gerar ou mostrar', 'Make or show')}</button>
    </form>
    <${ErrorNote} error=${action.error} />`;
}

/** The kept files of the environment shown, newest day first, with the filters. */
function KeptFiles({ environment, version }) {
  const [filter, setFilter] = useState({ brandId: '', from: '', to: '', status: '', timeliness: '' });
  const [cursor, setCursor] = useState(undefined);
  const list = useLoad(
    () => api('GET', `/admin/reports/sigap/files${query({ ...filter, environment, cursor, limit: 30 })}`),
    [filter.brandId, filter.from, filter.to, filter.status, filter.timeliness, environment, cursor, version],
  );
  const submit = (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    setCursor(undefined);
    setFilter({ brandId: f.brandId.value, from: f.from.value, to: f.to.value, status: f.status.value, timeliness: f.timeliness.value });
  };
  return html`<h3>${say('Arquivos SIGAP guardados', 'Kept SIGAP files')}</h3>
    <form class="search" onSubmit=${submit} aria-label="Filter SIGAP files">
      <${BrandPicker} name="brandId" environment=${environment} value=${filter.brandId} />
      <label>${say('De', 'From')} <input name="from" type="date" value=${filter.from} /></label>
      <label>${say('Até', 'To')} <input name="to" type="date" value=${filter.to} /></label>
      <label>${say('Situação', 'Status')} <select name="status" value=${filter.status}><option value="">${say('qualquer', 'any')}</option>${STATUSES.map((s) => html`<option value=${s}>${label(s)}</option>`)}</select></label>
      <label>${say('Prazo', 'Deadline')} <select name="timeliness" value=${filter.timeliness}><option value="">${say('qualquer', 'any')}</option>${TIMELINESS.map(
        (s) => html`<option value=${s}>${label(s)}</option>`,
      )}</select></label>
      <button type="submit">${say('Listar', 'List')}</button>
    </form>
    <${Loaded} state=${list}>${(page) => html`
      ${page.data.length === 0 ? html`<p class="empty">${say('Nenhum arquivo SIGAP guardado para este filtro.', 'No SIGAP file is kept for this filter.')}</p>` : html`<${FilesTable} files=${page.data} />`}
      ${page.nextCursor ? html`<button type="button" onClick=${() => setCursor(page.nextCursor)}>${say('Próxima página', 'Next page')}</button>` : null}
    `}<//>`;
}

export function SigapSection({ environment = 'production' }) {
  const [day, setDay] = useState(undefined);
  const [version, setVersion] = useState(0);
  const changed = (next) => {
    setDay(next);
    setVersion((v) => v + 1);
  };
  return html`<section aria-label="SIGAP files">
    <h2>${say('Arquivos SIGAP', 'SIGAP files')}</h2>
    <p>${say(
      'O que o SIGAP recebe do dia de uma marca (Portaria SPA/MF 722/2024, art. 10), gerado do arquivo diário quando ele fecha, até as 06:00 do dia seguinte no fuso da marca; um arquivo conta como enviado só quando o SIGAP o aceita. Leiaute nosso até o modelo de dados do manual do SIGAP ser público.',
      "What SIGAP receives of a brand's day (Portaria SPA/MF 722/2024, art. 10), made from its daily file once it ties, by 06:00 the next day in the brand's zone; a file counts as sent only once SIGAP accepts it. Our own layout until the SIGAP manual's data model is public.",
    )}</p>
    <${DayPicker} onDay=${changed} />
    ${day ? html`<${Day} day=${day} onChange=${changed} />` : null}
    <${KeptFiles} environment=${environment} version=${version} />
    <${OperatorCnpj} />
    <${MonthlyReports} />
  </section>`;
}

/** 14 digits as people write a CNPJ: 11.222.333/0001-81. */
const cnpjText = (d) => (d && /^\d{14}$/.test(d) ? `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}` : (d ?? '—'));

/** The operator's CNPJ on its brands' SIGAP files: read by everyone who reads SIGAP, registered by compliance. */
function OperatorCnpj() {
  const [operatorId, setOperatorId] = useState('');
  const current = useLoad(
    () => (operatorId ? api('GET', `/admin/reports/sigap/operators/${encodeURIComponent(operatorId)}`) : Promise.resolve(undefined)),
    [operatorId],
  );
  const action = useAction();
  const submit = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const body = { cnpj: f.cnpj.value.trim(), reason: f.reason.value.trim() };
    if (
      !confirm(
        say(`Registrar o CNPJ ${body.cnpj}? Os arquivos gerados a partir de agora o levam.`, `Register CNPJ ${body.cnpj}? Files made from now on carry it.`),
      )
    )
      return;
    if (await action.run(() => api('PUT', `/admin/reports/sigap/operators/${encodeURIComponent(operatorId)}`, body))) {
      f.reset();
      current.reload();
    }
  };
  return html`<section aria-label="Operator CNPJ">
    <h3>${say('CNPJ do operador nos arquivos SIGAP', "The operator's CNPJ on the SIGAP files")}</h3>
    <form class="inline" aria-label="Choose the operator for its CNPJ" onSubmit=${(e) => e.preventDefault()}>
      <${OperatorPicker} value=${operatorId} onChange=${setOperatorId} />
    </form>
    ${
      operatorId
        ? html`<${Loaded} state=${current}>${(o) =>
            o
              ? html`<p data-cnpj=${o.cnpj ?? ''}>${
                  o.cnpj
                    ? html`CNPJ <strong>${cnpjText(o.cnpj)}</strong> <span class="muted">· ${o.reason} · ${o.setBy} <${ZonedTime} iso=${o.setAt} /></span>`
                    : html`<strong class="hold">${say(
                        'Nenhum CNPJ registrado: os arquivos SIGAP das marcas de produção deste operador não são gerados.',
                        "No CNPJ registered: this operator's production brands' SIGAP files are not made.",
                      )}</strong>`
                }</p>
                ${
                  may('compliance')
                    ? html`<form class="inline" onSubmit=${submit} aria-label="Register the CNPJ">
                        <label>CNPJ <input name="cnpj" required minlength="14" maxlength="18" pattern="[0-9./\-]+" placeholder="00.000.000/0000-00" /></label>
                        <label>${say('Motivo', 'Reason')} <input name="reason" required minlength="3" maxlength="500" /></label>
                        <button type="submit" disabled=${action.busy}>${o.cnpj ? say('Corrigir', 'Correct') : say('Registrar', 'Register')}</button>
                        <${ErrorNote} error=${action.error} />
                      </form>`
                    : null
                }`
              : null}<//>`
        : null
    }
  </section>`;
}

const lastMonth = () => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
  const [y, m] = today.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
};

function downloadMonthly(r) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([r.content], { type: 'application/json;charset=utf-8' }));
  link.download = `sigap-monthly_${r.brandId}_${r.month}_v${r.version}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/** A brand's monthly SIGAP report of a month that is over: every version kept, made again by compliance. */
function MonthlyReports() {
  const [chosen, setChosen] = useState({ brandId: '', month: lastMonth() });
  const [brandId, setBrandId] = useState('');
  const list = useLoad(
    () => (chosen.brandId ? api('GET', `/admin/reports/sigap/monthly/${encodeURIComponent(chosen.brandId)}/${chosen.month}`) : Promise.resolve(undefined)),
    [chosen.brandId, chosen.month],
  );
  const action = useAction();
  const make = async () => {
    if (await action.run(() => api('POST', `/admin/reports/sigap/monthly/${encodeURIComponent(chosen.brandId)}/${chosen.month}`))) list.reload();
  };
  return html`<section aria-label="SIGAP monthly report">
    <h3>${say('Relatório mensal ao SIGAP', 'Monthly report to SIGAP')}</h3>
    <p class="muted">${say(
      'Somado dos arquivos diários do mês (cada um fecha com o razão), com o CNPJ do operador; cada geração é uma nova versão guardada. Leiaute nosso até o modelo de dados do manual do SIGAP ser público.',
      "Summed from the month's daily files (each tying to the ledger), with the operator's CNPJ; each making is a new kept version. Our own layout until the SIGAP manual's data model is public.",
    )}</p>
    <form class="search" aria-label="SIGAP month" onSubmit=${(e) => {
      e.preventDefault();
      setChosen({ brandId, month: e.currentTarget.month.value });
    }}>
      <${BrandPicker} name="brandId" value=${brandId} onChange=${setBrandId} required=${true} />
      <label>${say('Mês', 'Month')} <input name="month" type="month" defaultValue=${lastMonth()} required /></label>
      <button type="submit" disabled=${!brandId}>${say('Mostrar', 'Show')}</button>
    </form>
    ${
      chosen.brandId
        ? html`<${Loaded} state=${list}>${(r) =>
            r
              ? html`${
                  r.versions.length === 0
                    ? html`<p class="empty">${say('Nenhum relatório deste mês guardado ainda.', 'No report of this month kept yet.')}</p>`
                    : html`<table class="stack sigap-monthly"><thead><tr><th>${say('Versão', 'Version')}</th><th>${say('Gerado', 'Made')}</th><th>CNPJ</th><th>${say('Dias', 'Days')}</th><th>${say('Totais', 'Totals')}</th><th>${say('Arquivo', 'File')}</th></tr></thead>
                    <tbody>${r.versions.map(
                      (v) => html`<tr data-monthly-version=${v.version}>
                        <td data-label=${say('Versão', 'Version')}>v${v.version} <${EnvMark} environment=${v.environment} /></td>
                        <td data-label=${say('Gerado', 'Made')}>${v.madeBy} <span class="muted"><${ZonedTime} iso=${v.madeAt} /></span></td>
                        <td data-label="CNPJ" data-monthly-cnpj=${v.operatorCnpj ?? ''}>${cnpjText(v.operatorCnpj)}</td>
                        <td data-label=${say('Dias', 'Days')}>${v.days}</td>
                        <td data-label=${say('Totais', 'Totals')}>${
                          v.totals.length === 0
                            ? '—'
                            : v.totals.map(
                                (x) =>
                                  html`<div data-monthly-currency=${x.currency}>${say('depósitos', 'deposits')} ${money(x.deposits, x.currency)} · ${say('saques', 'withdrawals')} ${money(x.withdrawals, x.currency)} · ${say('apostas', 'stakes')} ${money(x.stakes, x.currency)} · ${say('prêmios', 'prizes')} ${money(x.prizes, x.currency)} · GGR ${money(x.ggr, x.currency)} · ${say('saldos ao fim', 'closing balances')} ${money(x.closingBalances, x.currency)} (${x.accounts} ${say('contas', 'accounts')})</div>`,
                              )
                        }</td>
                        <td data-label=${say('Arquivo', 'File')}><button type="button" onClick=${() => downloadMonthly(v)}>JSON</button> <code class="muted" title="SHA-256">${v.checksum.slice(0, 12)}…</code></td>
                      </tr>`,
                    )}</tbody></table>`
                }
                ${
                  may('compliance')
                    ? html`<p><button type="button" onClick=${make} disabled=${action.busy}>${
                        action.busy
                          ? say('Gerando…', 'Making…')
                          : r.versions.length
                            ? say('Gerar de novo (nova versão)', 'Make again (a new version)')
                            : say('Gerar o relatório do mês', "Make the month's report")
                      }</button></p><${ErrorNote} error=${action.error} />`
                    : null
                }`
              : null}<//>`
        : null
    }
  </section>`;
}
