// Provider money for finance (issue #61 item 5), on the Providers page: what each brand owes the
// provider or is owed now (its clearing balance), and the provider's daily report in each brand's own
// day (its time zone): bets, wins, rollbacks, corrections, GGR and whether it ties to the ledger.
// Finance reads both; admins too. Players' debts and rounds left open are page-providers.js's.
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, Loaded, ZonedTime, BrandName, EnvMark, money, label, say } from './kit.js';

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
              <td data-label=${say('Marca', 'Brand')}><${BrandName} brandId=${c.brandId} /> <${EnvMark} environment=${c.environment} /></td>
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
