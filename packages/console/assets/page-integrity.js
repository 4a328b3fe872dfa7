// Integrity holds on sports prizes (compliance; finance reads; issue #60 item 3; docs/games.md,
// "Integrity holds on sports prizes"): hold a sports slip's prize with the reason and the evidence;
// the holds by status, newest first, each with its held amount and paused prize clock; release or
// forfeit with a reason, after a confirmation naming the amount, never by the person who placed the
// hold (the wallet answers FOUR_EYES_REQUIRED; the buttons are not offered to them); and the
// suspicious-betting export (JSON or CSV) of a range. Production unless the switch says the sandbox.
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, useAction, useEnvironment, Loaded, ErrorNote, ZonedTime, BrandName, money, person, say, may, me } from './kit.js';
import { ProviderPicker } from './pickers.js';

const STATUSES = [
  ['held', () => say('Retidos', 'Held')],
  ['released', () => say('Liberados', 'Released')],
  ['forfeited', () => say('Perdidos', 'Forfeited')],
];
const statusName = (s) => (STATUSES.find(([code]) => code === s)?.[1] ?? (() => s))();

const Player = ({ id }) => html`<a href=${`/players${query({ id })}`} title=${id}>${say('ver apostador', 'open the player')}</a>`;

/** A slip is held at its sportsbook, chosen by name (only sportsbooks take slips). */
function PlaceForm({ onDone }) {
  const action = useAction();
  const providers = useLoad(() => api('GET', '/admin/providers'));
  const [providerId, setProviderId] = useState('');
  const submit = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const body = { providerId, roundId: f.roundId.value.trim(), reason: f.reason.value.trim() };
    const evidence = f.evidence.value.trim();
    if (await action.run(() => api('POST', '/admin/integrity/holds', evidence ? { ...body, evidence } : body))) {
      f.reset();
      setProviderId('');
      onDone();
    }
  };
  const sportsbooks = providers.data?.data.filter((p) => p.kind === 'sportsbook');
  return html`<form class="integrity-place" aria-label=${say('Reter um prêmio', 'Hold a prize')} onSubmit=${submit}>
    <${ProviderPicker} providers=${sportsbooks} value=${providerId} onChange=${setProviderId} required label=${say('Casa de apostas esportivas', 'Sportsbook')} />
    <label>${say('Bilhete (id da aposta do provedor)', "Slip (the provider's bet id)")} <input name="roundId" required maxlength="128" /></label>
    <label>${say('Motivo', 'Reason')} <input name="reason" required minlength="3" maxlength="2000" /></label>
    <label>${say('Evidências', 'Evidence')} <textarea name="evidence" maxlength="8000"></textarea></label>
    <button type="submit" disabled=${action.busy}>${say('Reter o prêmio', 'Hold the prize')}</button>
    <${ErrorNote} error=${action.error} />
  </form>`;
}

function DecideForm({ hold, onDone }) {
  const action = useAction();
  const [asking, setAsking] = useState(undefined);
  const submit = async (e) => {
    e.preventDefault();
    const reason = e.currentTarget.reason.value.trim();
    if (await action.run(() => api('POST', `/admin/integrity/holds/${encodeURIComponent(hold.id)}/${asking}`, { reason }))) onDone();
  };
  // Four eyes: the person who placed the hold does not decide it.
  if (hold.placedBy === me()) return html`<span class="muted">${say('Outra pessoa decide', 'Another person decides')}</span>`;
  if (!asking)
    return html`<span class="actions">
      <button type="button" onClick=${() => setAsking('release')}>${say('Liberar', 'Release')}</button>
      <button type="button" onClick=${() => setAsking('forfeit')}>${say('Declarar perdido', 'Forfeit')}</button>
    </span>`;
  const amount = money(hold.heldAmount, hold.currency);
  return html`<form class="confirm" role="alertdialog" aria-label=${say('Confirmar a decisão', 'Confirm the decision')} onSubmit=${submit}>
    <p><strong>${
      asking === 'release' ? say(`Pagar ${amount} ao apostador?`, `Pay ${amount} to the player?`) : say(`Declarar ${amount} perdido?`, `Forfeit ${amount}?`)
    }</strong></p>
    <label>${say('Motivo', 'Reason')} <input name="reason" required minlength="3" maxlength="2000" /></label>
    <button type="submit" disabled=${action.busy}>${say('Sim, confirmar', 'Yes, confirm')}</button>
    <button type="button" onClick=${() => setAsking(undefined)}>${say('Cancelar', 'Cancel')}</button>
    <${ErrorNote} error=${action.error} />
  </form>`;
}

