// The withdrawal review queue (issue #61): production unless the switch says the sandbox, a page of
// cards in one request (each withdrawal with its player by name, status, KYC and balance), the
// player's recent ledger and previous withdrawals read only when opened; approve, reject, pay, each
// after a confirmation naming the amount and the player, a rejection with its reason. Pay is disabled,
// with the reason beside it, where the API would refuse it: an AML review holds the player's payouts
// (AML_REVIEW_REQUIRED), or four eyes (whoever approved a withdrawal does not pay it:
// FOUR_EYES_REQUIRED). Withdrawals waiting for a decision or their payout come by payout deadline
// (br-spa's prize clock, 120 minutes from the request), each with the time left, marked when under 30
// minutes are left or the deadline has passed. Times in the brand's zone, the UTC time on hover.
import { useEffect, useState } from 'preact/hooks';
import {
  html,
  api,
  query,
  useLoad,
  useAction,
  useStatusPages,
  useEnvironment,
  useZone,
  Loaded,
  ErrorNote,
  OperatorBrand,
  ZonedTime,
  money,
  signedMoney,
  person,
  label,
  say,
  may,
  me,
} from './kit.js';

const STATUSES = ['under_review', 'approved', 'paid', 'rejected', 'cancelled', 'failed'];
/** The statuses still waiting for their payout: listed by deadline, with the time left. */
const WAITING = new Set(['under_review', 'approved']);
const NEAR_MINUTES = 30;

