// The game register on the Providers page (issue #59 items 5 and 6; docs/games.md): the warning of
// certificates that end within 30 days or have ended (every provider, at the page's top), and per
// casino provider its games' certificates (state now, the current certificate, a form to record or
// correct one: admins) and RTP as measured in a month beside the certified RTP. Under br-spa a game
// without a valid certificate takes no bets.
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, useAction, Loaded, ErrorNote, Day, may, money, percent, say, decimalTyped } from './kit.js';

const STATE = {
  valid: ['válido', 'valid'],
  expiring: ['termina em breve', 'ending soon'],
  expired: ['expirado', 'expired'],
  missing: ['sem certificado', 'no certificate'],
};
const stateLabel = (s) => say(...STATE[s]);
const daysLeft = (n) => (n === null ? '' : n === 0 ? say('último dia', 'last day') : say(`${n} dias`, `${n} days`));

/** Certificates ending within 30 days or ended, across providers: the console's warning (alert GameCertificateExpired on the ended ones). */
export function CertificateWarnings() {
  const list = useLoad(() => api('GET', '/admin/game-certificates/warnings'));
  return html`<${Loaded} state=${list}>${(page) =>
    page.data.length === 0
      ? null
      : html`<section class="notice certificate-warnings" role="alert" aria-label="Certificates ending">
          <strong>${say('Certificados de jogos terminando ou terminados', 'Game certificates ending or ended')}</strong>
          <span class="muted"> ${say(
            '(sob as regras do Brasil, um jogo sem certificado válido não aceita apostas)',
            "(under Brazil's rules a game without a valid certificate takes no bets)",
          )}</span>
          <table class="stack"><thead><tr><th>${say('Provedor', 'Provider')}</th><th>${say('Jogo', 'Game')}</th><th>${say('Certificado', 'Certificate')}</th><th>${say('Válido até', 'Valid until')}</th><th>${say('Estado', 'State')}</th></tr></thead>
          <tbody>${page.data.map(
            (w) => html`<tr data-certificate-warning=${`${w.providerId}/${w.gameCode}`} data-state=${w.state}>
              <td data-label=${say('Provedor', 'Provider')}><a href=${`/providers?provider=${encodeURIComponent(w.providerId)}`}>${w.providerName}</a></td>
              <td data-label=${say('Jogo', 'Game')}>${w.name} <small><code>${w.gameCode}</code></small></td>
              <td data-label=${say('Certificado', 'Certificate')}><code>${w.certificateNumber}</code></td>
              <td data-label=${say('Válido até', 'Valid until')}><${Day} date=${w.validUntil} /></td>
              <td data-label=${say('Estado', 'State')}><strong>${stateLabel(w.state)}</strong> ${daysLeft(w.daysLeft)}</td>
            </tr>`,
          )}</tbody></table>
        </section>`}<//>`;
}