function ExportLinks() {
  const today = new Date().toISOString().slice(0, 10);
  const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const [from, setFrom] = useState(monthAgo);
  const [to, setTo] = useState(today);
  const range = { from: `${from}T00:00:00.000Z`, to: new Date(Date.parse(`${to}T00:00:00.000Z`) + 86_400_000).toISOString() };
  const url = (format) => `/admin/integrity/suspicious-betting${query({ ...range, format })}`;
  return html`<p class="integrity-export">
    ${say('Apostas suspeitas, por evento (SPA e entidades esportivas)', 'Suspicious betting, by event (the SPA and the sports bodies)')}:
    <label>${say('de', 'from')} <input type="date" value=${from} onInput=${(e) => setFrom(e.currentTarget.value)} /></label>
    <label>${say('até', 'to')} <input type="date" value=${to} onInput=${(e) => setTo(e.currentTarget.value)} /></label>
    <a href=${url('json')} download>JSON</a> · <a href=${url('csv')} download>CSV</a>
  </p>`;
}

export function IntegrityPage() {
  const { environment, toggle } = useEnvironment();
  const [status, setStatus] = useState('held');
  const [cursor, setCursor] = useState(undefined);
  const list = useLoad(() => api('GET', `/admin/integrity/holds${query({ status, cursor, limit: 50 })}`), [status, cursor]);
  return html`<div>
    <p>${say(
      'Prêmios de apostas esportivas retidos por suspeita de fraude ou manipulação (Portaria SPA/MF 1.231/2024, art. 26 III–IV): o apostador não vê nada; outra pessoa libera ou declara perdido.',
      'Sports prizes held on a suspicion of fraud or match-fixing (Portaria SPA/MF 1.231/2024, art. 26 III–IV): the player sees nothing; another person releases or forfeits them.',
    )}</p>
    ${may('compliance') ? html`<${PlaceForm} onDone=${list.reload} />` : null}
    ${may('compliance') ? html`<${ExportLinks} />` : null}
    ${toggle}
    <div class="toolbar" role="group" aria-label=${say('Situação', 'Status')}>${STATUSES.map(
      ([s, name]) =>
        html`<button type="button" aria-pressed=${s === status} data-status=${s} onClick=${() => {
          setCursor(undefined);
          setStatus(s);
        }}>${name()}</button>`,
    )}</div>
    <${Loaded} state=${list}>${(page) => {
      const rows = page.data.filter((h) => h.environment === environment);
      return html`${
        rows.length === 0
          ? html`<p class="empty">${say('Nenhuma retenção nesta situação.', 'No hold in this status.')}</p>`
          : html`<table class="stack integrity"><thead><tr><th>${say('Retido em', 'Held')}</th><th class="num">${say('Valor retido', 'Held amount')}</th><th>${say('Marca', 'Brand')}</th><th>${say('Apostador', 'Player')}</th><th>${say('Bilhete', 'Slip')}</th><th>${say('Motivo', 'Reason')}</th><th>${say('Prazo do prêmio', 'Prize deadline')}</th><th>${say('Situação', 'Status')}</th><th></th></tr></thead>
            <tbody>${rows.map(
              (h) => html`<tr data-integrity-hold=${h.id} data-environment=${h.environment}>
                <td data-label=${say('Retido em', 'Held')}><${ZonedTime} iso=${h.placedAt} /> <span class="muted">${person(h.placedBy)}</span></td>
                <td data-label=${say('Valor retido', 'Held amount')} class="num">${money(h.heldAmount, h.currency)}</td>
                <td data-label=${say('Marca', 'Brand')}><${BrandName} brandId=${h.brandId} /></td>
                <td data-label=${say('Apostador', 'Player')}><${Player} id=${h.playerId} /></td>
                <td data-label=${say('Bilhete', 'Slip')}><code title=${h.providerId}>${h.roundId}</code></td>
                <td data-label=${say('Motivo', 'Reason')}>${h.reason}${h.evidence ? html`<br /><span class="muted">${h.evidence}</span>` : null}</td>
                <td data-label=${say('Prazo do prêmio', 'Prize deadline')}>${
                  h.prizeClock?.dueAt ? html`<${ZonedTime} iso=${h.prizeClock.dueAt} /> ${h.prizeClock.resumedAt ? '' : say('(pausado)', '(paused)')}` : '—'
                }</td>
                <td data-label=${say('Situação', 'Status')}>${statusName(h.status)}${h.decisionReason ? html`<br /><span class="muted">${person(h.decidedBy)}: ${h.decisionReason}</span>` : null}</td>
                <td>${h.status === 'held' && may('compliance') ? html`<${DecideForm} hold=${h} onDone=${list.reload} />` : null}</td>
              </tr>`,
            )}</tbody></table>`
      }
      ${page.nextCursor ? html`<button type="button" onClick=${() => setCursor(page.nextCursor)}>${say('Próxima página', 'Next page')}</button>` : null}`;
    }}<//>
  </div>`;
}
