// Unclaimed funds and their transfers to FIES and FUNCAP (finance and compliance read; finance records
// a return; issue #61 item 5; docs/eligibility.md, "After a hit"): the balances of accounts closed
// after an impediment hit, held for the bettor for 180 days from the communication, newest first (one
// status, one brand); a held balance returned to the bettor's own account with the payment's
// reference, after a confirmation naming the amount; and the transfers the job recorded after those
// days, each with its two halves. Production unless the switch says the sandbox.
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, useAction, useEnvironment, Loaded, ErrorNote, ZonedTime, BrandName, money, label, say, may } from './kit.js';

const STATUSES = ['held', 'returned', 'transferred'];

const Player = ({ id }) => html`<a href=${`/players${query({ id })}`} title=${id}>${say('ver apostador', 'open the player')}</a>`;

function ReturnForm({ hold, onDone }) {
  const action = useAction();
  const [asking, setAsking] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    const reference = e.currentTarget.reference.value.trim();
    if (await action.run(() => api('POST', `/admin/unclaimed-funds/${encodeURIComponent(hold.id)}/return`, { reference }))) onDone();
  };
  if (!asking) return html`<button type="button" onClick=${() => setAsking(true)}>${say('Registrar devolução', 'Record a return')}</button>`;
  return html`<form class="confirm" role="alertdialog" aria-label=${say('Confirmar a devolução', 'Confirm the return')} onSubmit=${submit}>
    <p><strong>${say(`Devolver ${money(hold.amount, hold.currency)} ao apostador?`, `Return ${money(hold.amount, hold.currency)} to the bettor?`)}</strong>
      ${say(' Só depois do PIX para o CPF do apostador.', " Only once the PIX to the bettor's CPF is made.")}</p>
    <label>${say('Referência do pagamento', "The payment's reference")} <input name="reference" required maxlength="128" /></label>
    <button type="submit" disabled=${action.busy}>${say('Sim, registrar', 'Yes, record it')}</button>
    <button type="button" onClick=${() => setAsking(false)}>${say('Cancelar', 'Cancel')}</button>
    <${ErrorNote} error=${action.error} />
  </form>`;
}

export function UnclaimedPage() {
  const { environment, toggle } = useEnvironment();
  const [status, setStatus] = useState('held');
  const [cursor, setCursor] = useState(undefined);
  const list = useLoad(() => api('GET', `/admin/unclaimed-funds${query({ status, cursor, limit: 50 })}`), [status, cursor]);
  return html`<div>
    <p>${say(
      'Saldos de contas encerradas após um impedimento, retidos para o apostador por 180 dias a partir da comunicação; depois, transferidos metade ao FIES e metade ao FUNCAP (Lei 14.790/2023; IN SPA/MF 31/2025).',
      'Balances of accounts closed after an impediment hit, held for the bettor for 180 days from the communication; then transferred half to FIES and half to FUNCAP (Lei 14.790/2023; IN SPA/MF 31/2025).',
    )} <a href="/fund-transfers">${say('Transferências aos fundos', 'Transfers to the funds')}</a></p>
    ${toggle}
    <div class="toolbar" role="group" aria-label=${say('Situação', 'Status')}>${STATUSES.map(
      (s) =>
        html`<button type="button" aria-pressed=${s === status} data-status=${s} onClick=${() => {
          setCursor(undefined);
          setStatus(s);
        }}>${label(s)}</button>`,
    )}</div>
    <${Loaded} state=${list}>${(page) => {
      const rows = page.data.filter((h) => h.environment === environment);
      return html`${
        rows.length === 0
          ? html`<p class="empty">${say('Nenhum saldo nesta situação.', 'No balance in this status.')}</p>`
          : html`<table class="stack unclaimed"><thead><tr><th class="num">${say('Valor', 'Amount')}</th><th>${say('Marca', 'Brand')}</th><th>${say('Apostador', 'Player')}</th><th>${say('Retido', 'Held')}</th><th>${say('Comunicado', 'Told')}</th><th>${say('Transferência devida', 'Transfer due')}</th><th>${say('Situação', 'Status')}</th><th></th></tr></thead>
            <tbody>${rows.map(
              (h) => html`<tr data-unclaimed=${h.id} data-environment=${h.environment}>
                <td data-label=${say('Valor', 'Amount')} class="num">${money(h.amount, h.currency)}</td>
                <td data-label=${say('Marca', 'Brand')}><${BrandName} brandId=${h.brandId} /></td>
                <td data-label=${say('Apostador', 'Player')}><${Player} id=${h.playerId} /></td>
                <td data-label=${say('Retido', 'Held')}><${ZonedTime} iso=${h.heldAt} /></td>
                <td data-label=${say('Comunicado', 'Told')}>${h.noticeSentAt ? html`<${ZonedTime} iso=${h.noticeSentAt} />` : say('ainda não', 'not yet')}</td>
                <td data-label=${say('Transferência devida', 'Transfer due')}><${ZonedTime} iso=${h.releaseDueAt} /></td>
                <td data-label=${say('Situação', 'Status')}>${label(h.status)}${h.returnReference ? html` <code>${h.returnReference}</code>` : null}</td>
                <td>${h.status === 'held' && may('finance') ? html`<${ReturnForm} hold=${h} onDone=${list.reload} />` : null}</td>
              </tr>`,
            )}</tbody></table>`
      }
      ${page.nextCursor ? html`<button type="button" onClick=${() => setCursor(page.nextCursor)}>${say('Próxima página', 'Next page')}</button>` : null}`;
    }}<//>
  </div>`;
}

