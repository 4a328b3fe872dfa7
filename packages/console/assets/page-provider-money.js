// Provider money for finance (issue #61 item 5), on the Providers page: what each brand owes the
// provider or is owed now (its clearing balance), and the provider's daily report in each brand's own
// day (its time zone): bets, wins, rollbacks, corrections, GGR and whether it ties to the ledger.
// Finance reads both; admins too. Players' debts and rounds left open are page-providers.js's.
// What the brand owes the provider (issue #59 items 2-3): the month statement per brand and currency
// (its CSV), the revenue share with its history (finance sets it), and reconciliation with the
// provider's daily statements: the days and whether each ties, a day's differences by transaction id.
import { useState } from 'preact/hooks';
import {
  html,
  api,
  query,
  useLoad,
  useAction,
  Loaded,
  ErrorNote,
  ZonedTime,
  BrandName,
  EnvMark,
  Day,
  money,
  percent,
  monthName,
  person,
  label,
  may,
  say,
  decimalTyped,
} from './kit.js';

/** A provider's clearing balance per brand and currency now. */
export function Clearing({ base }) {
  const list = useLoad(() => api('GET', `${base}/clearing`), [base]);
  return html`<section aria-label="Clearing balance">
    <h3>${say('Saldo de compensação por marca', 'Clearing balance per brand')}</h3>
    <p class="muted">${say(
      'Positivo: o que os apostadores perderam nos jogos do provedor, guardado para a liquidação (a marca deve ao provedor conforme o contrato); negativo: os jogos pagaram mais do que receberam (o provedor deve à marca).',
      "Positive: what players lost on the provider's games, held toward its settlement (the brand owes it under the contract); negative: its games paid out more than they took (the provider owes the brand).",
    )}</p>
    <${Loaded} state=${list}>${(page) =>
      page.data.length === 0
        ? html`<p class="empty">${say('Nenhum movimento ainda.', 'No money moved yet.')}</p>`
        : html`<table class="stack clearing"><thead><tr><th>${say('Marca', 'Brand')}</th><th class="num">${say('Saldo', 'Balance')}</th><th>${say('Posição', 'Position')}</th></tr></thead>
          <tbody>${page.data.map(
            (c) => html`<tr data-clearing=${`${c.brandId}/${c.currency}`} data-position=${c.position} data-environment=${c.environment}>
              <td data-label=${say('Marca', 'Brand')}><${BrandName} brandId=${c.brandId} /></td>
              <td data-label=${say('Saldo', 'Balance')} class="num" data-balance=${c.balance}>${money(c.balance, c.currency)}</td>
              <td data-label=${say('Posição', 'Position')}>${label(c.position)}</td>
            </tr>`,
          )}</tbody></table>`}<//>
  </section>`;
}

const yesterday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() - 86_400_000));