/** The current time, moving every half minute (the time left counts down without a reload). */
function useNow() {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** Whole minutes as "1 h 05 min" or "25 min". */
const minutes = (m) => (m >= 60 ? `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min` : `${m} min`);

/** A withdrawal's payout deadline and the time left (or past it): `state` ahead, near or overdue. */
function payoutClock(dueAt, now) {
  const left = Math.floor((new Date(dueAt).getTime() - now) / 60_000);
  if (left < 0) return { state: 'overdue', text: say(`atrasado ${minutes(-left)}`, `overdue by ${minutes(-left)}`) };
  return { state: left < NEAR_MINUTES ? 'near' : 'ahead', text: say(`restam ${minutes(left)}`, `${minutes(left)} left`) };
}

function PayoutDue({ w, now, zone }) {
  if (!w.payoutDueAt) return null;
  const due = html` · ${say('pagamento até', 'payout due')} <${ZonedTime} iso=${w.payoutDueAt} zone=${zone} />`;
  if (!WAITING.has(w.status)) return due;
  const clock = payoutClock(w.payoutDueAt, now);
  return html`${due}: <strong class=${`clock ${clock.state}`} data-clock=${clock.state}>${clock.text}</strong>`;
}

export function LedgerTable({ entries, zone }) {
  if (entries.length === 0) return html`<p class="muted">${say('Nenhum lançamento.', 'No ledger entries.')}</p>`;
  return html`<table class="stack"><thead><tr><th>${say('Quando', 'When')}</th><th>${say('Tipo', 'Type')}</th><th class="num">${say('Valor', 'Amount')}</th><th class="num">${say('Saldo depois', 'Balance after')}</th><th>${say('Referência', 'Reference')}</th></tr></thead>
    <tbody>${entries.map(
      (e) =>
        html`<tr><td data-label=${say('Quando', 'When')}><${ZonedTime} iso=${e.createdAt} zone=${zone} /></td><td data-label=${say('Tipo', 'Type')} data-type=${e.type}>${label(e.type)}</td><td data-label=${say('Valor', 'Amount')} class="num">${signedMoney(e.amount, e.currency)}</td><td data-label=${say('Saldo depois', 'Balance after')} class="num">${money(e.balanceAfter, e.currency)}</td><td data-label=${say('Referência', 'Reference')}><code>${e.referenceId}</code></td></tr>`,
    )}</tbody></table>`;
}

export function WithdrawalTable({ rows, highlight, zone }) {
  if (rows.length === 0) return html`<p class="muted">${say('Nenhum.', 'None.')}</p>`;
  return html`<table class="stack"><thead><tr><th>${say('Criado', 'Created')}</th><th>Id</th><th class="num">${say('Valor', 'Amount')}</th><th>${say('Meio', 'Method')}</th><th>${say('Destino', 'Destination')}</th><th>${say('Situação', 'Status')}</th><th>${say('Aprovado por', 'Approved by')}</th></tr></thead>
    <tbody>${rows.map(
      (w) =>
        html`<tr class=${w.id === highlight ? 'current' : ''} data-withdrawal-row=${w.id}><td data-label=${say('Criado', 'Created')}><${ZonedTime} iso=${w.createdAt} zone=${zone} /></td><td data-label=${'Id'}><code>${w.id}</code></td><td data-label=${say('Valor', 'Amount')} class="num">${money(w.amount, w.currency)}</td><td data-label=${say('Meio', 'Method')}>${label(w.method)}</td><td data-label=${say('Destino', 'Destination')}><code>${w.destination}</code></td><td data-label=${say('Situação', 'Status')}>${label(w.status)}${w.heldForAmlReview ? html` <strong class="hold">${say('análise PLD', 'AML review')}</strong>` : null}</td><td data-label=${say('Aprovado por', 'Approved by')}>${person(w.approvedBy)}</td></tr>`,
    )}</tbody></table>`;
}

/** The player's recent ledger and previous withdrawals: read when a person opens them, not with the page. */
function History({ w, zone }) {
  const [open, setOpen] = useState(false);
  const details = useLoad(async () => {
    if (!open) return undefined;
    const [ledger, previous] = await Promise.all([
      api('GET', `/admin/players/${encodeURIComponent(w.playerId)}/ledger${query({ brandId: w.brandId, limit: 10 })}`),
      api('GET', `/admin/withdrawals${query({ playerId: w.playerId, limit: 10 })}`),
    ]);
    return { ledger, previous: previous.data };
  }, [w.id, open]);
  return html`<details onToggle=${(e) => setOpen(e.currentTarget.open)} data-history>
    <summary>${say('Extrato recente e saques anteriores', 'Recent ledger and previous withdrawals')}</summary>
    ${
      open
        ? html`<${Loaded} state=${details}>${(d) =>
            d
              ? html`<h4>${say('Extrato recente', 'Recent ledger')}</h4><${LedgerTable} entries=${d.ledger.entries} zone=${zone} />
                <h4>${say('Saques anteriores', 'Previous withdrawals')} (${d.previous.length})</h4><${WithdrawalTable} rows=${d.previous} highlight=${w.id} zone=${zone} />`
              : null}<//>`
        : null
    }
  </details>`;
}

const VERBS = {
  approve: () => [say('Aprovar', 'Approve'), say('aprovar', 'approve')],
  reject: () => [say('Rejeitar', 'Reject'), say('rejeitar', 'reject')],
  pay: () => [say('Pagar', 'Pay'), say('pagar', 'pay')],
};

/**
 * Money decisions made deliberately (issue #61): each button opens a confirmation naming the amount and
 * the player; a rejection asks its reason (the API refuses one without).
 */
function Decisions({ card, onDone }) {
  const w = card.withdrawal;
  const action = useAction();
  const [asking, setAsking] = useState(undefined);
  if (!may('finance')) return html`<p class="muted">${say('As decisões são do financeiro.', 'Decisions are taken by finance.')}</p>`;
  const who = card.player?.name ?? w.playerId;
  const decide = async (e) => {
    e.preventDefault();
    const reason = e.currentTarget.reason?.value.trim();
    const body = { decision: asking, ...(reason ? { reason } : {}) };
    if (await action.run(() => api('POST', `/admin/withdrawals/${encodeURIComponent(w.id)}/decision`, body))) {
      setAsking(undefined);
      onDone();
    }
  };
  // Why Pay cannot succeed now, said before the click (the API refuses the same, and checks again).
  const payBlocked =
    w.status !== 'approved'
      ? undefined
      : w.heldForAmlReview
        ? say(
            'Análise PLD: os pagamentos do apostador aguardam a decisão do compliance sobre um caso aberto.',
            "AML review: the player's payouts wait for compliance to decide an open case.",
          )
        : w.fourEyes && w.approvedBy === me()
          ? say('Quatro olhos: você aprovou este saque, então outra pessoa o paga.', 'Four eyes: you approved this withdrawal, so another person pays it.')
          : undefined;
  const ask = (decision) => () => setAsking(decision);
  return html`<div class="actions">
    ${
      w.status === 'under_review'
        ? html`<button type="button" onClick=${ask('approve')} disabled=${action.busy || asking !== undefined}>${VERBS.approve()[0]}</button>
      <button type="button" class="danger" onClick=${ask('reject')} disabled=${action.busy || asking !== undefined}>${VERBS.reject()[0]}</button>`
        : null
    }
    ${
      w.status === 'approved'
        ? html`<button type="button" onClick=${ask('pay')} disabled=${action.busy || asking !== undefined || payBlocked !== undefined} title=${payBlocked}
            aria-describedby=${payBlocked ? `pay-blocked-${w.id}` : undefined}>${VERBS.pay()[0]}</button>`
        : null
    }
    ${payBlocked ? html`<p class="note" id=${`pay-blocked-${w.id}`}>${payBlocked}</p>` : null}
    ${w.heldForAmlReview === null && w.status === 'approved' ? html`<p class="muted">${say('Não foi possível saber agora se uma análise PLD retém este pagamento; o Pagar verifica.', 'Whether an AML review holds this payout could not be read just now; Pay checks it.')}</p>` : null}
    ${
      asking
        ? html`<form class="confirm" role="alertdialog" aria-label=${say('Confirmar a decisão', 'Confirm the decision')} data-confirm=${asking} onSubmit=${decide}>
            <p><strong>${say(`${VERBS[asking]()[0]} ${money(w.amount, w.currency)} de ${who}?`, `${VERBS[asking]()[0]} ${money(w.amount, w.currency)} to ${who}?`)}</strong>
              ${asking === 'pay' ? say(' O dinheiro sai da conta do apostador agora.', " The money leaves the player's account now.") : null}</p>
            ${
              asking === 'reject'
                ? html`<label>${say('Motivo (fica no registro de auditoria)', 'Reason (kept in the audit log)')} <input name="reason" required minlength="3" maxlength="500" /></label>`
                : null
            }
            <button type="submit" class=${asking === 'reject' ? 'danger' : ''} disabled=${action.busy}>${say(`Sim, ${VERBS[asking]()[1]}`, `Yes, ${VERBS[asking]()[1]}`)}</button>
            <button type="button" onClick=${() => setAsking(undefined)}>${say('Cancelar', 'Cancel')}</button>
          </form>`
        : null
    }
    <${ErrorNote} error=${action.error} />
  </div>`;
}

function Card({ card, now, onDone }) {
  const w = card.withdrawal;
  const zone = useZone(w.operatorId);
  const p = card.player;
  return html`<article class="card" data-withdrawal=${w.id} data-environment=${w.environment}>
    <h2>${money(w.amount, w.currency)} <small>${label(w.method)} → <code>${w.destination}</code></small></h2>
    <p class="who">${
      p
        ? html`<a href=${`/players?id=${encodeURIComponent(w.playerId)}`} title=${w.playerId} data-player-name>${p.name}</a> <code>${p.externalId ?? ''}</code> · KYC ${label(p.kycStatus)} · ${say('situação', 'status')} ${label(p.status)}`
        : html`<a href=${`/players?id=${encodeURIComponent(w.playerId)}`}><code>${w.playerId}</code></a>`
    }</p>
    ${
      card.wallet
        ? html`<p class="balance">${say('Saldo', 'Balance')} <strong>${money(card.wallet.available, card.wallet.currency)}</strong>, ${say('sacável', 'withdrawable')} ${money(card.wallet.withdrawable, card.wallet.currency)}</p>`
        : html`<p class="muted">${say('Saldo indisponível agora.', 'The balance could not be read just now.')}</p>`
    }
    <p class="muted"><code>${w.id}</code> · <${OperatorBrand} player=${w} /> · ${say('pedido', 'requested')} <${ZonedTime} iso=${w.createdAt} zone=${zone} /><${PayoutDue} w=${w} now=${now} zone=${zone} /> · <strong>${label(w.status)}</strong>${
      w.approvedBy ? html` · ${say('aprovado por', 'approved by')} <span data-approved-by=${w.approvedBy}>${person(w.approvedBy)}</span>` : ''
    }${w.heldForAmlReview ? html` · <strong class="hold" data-hold="aml">${say('análise PLD', 'AML review')}</strong>` : null}</p>
    <${History} w=${w} zone=${zone} />
    <${Decisions} card=${card} onDone=${onDone} />
  </article>`;
}

export function WithdrawalsPage() {
  const { status, cursor, tabs, next } = useStatusPages(say('Situação do saque', 'Withdrawal status'), STATUSES);
  const { environment, toggle } = useEnvironment();
  // Waiting ones by payout deadline, the nearest first (those without one, under the profile off, after them).
  const order = WAITING.has(status) ? 'payout_due' : undefined;
  // One request per page: the cards with their players and balances (issue #61).
  const queue = useLoad(() => api('GET', `/admin/withdrawal-queue${query({ status, order, cursor, environment, limit: 20 })}`), [status, cursor, environment]);
  const now = useNow();
  return html`<div>
    ${toggle}
    ${tabs}
    <${Loaded} state=${queue}>${(page) => html`
      ${page.data.length === 0 ? html`<p class="empty">${say(`Nenhum saque ${label(status).toLowerCase()}.`, `No withdrawal is ${label(status).toLowerCase()}.`)}</p>` : null}
      ${page.data.map((card) => html`<${Card} key=${card.withdrawal.id} card=${card} now=${now} onDone=${queue.reload} />`)}
      ${page.nextCursor ? html`<button type="button" onClick=${() => next(page.nextCursor)}>${say('Próxima página', 'Next page')}</button>` : null}
    `}<//>
  </div>`;
}