/** Records a certificate of one of the provider's games (or corrects the one of that number). */
function RecordCertificate({ base, games, onDone }) {
  const action = useAction();
  const submit = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const v = (name) => f[name].value.trim();
    const body = {
      laboratory: v('laboratory'),
      certifiedRtp: decimalTyped(v('certifiedRtp')),
      version: v('version'),
      issuedOn: v('issuedOn'),
      validUntil: v('validUntil'),
      regulatorReference: v('regulatorReference') || null,
      ...(v('volatility') ? { volatility: v('volatility') } : {}),
    };
    const path = `${base}/games/${encodeURIComponent(v('gameCode'))}/certificates/${encodeURIComponent(v('certificateNumber'))}`;
    if (await action.run(() => api('PUT', path, body))) {
      f.reset();
      onDone();
    }
  };
  return html`<form onSubmit=${submit} aria-label="Record a certificate" class="narrow">
    <label>${say('Jogo', 'Game')} <select name="gameCode" required>${games.map((g) => html`<option value=${g.gameCode}>${g.name} (${g.gameCode})</option>`)}</select></label>
    <label>${say('Laboratório', 'Laboratory')} <input name="laboratory" required maxlength="200" /></label>
    <label>${say('Número do certificado', 'Certificate number')} <input name="certificateNumber" required maxlength="128" /></label>
    <label>${say('RTP certificado (%)', 'Certified RTP (%)')} <input name="certifiedRtp" required inputmode="decimal" pattern="[0-9]{1,3}([.,][0-9]{1,2})?" placeholder=${say('96,50', '96.50')} /></label>
    <label>${say('Volatilidade (desvio padrão, opcional)', 'Volatility (standard deviation, optional)')} <input name="volatility" inputmode="decimal" pattern="[0-9]{1,3}(\\.[0-9]{1,2})?" /></label>
    <label>${say('Versão do jogo', 'Game version')} <input name="version" required maxlength="64" /></label>
    <label>${say('Emitido em', 'Issued on')} <input name="issuedOn" type="date" required /></label>
    <label>${say('Válido até', 'Valid until')} <input name="validUntil" type="date" required /></label>
    <label>${say('Referência do regulador (opcional)', "Regulator's reference (optional)")} <input name="regulatorReference" maxlength="200" /></label>
    <button type="submit" disabled=${action.busy}>${say('Registrar certificado', 'Record certificate')}</button>
    <${ErrorNote} error=${action.error} />
  </form>`;
}

/** A casino provider's games with their certificates now. */
export function GameRegister({ base }) {
  const list = useLoad(() => api('GET', `${base}/certificates`), [base]);
  return html`<section aria-label="Game register">
    <h3>${say('Registro de jogos (certificados)', 'Game register (certificates)')}</h3>
    <p class="muted">${say(
      'Sob as regras do Brasil (br-spa), um jogo sem certificado válido não aceita apostas em produção; o console avisa 30 dias antes do fim.',
      "Under Brazil's rules (br-spa) a game without a valid certificate takes no production bets; the console warns 30 days before one ends.",
    )}</p>
    <${Loaded} state=${list}>${(page) =>
      html`${
        page.data.length === 0
          ? html`<p class="empty">${say('Nenhum jogo.', 'No game.')}</p>`
          : html`<table class="stack game-register"><thead><tr><th>${say('Jogo', 'Game')}</th><th>${say('Estado', 'State')}</th><th>${say('Certificado', 'Certificate')}</th><th>${say('Laboratório', 'Laboratory')}</th><th class="num">RTP</th><th>${say('Versão', 'Version')}</th><th>${say('Válido', 'Valid')}</th><th>${say('Referência', 'Reference')}</th></tr></thead>
          <tbody>${page.data.map((g) => {
            const c = g.current;
            return html`<tr data-register-game=${g.gameCode} data-state=${g.state}>
              <td data-label=${say('Jogo', 'Game')}>${g.name} <small><code>${g.gameCode}</code></small></td>
              <td data-label=${say('Estado', 'State')} class=${g.state === 'valid' ? '' : 'warn'}><strong>${stateLabel(g.state)}</strong> ${daysLeft(g.daysLeft)}</td>
              <td data-label=${say('Certificado', 'Certificate')}>${c ? html`<code>${c.certificateNumber}</code>` : '—'}</td>
              <td data-label=${say('Laboratório', 'Laboratory')}>${c?.laboratory ?? '—'}</td>
              <td data-label="RTP" class="num">${c ? percent(c.certifiedRtp) : '—'}</td>
              <td data-label=${say('Versão', 'Version')}>${c?.version ?? '—'}</td>
              <td data-label=${say('Válido', 'Valid')}>${c ? html`<${Day} date=${c.issuedOn} /> – <${Day} date=${c.validUntil} />` : '—'}</td>
              <td data-label=${say('Referência', 'Reference')}>${c?.regulatorReference ? html`<code>${c.regulatorReference}</code>` : '—'}</td>
            </tr>`;
          })}</tbody></table>`
      }
      ${may() && page.data.length > 0 ? html`<${RecordCertificate} base=${base} games=${page.data} onDone=${list.reload} />` : null}`}<//>
  </section>`;
}