/** The provider's day per brand, each in the brand's own day. */
export function DailyReport({ base }) {
  const [date, setDate] = useState(yesterday());
  const report = useLoad(() => api('GET', `${base}/daily-report${query({ date })}`), [base, date]);
  return html`<section aria-label="Daily report">
    <h3>${say('Relatório diário', 'Daily report')}</h3>
    <form class="inline" onSubmit=${(e) => {
      e.preventDefault();
      setDate(e.currentTarget.date.value);
    }}>
      <label>${say('Dia (no fuso de cada marca)', "Day (in each brand's time zone)")} <input name="date" type="date" value=${date} required /></label>
      <button type="submit">${say('Mostrar', 'Show')}</button>
    </form>
    <${Loaded} state=${report}>${(r) =>
      r.brands.length === 0
        ? html`<p class="empty">${say('Nenhuma jogada neste dia.', 'No play on this day.')}</p>`
        : html`<table class="stack provider-day"><thead><tr><th>${say('Marca', 'Brand')}</th><th>${say('Dia', 'Day')}</th><th class="num">${say('Apostas', 'Bets')}</th><th class="num">${say('Prêmios', 'Wins')}</th><th class="num">${say('Estornos', 'Rollbacks')}</th><th class="num">${say('Correções', 'Corrections')}</th><th class="num">GGR</th><th>${say('Confere', 'Ties')}</th></tr></thead>
          <tbody>${r.brands.map(
            (b) => html`<tr data-provider-day=${`${b.brandId}/${b.currency}`} data-ties=${b.ties}>
              <td data-label=${say('Marca', 'Brand')}><${BrandName} brandId=${b.brandId} /></td>
              <td data-label=${say('Dia', 'Day')} data-day-from=${b.from}><${ZonedTime} iso=${b.from} zone=${b.timeZone} /> – <${ZonedTime} iso=${b.to} zone=${b.timeZone} /></td>
              <td data-label=${say('Apostas', 'Bets')} class="num">${b.bets.count} · ${money(b.bets.amount, b.currency)}</td>
              <td data-label=${say('Prêmios', 'Wins')} class="num">${b.wins.count} · ${money(b.wins.amount, b.currency)}</td>
              <td data-label=${say('Estornos', 'Rollbacks')} class="num">${b.rollbacks.count} · ${money(b.rollbacks.amount, b.currency)}</td>
              <td data-label=${say('Correções', 'Corrections')} class="num">${b.corrections.count} · ${money(b.corrections.amount, b.currency)}</td>
              <td data-label="GGR" class="num">${money(b.ggr, b.currency)}</td>
              <td data-label=${say('Confere', 'Ties')}>${b.ties ? say('sim', 'yes') : html`<strong class="error">${say('não', 'no')} (${money(b.ledgerNet, b.currency)})</strong>`}</td>
            </tr>`,
          )}</tbody></table>`}<//>
  </section>`;
}