export function FundTransfersPage() {
  const { environment, toggle } = useEnvironment();
  const [cursor, setCursor] = useState(undefined);
  const list = useLoad(() => api('GET', `/admin/fund-transfers${query({ cursor, limit: 50 })}`), [cursor]);
  return html`<div>
    <p>${say('Saldos não reclamados após 180 dias, transferidos metade ao FIES e metade ao FUNCAP.', 'Unclaimed balances after 180 days, transferred half to FIES and half to FUNCAP.')} <a href="/unclaimed">${say('Saldos retidos', 'Held balances')}</a></p>
    ${toggle}
    <${Loaded} state=${list}>${(page) => {
      const rows = page.data.filter((x) => x.environment === environment);
      return html`${
        rows.length === 0
          ? html`<p class="empty">${say('Nenhuma transferência.', 'No transfer.')}</p>`
          : html`<table class="stack transfers"><thead><tr><th>${say('Registrada', 'Recorded')}</th><th class="num">${say('Valor', 'Amount')}</th><th class="num">FIES</th><th class="num">FUNCAP</th><th>${say('Marca', 'Brand')}</th><th>${say('Apostador', 'Player')}</th><th>${say('Base legal', 'Legal basis')}</th></tr></thead>
            <tbody>${rows.map(
              (x) => html`<tr data-transfer=${x.id} data-environment=${x.environment}>
                <td data-label=${say('Registrada', 'Recorded')}><${ZonedTime} iso=${x.recordedAt} /></td>
                <td data-label=${say('Valor', 'Amount')} class="num">${money(x.amount, x.currency)}</td>
                <td data-label="FIES" class="num">${money(x.fies, x.currency)}</td>
                <td data-label="FUNCAP" class="num">${money(x.funcap, x.currency)}</td>
                <td data-label=${say('Marca', 'Brand')}><${BrandName} brandId=${x.brandId} /></td>
                <td data-label=${say('Apostador', 'Player')}><${Player} id=${x.playerId} /></td>
                <td data-label=${say('Base legal', 'Legal basis')}>${x.legalBasis}</td>
              </tr>`,
            )}</tbody></table>`
      }
      ${page.nextCursor ? html`<button type="button" onClick=${() => setCursor(page.nextCursor)}>${say('Próxima página', 'Next page')}</button>` : null}`;
    }}<//>
  </div>`;
}
