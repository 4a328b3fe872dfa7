// The withdrawal review queue: each request with its player, balance, recent ledger and previous
// withdrawals; approve, reject, pay. Pay is disabled, with the reason beside it, where the API would
// refuse it: an AML review holds the player's payouts (AML_REVIEW_REQUIRED), or four eyes (whoever
// approved a withdrawal does not pay it: FOUR_EYES_REQUIRED). Withdrawals waiting for a decision or
// their payout come by payout deadline (br-spa's prize clock, 120 minutes from the request), each
// with the time left, marked when under 30 minutes are left or the deadline has passed.
import { useEffect, useState } from 'preact/hooks';
import { html, api, query, useLoad, useAction, useStatusPages, Loaded, ErrorNote, OperatorBrand, time, money, may, me } from './kit.js';

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
  if (left < 0) return { state: 'overdue', text: `overdue by ${minutes(-left)}` };
  return { state: left < NEAR_MINUTES ? 'near' : 'ahead', text: `${minutes(left)} left` };
}

function PayoutDue({ w, now }) {
  if (!w.payoutDueAt) return null;
  if (!WAITING.has(w.status)) return html` · payout due ${time(w.payoutDueAt)}`;
  const clock = payoutClock(w.payoutDueAt, now);
  return html` · payout due ${time(w.payoutDueAt)}: <strong class=${`clock ${clock.state}`} data-clock=${clock.state}>${clock.text}</strong>`;
}

export function LedgerTable({ entries }) {
  if (entries.length === 0) return html`<p class="muted">No ledger entries.</p>`;
  return html`<table><thead><tr><th>When</th><th>Type</th><th class="num">Amount</th><th class="num">Balance after</th><th>Reference</th></tr></thead>
    <tbody>${entries.map((e) => html`<tr><td>${time(e.createdAt)}</td><td>${e.type}</td><td class="num">${money(e.amount, e.currency)}</td><td class="num">${e.balanceAfter}</td><td><code>${e.referenceId}</code></td></tr>`)}</tbody></table>`;
}

export function WithdrawalTable({ rows, highlight }) {
  if (rows.length === 0) return html`<p class="muted">None.</p>`;
  return html`<table><thead><tr><th>Created</th><th>Id</th><th class="num">Amount</th><th>Method</th><th>Destination</th><th>Status</th><th>Approved by</th></tr></thead>
    <tbody>${rows.map(
      (w) =>
        html`<tr class=${w.id === highlight ? 'current' : ''} data-withdrawal-row=${w.id}><td>${time(w.createdAt)}</td><td><code>${w.id}</code></td><td class="num">${money(w.amount, w.currency)}</td><td>${w.method}</td><td><code>${w.destination}</code></td><td>${w.status}${w.heldForAmlReview ? html` <strong class="hold">AML review</strong>` : null}</td><td>${w.approvedBy ?? '—'}</td></tr>`,
    )}</tbody></table>`;
}

function Review({ w }) {
  const details = useLoad(async () => {
    const file = await api('GET', `/admin/players/${encodeURIComponent(w.playerId)}`);
    const [ledger, previous] = await Promise.all([
      api('GET', `/admin/players/${encodeURIComponent(w.playerId)}/ledger${query({ brandId: file.player.brandId, limit: 10 })}`),
      api('GET', `/admin/withdrawals${query({ playerId: w.playerId, limit: 10 })}`),
    ]);
    return { file, ledger, previous: previous.data };
  }, [w.id]);
  return html`<${Loaded} state=${details}>${({ file, ledger, previous }) => html`
    <p><a href=${`/players?id=${encodeURIComponent(file.player.id)}`}>${file.player.name}</a> <code>${file.player.externalId}</code> · KYC ${file.player.kycStatus} · status ${file.player.status}</p>
    <p class="balance">Balance <strong>${money(ledger.wallet.available, ledger.wallet.currency)}</strong>, withdrawable ${money(ledger.wallet.withdrawable, ledger.wallet.currency)}</p>
    <details><summary>Recent ledger</summary><${LedgerTable} entries=${ledger.entries} /></details>
    <details><summary>Previous withdrawals (${previous.length})</summary><${WithdrawalTable} rows=${previous} highlight=${w.id} /></details>
  `}<//>`;
}

function Decisions({ w, onDone }) {
  const action = useAction();
  const decide = (decision) =>
    action.run(() => api('POST', `/admin/withdrawals/${encodeURIComponent(w.id)}/decision`, { decision })).then((r) => r && onDone());
  if (!may('finance')) return html`<p class="muted">Decisions are taken by finance.</p>`;
  // Why Pay cannot succeed now, said before the click (the API refuses the same, and checks again).
  const payBlocked =
    w.status !== 'approved'
      ? undefined
      : w.heldForAmlReview
        ? "AML review: the player's payouts wait for compliance to decide an open case."
        : w.fourEyes && w.approvedBy === me()
          ? 'Four eyes: you approved this withdrawal, so another person pays it.'
          : undefined;
  return html`<div class="actions">
    ${
      w.status === 'under_review'
        ? html`<button type="button" onClick=${() => decide('approve')} disabled=${action.busy}>Approve</button>
      <button type="button" class="danger" onClick=${() => decide('reject')} disabled=${action.busy}>Reject</button>`
        : null
    }
    ${
      w.status === 'approved'
        ? html`<button type="button" onClick=${() => decide('pay')} disabled=${action.busy || payBlocked !== undefined} title=${payBlocked}
            aria-describedby=${payBlocked ? `pay-blocked-${w.id}` : undefined}>Pay</button>`
        : null
    }
    ${payBlocked ? html`<p class="note" id=${`pay-blocked-${w.id}`}>${payBlocked}</p>` : null}
    ${w.heldForAmlReview === null && w.status === 'approved' ? html`<p class="muted">Whether an AML review holds this payout could not be read just now; Pay checks it.</p>` : null}
    <${ErrorNote} error=${action.error} />
  </div>`;
}

export function WithdrawalsPage() {
  const { status, cursor, tabs, next } = useStatusPages('Withdrawal status', STATUSES);
  // Waiting ones by payout deadline, the nearest first (those without one, under the profile off, after them).
  const order = WAITING.has(status) ? 'payout_due' : undefined;
  const queue = useLoad(() => api('GET', `/admin/withdrawals${query({ status, order, cursor, limit: 20 })}`), [status, cursor]);
  const now = useNow();
  return html`<div>
    ${tabs}
    <${Loaded} state=${queue}>${(page) => html`
      ${page.data.length === 0 ? html`<p class="empty">No withdrawal is ${status}.</p>` : null}
      ${page.data.map(
        (w) => html`<article class="card" data-withdrawal=${w.id}>
          <h2>${money(w.amount, w.currency)} <small>${w.method} → <code>${w.destination}</code></small></h2>
          <p class="muted"><code>${w.id}</code> · <${OperatorBrand} player=${w} /> · requested ${time(w.createdAt)}<${PayoutDue} w=${w} now=${now} /> · <strong>${w.status}</strong>${w.approvedBy ? ` · approved by ${w.approvedBy}` : ''}${
            w.heldForAmlReview ? html` · <strong class="hold" data-hold="aml">AML review</strong>` : null
          }</p>
          <${Review} w=${w} />
          <${Decisions} w=${w} onDone=${queue.reload} />
        </article>`,
      )}
      ${page.nextCursor ? html`<button type="button" onClick=${() => next(page.nextCursor)}>Next page</button>` : null}
    `}<//>
  </div>`;
}