const thisMonth = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit' }).format(new Date()).slice(0, 7);
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
const daysBefore = (day, n) => new Date(Date.parse(`${day}T12:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
/** A count and its amount, as a cell reads them: the amount, its count under it (a statement's cells stay narrow: issue #70). */
const figure = (f, currency) => html`${money(String(f.amount).replace(/^-/, ''), currency)}<br /><small>${f.count}×</small>`;

/** What each brand owes the provider for a month, per brand and currency, tied to the clearing account (issue #59 item 3). */
export function MonthStatement({ base, changed }) {
  const [month, setMonth] = useState(thisMonth());
  const statement = useLoad(() => api('GET', `${base}/statements/${month}`), [base, month, changed]);
  const cell = (what, content, extra = {}) => html`<td data-label=${what} class="num" ...${extra}>${content}</td>`;
  return html`<section aria-label="Month statement">
    <h3>${say('O que a marca deve ao provedor no mês', 'What the brand owes the provider for the month')}</h3>
    <form class="inline" onSubmit=${(e) => {
      e.preventDefault();
      setMonth(e.currentTarget.month.value);
    }}>
      <label>${say('Mês (no fuso de cada marca)', "Month (in each brand's time zone)")} <input name="month" type="month" value=${month} required /></label>
      <button type="submit">${say('Mostrar', 'Show')}</button>
      <a class="button" href=${`${base}/statements/${month}/csv`} download data-statement-csv>${say('Baixar CSV', 'Download CSV')}</a>
    </form>
    <${Loaded} state=${statement}>${(s) =>
      s.brands.length === 0
        ? html`<p class="empty">${say('Nenhuma jogada neste mês.', 'No play in this month.')}</p>`
        : html`<table class="stack month-statement"><thead><tr>
            <th>${say('Marca', 'Brand')}</th><th class="num">${say('Apostas', 'Bets')}</th><th class="num">${say('Prêmios', 'Wins')}</th>
            <th class="num">${say('Estornos e correções', 'Rollbacks and corrections')}</th><th class="num">${say('Apostas grátis do provedor', 'Provider-funded stakes')}</th>
            <th class="num">${say('Créditos do provedor', 'Provider-funded credits')}</th><th class="num">${say('Jackpot: contribuições / prêmios', 'Jackpot: contributions / wins')}</th>
            <th class="num">GGR</th><th class="num">${say('Participação', 'Revenue share')}</th><th class="num">${say('Devido', 'Amount due')}</th><th>${say('Confere com o razão', 'Ties to the ledger')}</th>
          </tr></thead>
          <tbody>${s.brands.map((b) => {
            const c = b.currency;
            return html`<tr data-statement=${`${b.brandId}/${c}`} data-ties=${b.ties}>
              <td data-label=${say('Marca', 'Brand')}><${BrandName} brandId=${b.brandId} /><br /><small>${c} · ${say('desde', 'from')} <${ZonedTime} iso=${b.from} zone=${b.timeZone} /></small></td>
              ${cell(say('Apostas', 'Bets'), figure(b.bets, c))}
              ${cell(say('Prêmios', 'Wins'), figure(b.wins, c))}
              ${cell(say('Estornos e correções', 'Rollbacks and corrections'), html`${money(b.rollbacks.amount, c)} <small>(${b.rollbacks.count}×)</small><br />${money(b.corrections.amount, c)} <small>(${b.corrections.count}×)</small>`)}
              ${cell(say('Apostas grátis do provedor', 'Provider-funded stakes'), figure(b.freeBets, c))}
              ${cell(say('Créditos do provedor', 'Provider-funded credits'), html`${money(b.providerFundedCredits, c)}<br /><small>${b.freeBetWins.count + b.promoCredits.count + b.jackpotWins.count}×</small>`)}
              ${cell(say('Jackpot: contribuições / prêmios', 'Jackpot: contributions / wins'), html`${money(b.jackpotContributions.amount, c)}<br />${money(b.jackpotWins.amount, c)}`)}
              ${cell('GGR', html`${money(b.ggr, c)}<br /><small>${say('líquido', 'net')} ${money(b.netGgr, c)}</small>`)}
              ${cell(say('Participação', 'Revenue share'), html`${b.sharePercent === null ? say('não definida', 'not set') : percent(b.sharePercent)}<br />${money(b.revenueShare, c)}`, { 'data-share': b.sharePercent ?? '' })}
              ${cell(say('Devido', 'Amount due'), html`<strong>${money(b.amountDue, c)}</strong>`, { 'data-amount-due': b.amountDue })}
              <td data-label=${say('Confere com o razão', 'Ties to the ledger')}>${
                b.ties ? say('sim', 'yes') : html`<strong class="error">${say('não', 'no')} (${say('razão', 'ledger')} ${money(b.ledgerNet, c)})</strong>`
              }</td>
            </tr>`;
          })}</tbody></table>`}<//>
  </section>`;
}

/** The provider's revenue share, with its history (each change from a month on); finance sets it (issue #59 item 3). */
export function RevenueShares({ base, onChange }) {
  const list = useLoad(() => api('GET', `${base}/revenue-shares`), [base]);
  const action = useAction();
  const submit = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const body = { effectiveFrom: f.effectiveFrom.value, sharePercent: decimalTyped(f.sharePercent.value), reason: f.reason.value.trim() };
    if (
      !confirm(
        say(
          `Definir a participação em ${percent(body.sharePercent)} a partir de ${monthName(body.effectiveFrom)}?`,
          `Set the revenue share to ${percent(body.sharePercent)} from ${monthName(body.effectiveFrom)} on?`,
        ),
      )
    )
      return;
    if (await action.run(() => api('POST', `${base}/revenue-shares`, body))) {
      f.reset();
      list.reload();
      onChange?.();
    }
  };
  return html`<section aria-label="Revenue share">
    <h3>${say('Participação do provedor no GGR', "The provider's revenue share")}</h3>
    <${Loaded} state=${list}>${(page) =>
      page.data.length === 0
        ? html`<p class="empty">${say('Nenhuma participação definida: nada é devido sobre o GGR.', 'No revenue share set: nothing is due on the GGR.')}</p>`
        : html`<table class="stack revenue-shares"><thead><tr><th>${say('A partir de', 'From')}</th><th class="num">%</th><th>${say('Motivo', 'Reason')}</th><th>${say('Por', 'By')}</th></tr></thead>
          <tbody>${page.data.map(
            (r, i) => html`<tr data-share-row=${r.effectiveFrom} data-current=${i === 0}>
              <td data-label=${say('A partir de', 'From')} data-month=${r.effectiveFrom}>${monthName(r.effectiveFrom)}</td>
              <td data-label="%" class="num" data-percent=${r.sharePercent}>${percent(r.sharePercent)}</td>
              <td data-label=${say('Motivo', 'Reason')}>${r.reason}</td>
              <td data-label=${say('Por', 'By')}>${person(r.setBy)} <span class="muted"><${ZonedTime} iso=${r.createdAt} /></span></td>
            </tr>`,
          )}</tbody></table>`}<//>
    ${
      may('finance')
        ? html`<form class="inline" onSubmit=${submit} aria-label="Set the revenue share">
            <label>${say('A partir do mês', 'From the month')} <input name="effectiveFrom" type="month" defaultValue=${thisMonth()} required /></label>
            <label>${say('Participação (%)', 'Share (%)')} <input name="sharePercent" required inputmode="decimal" pattern="[0-9]{1,3}([.,][0-9]{1,2})?" size="6" /></label>
            <label>${say('Motivo', 'Reason')} <input name="reason" required maxlength="500" placeholder=${say('o contrato, o aditivo', 'the contract, its amendment')} /></label>
            <button type="submit" disabled=${action.busy}>${say('Definir', 'Set')}</button><${ErrorNote} error=${action.error} />
          </form>`
        : null
    }
  </section>`;
}

/** One side of a difference: what we or they have for the transaction. */
const Side = ({ side }) =>
  side
    ? html`${label(side.kind)} ${money(side.amount, side.currency)}${
        // Their amount exactly when it is not whole cents (Hub88's five decimals).
        side.exactAmount ? html` <span class="muted" data-exact-amount>(${side.exactAmount} ${side.currency})</span>` : null
      } · ${label(side.status)}`
    : html`<span class="muted">${say('não tem', 'none')}</span>`;

/** A reconciled day's differences, with the transaction ids. */
function ReconciliationDay({ base, date, environment }) {
  const day = useLoad(() => api('GET', `${base}/reconciliations/${date}${query({ environment })}`), [base, date, environment]);
  return html`<${Loaded} state=${day}>${(d) =>
    d.differences.length === 0
      ? html`<p class="empty" data-differences=${date}>${say('Nenhuma diferença neste dia.', 'No difference on this day.')}</p>`
      : html`<table class="stack reconciliation-differences" data-differences=${date}><thead><tr><th>${say('Transação', 'Transaction')}</th><th>${say('Diferença', 'Difference')}</th><th>${say('Nossa', 'Ours')}</th><th>${say('Do provedor', 'Theirs')}</th></tr></thead>
        <tbody>${d.differences.map(
          (x) => html`<tr data-difference=${x.transactionId} data-category=${x.category}>
            <td data-label=${say('Transação', 'Transaction')}><code>${x.transactionId}</code>${x.ours?.playerId || x.theirs?.playerId ? html` <code class="muted" title=${x.ours?.roundId ?? x.theirs?.roundId ?? ''}>${x.ours?.playerId ?? x.theirs?.playerId}</code>` : null}</td>
            <td data-label=${say('Diferença', 'Difference')}><strong>${label(x.category)}</strong>${x.fields.length ? html` <span class="muted">(${x.fields.map(label).join(', ')})</span>` : null}</td>
            <td data-label=${say('Nossa', 'Ours')}><${Side} side=${x.ours} /></td>
            <td data-label=${say('Do provedor', 'Theirs')}><${Side} side=${x.theirs} /></td>
          </tr>`,
        )}</tbody></table>`}<//>`;
}

/** Reconciliation with the provider's daily statements: the days, tie or not, a day's differences (issue #59 item 2). */
export function Reconciliations({ base }) {
  // Opens on the environment that has statements in the range: production's, else the sandbox's when only it
  // has some (issue #70: it opened on production with only sandbox statements); the person's choice after that.
  const [range, setRange] = useState({ from: daysBefore(today(), 30), to: today(), environment: undefined });
  const [open, setOpen] = useState(undefined);
  const days = useLoad(async () => {
    const list = (environment) => api('GET', `${base}/reconciliations${query({ ...range, environment })}`);
    if (range.environment) return { environment: range.environment, page: await list(range.environment) };
    const production = await list('production');
    if (production.data.length > 0) return { environment: 'production', page: production };
    const sandbox = await list('sandbox');
    return sandbox.data.length > 0 ? { environment: 'sandbox', page: sandbox } : { environment: 'production', page: production };
  }, [base, JSON.stringify(range)]);
  const shown = range.environment ?? days.data?.environment ?? 'production';
  return html`<section aria-label="Reconciliation">
    <h3>${say('Conciliação com o extrato diário do provedor', "Reconciliation with the provider's daily statement")}</h3>
    <form class="inline" onSubmit=${(e) => {
      e.preventDefault();
      const f = e.currentTarget;
      setOpen(undefined);
      setRange({ from: f.from.value, to: f.to.value, environment: f.environment.value });
    }}>
      <label>${say('De', 'From')} <input name="from" type="date" value=${range.from} required /></label>
      <label>${say('Até', 'To')} <input name="to" type="date" value=${range.to} required /></label>
      <label>${say('Ambiente', 'Environment')} <select name="environment">${['production', 'sandbox'].map(
        (env) => html`<option value=${env} selected=${env === shown}>${label(env)}</option>`,
      )}</select></label>
      <button type="submit">${say('Mostrar', 'Show')}</button>
    </form>
    <${Loaded} state=${days}>${({ page }) =>
      page.data.length === 0
        ? html`<p class="empty">${say('Nenhum extrato conciliado nestes dias.', 'No statement reconciled on these days.')}</p>`
        : html`<table class="stack reconciliations"><thead><tr><th>${say('Dia', 'Day')}</th><th>${say('Confere', 'Ties')}</th><th class="num">${say('Conferidas', 'Matched')}</th><th class="num">${say('Só nossas', 'Ours only')}</th><th class="num">${say('Só do provedor', 'Theirs only')}</th><th class="num">${say('Valor difere', 'Amount differs')}</th><th class="num">${say('Situação difere', 'Status differs')}</th><th>${say('Conciliado', 'Reconciled')}</th><th></th></tr></thead>
          <tbody>${page.data.map(
            (d) => html`<tr data-reconciliation=${d.date} data-ties=${d.ties} data-environment=${d.environment}>
              <td data-label=${say('Dia', 'Day')}><${Day} date=${d.date} /> <${EnvMark} environment=${d.environment} /></td>
              <td data-label=${say('Confere', 'Ties')}>${d.ties ? say('sim', 'yes') : html`<strong class="error" data-untied>${say('não', 'no')}</strong>`}</td>
              <td data-label=${say('Conferidas', 'Matched')} class="num">${d.matched}</td>
              <td data-label=${say('Só nossas', 'Ours only')} class="num">${d.oursOnly}</td>
              <td data-label=${say('Só do provedor', 'Theirs only')} class="num">${d.theirsOnly}</td>
              <td data-label=${say('Valor difere', 'Amount differs')} class="num">${d.amountDiffers}</td>
              <td data-label=${say('Situação difere', 'Status differs')} class="num">${d.statusDiffers}</td>
              <td data-label=${say('Conciliado', 'Reconciled')}><${ZonedTime} iso=${d.reconciledAt} zone=${d.timeZone} /></td>
              <td>${d.ties ? null : html`<button type="button" aria-expanded=${open === d.date} onClick=${() => setOpen(open === d.date ? undefined : d.date)}>${say('Diferenças', 'Differences')}</button>`}</td>
            </tr>`,
          )}</tbody></table>
          ${open ? html`<h4>${say('Diferenças de', 'Differences of')} <${Day} date=${open} /></h4><${ReconciliationDay} base=${base} date=${open} environment=${shown} />` : null}`}<//>
  </section>`;
}
