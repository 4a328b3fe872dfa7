// Player lookup by id, externalId, CPF or e-mail; a player's file: profile, KYC submissions and
// history, status and responsible-gaming limits (changed by compliance), wallet, ledger, deposits
// and withdrawals.
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, useAction, Loaded, ErrorNote, OperatorBrand, time, money, may } from './kit.js';
import { PlayerKyc } from './page-kyc.js';
import { LedgerTable, WithdrawalTable } from './page-withdrawals.js';

const STATUSES = ['ativo', 'suspenso', 'bloqueado', 'autoexcluido', 'encerrado', 'restrito'];

function StatusForm({ player, onDone }) {
  const action = useAction();
  const submit = async (e) => {
    e.preventDefault();
    if (await action.run(() => api('POST', `/admin/players/${encodeURIComponent(player.id)}/status`, { status: e.currentTarget.status.value }))) onDone();
  };
  return html`<form onSubmit=${submit} aria-label="Player status">
    <label>Status <select name="status" disabled=${!may('compliance')}>${STATUSES.map((s) => html`<option value=${s} selected=${s === player.status}>${s}</option>`)}</select></label>
    ${may('compliance') ? html`<button type="submit" disabled=${action.busy}>Save status</button>` : null}
    <${ErrorNote} error=${action.error} />
  </form>`;
}

function LimitsForm({ limits, onDone }) {
  const action = useAction();
  const submit = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const until = f.selfExcludedUntil.value;
    const body = {
      dailyDepositLimit: f.dailyDepositLimit.value.trim() || null,
      selfExcludedUntil: until ? new Date(`${until}T00:00:00Z`).toISOString() : null,
    };
    if (await action.run(() => api('PUT', `/admin/players/${encodeURIComponent(limits.playerId)}/limits`, body))) onDone();
  };
  const readOnly = !may('compliance');
  return html`<form onSubmit=${submit} aria-label="Responsible-gaming limits">
    <label>Daily deposit limit <input name="dailyDepositLimit" inputmode="decimal" value=${limits.dailyDepositLimit ?? ''} placeholder="none" readOnly=${readOnly} /></label>
    <label>Self-excluded until <input name="selfExcludedUntil" type="date" value=${limits.selfExcludedUntil ? limits.selfExcludedUntil.slice(0, 10) : ''} readOnly=${readOnly} /></label>
    ${readOnly ? null : html`<button type="submit" disabled=${action.busy}>Save limits</button>`}
    <${ErrorNote} error=${action.error} />
  </form>`;
}

function Money({ player }) {
  const state = useLoad(async () => {
    const [ledger, deposits, withdrawals] = await Promise.all([
      api('GET', `/admin/players/${encodeURIComponent(player.id)}/ledger${query({ brandId: player.brandId, limit: 20 })}`),
      api('GET', `/admin/deposits${query({ playerId: player.id, limit: 20 })}`),
      api('GET', `/admin/withdrawals${query({ playerId: player.id, limit: 20 })}`),
    ]);
    return { ledger, deposits: deposits.data, withdrawals: withdrawals.data };
  }, [player.id]);
  return html`<${Loaded} state=${state}>${({ ledger, deposits, withdrawals }) => html`
    <section><h3>Wallet</h3><p class="balance">Balance <strong>${money(ledger.wallet.available, ledger.wallet.currency)}</strong>, withdrawable ${money(ledger.wallet.withdrawable, ledger.wallet.currency)}</p></section>
    <section><h3>Ledger</h3><${LedgerTable} entries=${ledger.entries} /></section>
    <section><h3>Deposits</h3>${
      deposits.length === 0
        ? html`<p class="muted">None.</p>`
        : html`<table><thead><tr><th>Created</th><th>Id</th><th class="num">Amount</th><th>Method</th><th>Reference</th><th>Status</th></tr></thead>
          <tbody>${deposits.map((d) => html`<tr><td>${time(d.createdAt)}</td><td><code>${d.id}</code></td><td class="num">${money(d.amount, d.currency)}</td><td>${d.method}</td><td><code>${d.externalReference}</code></td><td>${d.status}</td></tr>`)}</tbody></table>`
    }</section>
    <section><h3>Withdrawals</h3><${WithdrawalTable} rows=${withdrawals} /></section>
  `}<//>`;
}

function PlayerFile({ id }) {
  const state = useLoad(() => api('GET', `/admin/players/${encodeURIComponent(id)}`), [id]);
  return html`<${Loaded} state=${state}>${(file) => html`<article class="card" data-player=${file.player.id}>
    <h2>${file.player.name} <small><code>${file.player.externalId}</code></small></h2>
    <dl class="profile">
      <dt>Id</dt><dd><code>${file.player.id}</code></dd>
      <dt>Operator / brand</dt><dd><${OperatorBrand} player=${file.player} /></dd>
      <dt>E-mail</dt><dd>${file.player.email}</dd><dt>CPF</dt><dd>${file.player.cpf}</dd>
      <dt>Phone</dt><dd>${file.player.phone ?? '—'}</dd><dt>Birth date</dt><dd>${file.player.birthDate ?? '—'}</dd>
      <dt>Currency</dt><dd>${file.player.currency}</dd><dt>Created</dt><dd>${time(file.player.createdAt)}</dd>
      <dt>KYC</dt><dd><strong>${file.kyc.status}</strong> since ${time(file.kyc.updatedAt)}</dd>
    </dl>
    <div class="columns"><${StatusForm} player=${file.player} onDone=${state.reload} /><${LimitsForm} limits=${file.limits} onDone=${state.reload} /></div>
    <${PlayerKyc} file=${file} />
    <${Money} player=${file.player} />
  </article>`}<//>`;
}

export function PlayersPage() {
  const params = new URLSearchParams(location.search);
  const [q, setQ] = useState(params.get('q') ?? '');
  const [id, setId] = useState(params.get('id') ?? undefined);
  const results = useLoad(async () => (q ? (await api('GET', `/admin/players${query({ q })}`)).data : undefined), [q]);
  const open = (playerId) => {
    setId(playerId);
    history.replaceState(null, '', `/players${query({ q, id: playerId })}`);
  };
  const search = (e) => {
    e.preventDefault();
    setId(undefined);
    setQ(e.currentTarget.q.value.trim());
    history.replaceState(null, '', `/players${query({ q: e.currentTarget.q.value.trim() })}`);
  };
  return html`<div>
    <form class="search" role="search" onSubmit=${search}>
      <label for="q">Player id, externalId, CPF or e-mail</label>
      <input id="q" name="q" value=${q} required maxlength="254" /><button type="submit">Find</button>
    </form>
    ${
      q && !id
        ? html`<${Loaded} state=${results}>${(rows) =>
            rows === undefined
              ? null
              : rows.length === 0
                ? html`<p class="empty">No player matches “${q}”.</p>`
                : html`<table><thead><tr><th>Name</th><th>externalId</th><th>E-mail</th><th>Operator / brand</th><th>Status</th><th>KYC</th></tr></thead>
                  <tbody>${rows.map(
                    (p) =>
                      html`<tr><td><a href=${`/players${query({ q, id: p.id })}`} onClick=${(e) => {
                        e.preventDefault();
                        open(p.id);
                      }}>${p.name}</a></td><td><code>${p.externalId}</code></td><td>${p.email}</td><td><${OperatorBrand} player=${p} /></td><td>${p.status}</td><td>${p.kycStatus}</td></tr>`,
                  )}</tbody></table>`}<//>`
        : null
    }
    ${id ? html`<${PlayerFile} id=${id} />` : null}
  </div>`;
}