const thisMonth = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date()).slice(0, 7);

/** RTP as measured in a month, beside the certified RTP; outside the certificate's allowance only over a large enough sample. */
export function MeasuredRtp({ base }) {
  const [month, setMonth] = useState(thisMonth());
  const report = useLoad(() => api('GET', `${base}/rtp${query({ month })}`), [base, month]);
  const verdict = (g) =>
    !g.judged
      ? say('amostra pequena ou sem certificado', 'sample too small, or no certificate')
      : g.outside
        ? html`<strong class="error">${say('fora do certificado', 'outside the certificate')}</strong>`
        : say('dentro do certificado', 'within the certificate');
  return html`<section aria-label="RTP as measured">
    <h3>${say('RTP medido', 'RTP as measured')}</h3>
    <form class="inline" onSubmit=${(e) => {
      e.preventDefault();
      setMonth(e.currentTarget.month.value);
    }}>
      <label>${say('Mês (Brasília)', 'Month (Brasília)')} <input name="month" type="month" value=${month} required /></label>
      <button type="submit">${say('Mostrar', 'Show')}</button>
    </form>
    <${Loaded} state=${report}>${(r) =>
      html`<p class="muted">${say(
        `Rodadas liquidadas no mês; prêmios sem jackpots externos. Julgado com ao menos ${r.sample.minEffectiveRounds} rodadas efetivas (ponderadas pela aposta): fora quando mais longe do RTP certificado que ${r.sample.z} erros padrão.`,
        `Rounds settled in the month; wins without external jackpots. Judged over at least ${r.sample.minEffectiveRounds} effective (stake-weighted) rounds: outside when further from the certified RTP than ${r.sample.z} standard errors.`,
      )}</p>
      ${
        r.data.length === 0
          ? html`<p class="empty">${say('Nenhum jogo.', 'No game.')}</p>`
          : html`<table class="stack game-rtp"><thead><tr><th>${say('Jogo', 'Game')}</th><th class="num">${say('Rodadas', 'Rounds')}</th><th class="num">${say('Apostas', 'Stakes')}</th><th class="num">${say('Prêmios', 'Wins')}</th><th class="num">${say('RTP medido', 'Measured RTP')}</th><th class="num">${say('RTP certificado', 'Certified RTP')}</th><th class="num">${say('Tolerância', 'Tolerance')}</th><th>${say('Resultado', 'Verdict')}</th></tr></thead>
          <tbody>${r.data.map(
            (g) => html`<tr data-rtp-game=${`${g.gameCode}/${g.currency ?? ''}`} data-judged=${g.judged} data-outside=${String(g.outside)}>
              <td data-label=${say('Jogo', 'Game')}>${g.name} <small><code>${g.gameCode}</code></small></td>
              <td data-label=${say('Rodadas', 'Rounds')} class="num">${g.rounds}</td>
              <td data-label=${say('Apostas', 'Stakes')} class="num">${g.currency ? money(g.stakes, g.currency) : '—'}</td>
              <td data-label=${say('Prêmios', 'Wins')} class="num">${g.currency ? money(g.wins, g.currency) : '—'}</td>
              <td data-label=${say('RTP medido', 'Measured RTP')} class="num" data-measured>${g.measuredRtp === null ? '—' : percent(g.measuredRtp)}</td>
              <td data-label=${say('RTP certificado', 'Certified RTP')} class="num">${g.certifiedRtp === null ? '—' : percent(g.certifiedRtp)}</td>
              <td data-label=${say('Tolerância', 'Tolerance')} class="num">${g.tolerance === null ? '—' : `± ${g.tolerance}`}</td>
              <td data-label=${say('Resultado', 'Verdict')}>${verdict(g)}</td>
            </tr>`,
          )}</tbody></table>`
      }`}<//>
  </section>`;
}
