// Player lookup by id, externalId, CPF or e-mail; a player's file: profile, KYC submissions and
// history, status and v1.1's limits (changed by compliance), the responsible gaming the player
// chose (limits, usage, pending changes, history; compliance lifts an indefinite self-exclusion),
// wallet, ledger, deposits and withdrawals.
import { useState } from 'preact/hooks';
import {
  html,
  api,
  query,
  useLoad,
  useAction,
  useEnvironment,
  Loaded,
  ErrorNote,
  OperatorBrand,
  When,
  ZonedTime,
  time,
  day,
  money,
  cpf,
  phone,
  person,
  may,
  label,
  say,
  plain,
  decimalShown,
  decimalTyped,
} from './kit.js';
import { PlayerKyc } from './page-kyc.js';
import { LedgerTable, WithdrawalTable } from './page-withdrawals.js';

/**
 * Only the statuses the generic change may set now (`standing.statuses`): a self-exclusion, a
 * sanctions freeze or an impediment restriction ends through its own flow, which the form names.
 * A page opened before such a restriction began shows the API's refusal (409 STANDING_HAS_OWN_FLOW).
 */
function StatusForm({ player, standing, onDone }) {
  const action = useAction();
  const submit = async (e) => {
    e.preventDefault();
    if (await action.run(() => api('POST', `/admin/players/${encodeURIComponent(player.id)}/status`, { status: e.currentTarget.status.value }))) onDone();
  };
  return html`<form onSubmit=${submit} aria-label="Player status">
    <label>${say('Situação', 'Status')} <select name="status" disabled=${!may('compliance')}>${standing.statuses.map((s) => html`<option value=${s} selected=${s === player.status}>${label(s)}</option>`)}</select></label>
    ${standing.flow ? html`<p class="muted" data-held-by=${standing.heldBy}>${holdNote(standing)}</p>` : null}
    ${may('compliance') && !standing.heldBy ? html`<button type="submit" disabled=${action.busy}>${say('Salvar situação', 'Save status')}</button>` : null}
    <${ErrorNote} error=${action.error} />
  </form>`;
}

/**
 * What holds the status and the flow that ends it, in the person's language (issue #70: the API's
 * `flow` is an English sentence for developers, with paths): from `heldBy` and its details, and what
 * the self-exclusion's end gives back (the status the API's sentence names, as a word).
 */
function holdNote(standing) {
  const { heldBy, flow } = standing;
  // The times the API's sentence carries (its term's end; when an indefinite one may be lifted).
  const details = {
    until: /ends by itself at (\d{4}-\d{2}-\d{2}T[\d:.]+Z)/.exec(flow)?.[1],
    liftableAt: /from (\d{4}-\d{2}-\d{2}T[\d:.]+Z)/.exec(flow)?.[1],
  };
  const back = /goes back to (\w+)/.exec(flow)?.[1];
  const stays = /stays (\w+)/.exec(flow)?.[1];
  const after = back
    ? say(
        ` Quando ela terminar, o apostador volta a ${label(back)}, a situação de antes.`,
        ` When it ends, the player goes back to ${label(back)}, the status before it.`,
      )
    : stays
      ? say(` Quando ela terminar, o apostador continua ${label(stays)}.`, ` When it ends, the player stays ${label(stays)}.`)
      : '';
  if (heldBy === 'sanctions_freeze')
    return say(
      'Um congelamento por sanções mantém a situação do apostador: só a decisão do caso de sanções dele o levanta (arquivado, com um motivo).',
      "A sanctions freeze holds this player's status: only the decision of the player's sanctions case lifts it (dismissed, with a reason).",
    );
  if (heldBy === 'impediment')
    return say(
      'Uma restrição por impedimento mantém a situação do apostador: a conta se encerra sozinha após o prazo de saque, e a pessoa só volta por um novo cadastro.',
      "An impediment restriction holds this player's status: the account closes by itself after the withdrawal window, and the person comes back only through a new registration.",
    );
  if (heldBy === 'self_exclusion' && details.until)
    return html`${say('Uma autoexclusão mantém a situação do apostador: o prazo termina sozinho em', "A self-exclusion holds this player's status: its term ends by itself at")} <${ZonedTime} iso=${details.until} />.${after}`;
  if (heldBy === 'self_exclusion' && details.liftableAt)
    return html`${say(
      'Uma autoexclusão por prazo indeterminado mantém a situação do apostador: só o compliance a levanta, com um motivo, a partir de',
      "An indefinite self-exclusion holds this player's status: only compliance lifts it, with a reason, from",
    )} <${ZonedTime} iso=${details.liftableAt} />.${after}`;
  if (heldBy === 'self_exclusion')
    return `${say('Uma autoexclusão mantém a situação do apostador: só o compliance a levanta, com um motivo.', "A self-exclusion holds this player's status: only compliance lifts it, with a reason.")}${after}`;
  return plain(flow);
}

/**
 * v1.1's limits. The date starts a self-exclusion until then, or moves the running one's end later;
 * it never ends or shortens one: the API refuses (409 STANDING_HAS_OWN_FLOW, naming the flow that
 * does), and the page shows the refusal.
 */
function LimitsForm({ limits, standing, onDone }) {
  const action = useAction();
  const submit = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const until = f.selfExcludedUntil.value;
    const body = {
      dailyDepositLimit: decimalTyped(f.dailyDepositLimit.value) || null,
      selfExcludedUntil: until ? new Date(`${until}T00:00:00Z`).toISOString() : null,
    };
    if (await action.run(() => api('PUT', `/admin/players/${encodeURIComponent(limits.playerId)}/limits`, body))) onDone();
  };
  const readOnly = !may('compliance');
  return html`<form onSubmit=${submit} aria-label="Responsible-gaming limits">
    <label>${say('Limite diário de depósito (R$)', 'Daily deposit limit (R$)')} <input name="dailyDepositLimit" inputmode="decimal" value=${decimalShown(limits.dailyDepositLimit)} placeholder=${say('nenhum', 'none')} readOnly=${readOnly} /></label>
    ${limits.dailyDepositLimit ? html`<p class="muted" data-deposit-limit>${money(limits.dailyDepositLimit)} ${say('por dia', 'a day')}</p>` : null}
    <label>${say('Autoexcluído até', 'Self-excluded until')} <input name="selfExcludedUntil" type="date" value=${limits.selfExcludedUntil ? limits.selfExcludedUntil.slice(0, 10) : ''} readOnly=${readOnly} /></label>
    ${
      readOnly
        ? null
        : html`<p class="muted" data-self-exclusion-note>${
            standing.heldBy === 'self_exclusion' || limits.selfExcludedUntil
              ? say(
                  'Uma autoexclusão está em curso: uma data posterior a prolonga; aqui ela nunca é encerrada nem encurtada (a Situação diz o fluxo que a encerra).',
                  'A self-exclusion runs: a later date lengthens it; it is never ended or shortened here (Status names the flow that ends it).',
                )
              : say(
                  `Uma data inicia uma autoexclusão até ela (${label('autoexcluido')}); ela termina sozinha.`,
                  `A date starts a self-exclusion until then (${label('autoexcluido')}); it ends by itself.`,
                )
          }</p>
      <button type="submit" disabled=${action.busy}>${say('Salvar limites', 'Save limits')}</button>`
    }
    <${ErrorNote} error=${action.error} />
  </form>`;
}

/** A limit's value as people read it: money (R$ 50.000,00), or minutes for a time limit. */
const shown = (type, v) => (v === null || v === undefined ? '—' : type === 'time' ? `${v} min` : money(v));

/**
 * A value of the responsible-gaming history as people read it: a limit as money or minutes, a pause's
 * or a self-exclusion's end as a time, "without end" for an indefinite one, a status as its word.
 */
function historyValue(c, v) {
  if (v === null || v === undefined || v === '') return '—';
  if (v === 'indefinite') return say('sem fim', 'without end');
  if (/^\d{4}-\d{2}-\d{2}T/.test(v)) return html`<${ZonedTime} iso=${v} />`;
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return day(v);
  if (/^-?\d+(\.\d+)?$/.test(v)) return c.kind === 'limit' ? shown(c.type, v) : c.kind === 'reality_check' ? `${v} min` : v;
  return label(v);
}

/**
 * Limits, pending changes, usage and the full history; compliance lifts an indefinite self-exclusion and
 * pauses a player, makes a limit stricter or shows the reality check more often (measures after an
 * interaction). Our team never raises a limit, shortens a pause nor spaces reality checks out here.
 */
function ResponsibleGaming({ player, onDone }) {
  // Read again whenever the file is (a new `player`): a status or limits change shows in the history at once.
  const state = useLoad(() => api('GET', `/admin/players/${encodeURIComponent(player.id)}/responsible-gaming`), [player]);
  const action = useAction();
  const lift = async (e) => {
    e.preventDefault();
    const reason = e.currentTarget.reason.value.trim();
    if (await action.run(() => api('POST', `/admin/players/${encodeURIComponent(player.id)}/self-exclusion/lift`, { reason }))) {
      state.reload();
      onDone();
    }
  };
  const pause = async (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const body = { until: new Date(`${form.until.value}T00:00:00`).toISOString(), reason: form.reason.value.trim() };
    if (await action.run(() => api('POST', `/admin/players/${encodeURIComponent(player.id)}/pause`, body))) {
      form.reset();
      state.reload();
      onDone();
    }
  };
  const stricter = async (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const type = form.type.value;
    const value = type === 'time' ? Number(form.value.value) : decimalTyped(form.value.value);
    const path = `/admin/players/${encodeURIComponent(player.id)}/limits/${type}/${form.period.value}`;
    if (await action.run(() => api('PUT', path, { value, reason: form.reason.value.trim() }))) {
      form.reset();
      state.reload();
      onDone();
    }
  };
  const realityCheck = async (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const body = { minutes: Number(form.minutes.value), reason: form.reason.value.trim() };
    if (await action.run(() => api('PUT', `/admin/players/${encodeURIComponent(player.id)}/reality-check`, body))) {
      form.reset();
      state.reload();
      onDone();
    }
  };
  const dayAhead = (days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  return html`<${Loaded} state=${state}>${({
    profile,
    selfExclusionLiftableAt,
    responsibleGaming: rg,
    history,
  }) => html`<section aria-label="Responsible gaming">
    <h3>${say('Jogo responsável', 'Responsible gaming')} <small class="muted">${say('perfil', 'profile')} ${label(profile)}, ${say('alerta de realidade a cada', 'reality check every')} ${rg.realityCheckMinutes} min</small></h3>
    ${
      rg.limits.length === 0
        ? html`<p class="muted">${say('Nenhum limite.', 'No limits.')}</p>`
        : html`<table class="stack"><thead><tr><th>${say('Limite', 'Limit')}</th><th>${say('Período', 'Period')}</th><th class="num">${say('Valor', 'Value')}</th><th class="num">${say('Usado', 'Used')}</th><th>${say('Renova', 'Resets')}</th><th>${say('Pendente', 'Pending')}</th></tr></thead>
      <tbody>${rg.limits.map(
        (l) =>
          html`<tr><td data-label=${say('Limite', 'Limit')}>${label(l.type)}</td><td data-label=${say('Período', 'Period')}>${label(l.period)}</td><td data-label=${say('Valor', 'Value')} class="num">${shown(l.type, l.value)}</td><td data-label=${say('Usado', 'Used')} class="num">${shown(l.type, l.used)}</td><td data-label=${say('Renova', 'Resets')}>${time(l.resetsAt)}</td><td data-label=${say('Pendente', 'Pending')}>${
            l.pending
              ? `${l.pending.value === null ? say('remoção', 'removal') : shown(l.type, l.pending.value)} ${say('a partir de', 'from')} ${time(l.pending.effectiveAt)}`
              : '—'
          }</td></tr>`,
      )}</tbody></table>`
    }
    <p>${say('Pausa', 'Pause')}: ${rg.pause ? `${say('até', 'until')} ${time(rg.pause.until)}` : say('nenhuma', 'none')} · ${say('Autoexclusão', 'Self-exclusion')}: ${
      rg.selfExclusion
        ? `${say('desde', 'since')} ${time(rg.selfExclusion.since)}, ${rg.selfExclusion.until ? `${say('até', 'until')} ${time(rg.selfExclusion.until)}` : say('sem fim', 'without end')}`
        : say('nenhuma', 'none')
    }</p>
    ${
      selfExclusionLiftableAt && may('compliance') && Date.parse(selfExclusionLiftableAt) > Date.now()
        ? html`<p class="muted" data-liftable-at=${selfExclusionLiftableAt}>${say(
            `O compliance pode levantar esta autoexclusão por prazo indeterminado a partir de ${time(selfExclusionLiftableAt)} (30 dias após o início), com um motivo.`,
            `Compliance may lift this indefinite self-exclusion from ${time(selfExclusionLiftableAt)} (30 days after it began), with a reason.`,
          )}</p>`
        : null
    }
    ${
      selfExclusionLiftableAt && may('compliance') && Date.parse(selfExclusionLiftableAt) <= Date.now()
        ? html`<form onSubmit=${lift} aria-label="Lift the self-exclusion">
        <label>${say('Motivo', 'Reason')} <input name="reason" required minlength="3" maxlength="500" /></label>
        <button type="submit" disabled=${action.busy}>${say('Levantar a autoexclusão por prazo indeterminado', 'Lift the indefinite self-exclusion')}</button>
        <${ErrorNote} error=${action.error} />
      </form>`
        : null
    }
    ${
      // Our team's pause, a measure after an interaction with the player (issue #68): from 24 hours to 6 weeks, never shortening one.
      may('compliance')
        ? html`<form onSubmit=${pause} aria-label="Pause the player" data-team-pause>
        <label>${say('Pausar até', 'Pause until')} <input type="date" name="until" required min=${dayAhead(2)} max=${dayAhead(42)} /></label>
        <label>${say('Motivo', 'Reason')} <input name="reason" required minlength="3" maxlength="500" /></label>
        <button type="submit" disabled=${action.busy}>${say('Pausar o apostador', 'Pause the player')}</button>
        <${ErrorNote} error=${action.error} />
      </form>
      <form onSubmit=${stricter} aria-label="A stricter limit" data-team-limit>
        <label>${say('Limite mais restrito', 'A stricter limit')} <select name="type">${['deposit', 'loss', 'wager', 'time'].map((ty) => html`<option value=${ty}>${label(ty)}</option>`)}</select></label>
        <label>${say('Período', 'Period')} <select name="period">${['day', 'week', 'month'].map((pe) => html`<option value=${pe}>${label(pe)}</option>`)}</select></label>
        <label>${say('Valor (R$, ou minutos para tempo)', 'Value (R$, or minutes for time)')} <input name="value" required inputmode="decimal" maxlength="20" /></label>
        <label>${say('Motivo', 'Reason')} <input name="reason" required minlength="3" maxlength="500" /></label>
        <button type="submit" disabled=${action.busy}>${say('Aplicar', 'Apply')}</button>
      </form>
      <form onSubmit=${realityCheck} aria-label="Reality check more often" data-team-reality-check>
        <label>${say('Alerta de realidade a cada (minutos)', 'Reality check every (minutes)')} <input type="number" name="minutes" required min="1" max=${Math.max(1, rg.realityCheckMinutes - 1)} /></label>
        <label>${say('Motivo', 'Reason')} <input name="reason" required minlength="3" maxlength="500" /></label>
        <button type="submit" disabled=${action.busy}>${say('Mostrar mais vezes', 'Show it more often')}</button>
      </form>`
        : null
    }
    <h4>${say('Histórico', 'History')}</h4>
    ${
      history.length === 0
        ? html`<p class="muted">${say('Nenhuma mudança.', 'No changes.')}</p>`
        : html`<table class="stack"><thead><tr><th>${say('Quando', 'When')}</th><th>${say('Mudança', 'Change')}</th><th>${say('Antes', 'Old')}</th><th>${say('Depois', 'New')}</th><th>${say('Vale de', 'Effective')}</th><th>${say('Quem', 'Who')}</th><th>${say('Motivo', 'Reason')}</th></tr></thead>
      <tbody>${history.map(
        (c) =>
          html`<tr><td data-label=${say('Quando', 'When')}>${time(c.at)}</td><td data-label=${say('Mudança', 'Change')} data-kind=${c.kind}>${label(c.kind)}${c.type ? ` ${label(c.type)}/${label(c.period)}` : ''}</td><td data-label=${say('Antes', 'Old')}>${historyValue(c, c.oldValue)}</td><td data-label=${say('Depois', 'New')}>${historyValue(c, c.newValue)}</td><td data-label=${say('Vale de', 'Effective')}>${
            c.effectiveAt ? time(c.effectiveAt) : '—'
          }</td><td data-label=${say('Quem', 'Who')}>${label(c.by)}${c.actor ? ` (${person(c.actor)})` : ''}</td><td data-label=${say('Motivo', 'Reason')}>${c.reason ?? ''}</td></tr>`,
      )}</tbody></table>`
    }
  </section>`}<//>`;
}

/** Who paid a deposit, as the PSP reported it; marked when it is not the player (a payer-mismatch's evidence). */
function Payer({ paidBy, playerCpf }) {
  if (!paidBy) return html`<span class="muted">—</span>`;
  // Digits against digits: whole, or both masked alike by the admin API (issue #69: the middle six of each).
  const other = playerCpf && paidBy.cpf.replace(/\D/g, '') !== playerCpf.replace(/\D/g, '');
  return html`<span data-payer=${paidBy.cpf}>${cpf(paidBy.cpf)}${paidBy.name ? ` ${paidBy.name}` : ''}${
    paidBy.bank ? html` <span class="muted">${paidBy.bank}${paidBy.account ? ` ${paidBy.account}` : ''}</span>` : null
  }${other ? html` <strong class="hold">${say('não é o apostador', 'not the player')}</strong>` : null}</span>`;
}

/**
 * A player's whole money picture, for everyone on the team (compliance included: the player page and
 * an AML case): wallet, ledger, deposits with their payer, withdrawals with destination and holds.
 */
export function Money({ player, reveal = false }) {
  const state = useLoad(async () => {
    const [ledger, deposits, withdrawals] = await Promise.all([
      api('GET', `/admin/players/${encodeURIComponent(player.id)}/ledger${query({ brandId: player.brandId, limit: 20 })}`),
      // The payers' CPFs, and the destinations that are a CPF or a phone, masked unless the player file was revealed (issue #69).
      api('GET', `/admin/deposits${query({ playerId: player.id, limit: 20, reveal: reveal ? 'cpf' : undefined })}`),
      api('GET', `/admin/withdrawals${query({ playerId: player.id, limit: 20, reveal: reveal ? 'cpf,phone' : undefined })}`),
    ]);
    return { ledger, deposits: deposits.data, withdrawals: withdrawals.data };
  }, [player.id, reveal]);
  return html`<${Loaded} state=${state}>${({ ledger, deposits, withdrawals }) => html`
    <section><h3>${say('Carteira', 'Wallet')}</h3><p class="balance">${say('Saldo', 'Balance')} <strong>${money(ledger.wallet.available, ledger.wallet.currency)}</strong>, ${say('sacável', 'withdrawable')} ${money(ledger.wallet.withdrawable, ledger.wallet.currency)}</p></section>
    <section><h3>${say('Razão', 'Ledger')}</h3><${LedgerTable} entries=${ledger.entries} /></section>
    <section><h3>${say('Depósitos', 'Deposits')}</h3>${
      deposits.length === 0
        ? html`<p class="muted">${say('Nenhum.', 'None.')}</p>`
        : html`<table class="stack"><thead><tr><th>${say('Criado', 'Created')}</th><th>Id</th><th class="num">${say('Valor', 'Amount')}</th><th>${say('Meio', 'Method')}</th><th>${say('Referência', 'Reference')}</th><th>${say('Pagador', 'Payer')}</th><th>${say('Situação', 'Status')}</th></tr></thead>
          <tbody>${deposits.map(
            (d) =>
              html`<tr data-deposit=${d.id}><td data-label=${say('Criado', 'Created')}>${time(d.createdAt)}</td><td data-label=${'Id'}><code>${d.id}</code></td><td data-label=${say('Valor', 'Amount')} class="num">${money(d.amount, d.currency)}</td><td data-label=${say('Meio', 'Method')}>${label(d.method)}</td><td data-label=${say('Referência', 'Reference')}><code>${d.externalReference}</code></td><td data-label=${say('Pagador', 'Payer')}><${Payer} paidBy=${d.paidBy} playerCpf=${player.cpf} /></td><td data-label=${say('Situação', 'Status')}>${label(d.status)}</td></tr>`,
          )}</tbody></table>`
    }</section>
    <section><h3>${say('Saques', 'Withdrawals')}</h3><${WithdrawalTable} rows=${withdrawals} /></section>
  `}<//>`;
}

/** The residential address on one line (issue #60). */
const addressLine = (a) =>
  a ? `${a.street}, ${a.number}${a.complement ? ` ${a.complement}` : ''}, ${a.district}, ${a.city}/${a.state}, CEP ${a.postalCode}` : '—';

/** br-spa: whether the registration data is complete, and what is missing (deposits and bets refused until then). */
function Registration({ status }) {
  if (!status) return html`<dd data-registration="n/a">${say('não exigido (perfil desligado)', 'not required (profile off)')}</dd>`;
  // A loss or time limit the registration lacks is named as a limit, the other items by their field.
  const item = (m) => (m === 'loss' || m === 'time' ? say(`limite de ${label(m).toLowerCase()}`, `${m} limit`) : label(m));
  return status.complete
    ? html`<dd data-registration="complete">${say('completo', 'complete')}</dd>`
    : html`<dd data-registration="incomplete"><strong>${say('incompleto', 'incomplete')}</strong>: ${say('falta', 'missing')} ${status.missing.map(item).join(', ')} (${say(
        'depósitos e apostas recusados',
        'deposits and bets refused',
      )})</dd>`;
}

/** The marketing permission: the bettor's consent, and what keeps it off (issue #60). */
function Marketing({ m }) {
  if (!m) return html`<dd data-marketing="unknown">—</dd>`;
  const consent = m.consent ? say('consentimento dado', 'consent given') : say('sem consentimento', 'no consent');
  const blocked = m.blockedBy ? say(`; bloqueado por ${label(m.blockedBy)}`, `; blocked by ${label(m.blockedBy)}`) : '';
  return html`<dd data-marketing=${m.allowed ? 'allowed' : 'off'}>${m.allowed ? say('permitido', 'allowed') : say('desligado', 'off')} (${consent}${blocked})</dd>`;
}

/**
 * A player's file. The admin API masks the CPF, phone, address and sign-up IP (issue #69); Reveal
 * reads them whole, a deliberate read the gateway records (who, which player, which fields).
 */
function PlayerFile({ id }) {
  // The player whose file was revealed: another player opens masked again.
  const [revealedId, setRevealedId] = useState(undefined);
  const reveal = revealedId === id;
  const state = useLoad(
    async () => ({ file: await api('GET', `/admin/players/${encodeURIComponent(id)}${query({ reveal: reveal ? 'all' : undefined })}`), revealed: reveal }),
    [id, reveal],
  );
  return html`<${Loaded} state=${state}>${({ file, revealed }) => html`<article class="card" data-player=${file.player.id}>
    <h2>${file.player.name} <small><code>${file.player.externalId}</code></small></h2>
    <dl class="profile">
      <dt>Id</dt><dd><code>${file.player.id}</code></dd>
      <dt>${say('Operador / marca', 'Operator / brand')}</dt><dd><${OperatorBrand} player=${file.player} /></dd>
      <dt>E-mail</dt><dd>${file.player.email}</dd><dt>CPF</dt><dd data-cpf>${cpf(file.player.cpf)}</dd>
      <dt>${say('Telefone', 'Phone')}</dt><dd data-phone>${phone(file.player.phone)}</dd><dt>${say('Nascimento', 'Birth date')}</dt><dd data-birth-date=${file.player.birthDate ?? ''}>${day(file.player.birthDate)}</dd>
      <dt>${say('Moeda', 'Currency')}</dt><dd>${file.player.currency}</dd><dt>${say('Criado', 'Created')}</dt><dd>${time(file.player.createdAt)}</dd>
      <dt>${say('Gênero', 'Gender')}</dt><dd data-gender=${file.player.gender ?? ''}>${file.player.gender ? label(file.player.gender) : '—'}</dd><dt>${say('IP do cadastro', 'Sign-up IP')}</dt><dd data-signup-ip>${file.player.signupIp ?? '—'}</dd>
      <dt>${say('Endereço', 'Address')}</dt><dd data-address>${addressLine(file.player.address)}</dd>
      <dt>${say('Cadastro', 'Registration')}</dt><${Registration} status=${file.registration?.status} />
      <dt>Marketing</dt><${Marketing} m=${file.player.marketing} />
      <dt>${say('Termos aceitos', 'Terms accepted')}</dt><dd data-terms>${
        file.termsAcceptances?.length
          ? file.termsAcceptances.map(
              (a) =>
                html`<div data-terms-version=${a.version}><code>${a.version}</code> <${When} iso=${a.acceptedAt} operatorId=${file.player.operatorId} /> ${say('de', 'from')} <code>${a.ip}</code></div>`,
            )
          : '—'
      }</dd>
      <dt>KYC</dt><dd><strong>${label(file.kyc.status)}</strong> ${say('desde', 'since')} ${time(file.kyc.updatedAt)}</dd>
    </dl>
    <p class="muted" data-personal-data=${revealed ? 'revealed' : 'masked'}>${
      revealed
        ? say(
            'CPF, telefone, endereço e IP do cadastro revelados: esta leitura fica registrada.',
            'CPF, phone, address and sign-up IP revealed: this read is recorded.',
          )
        : html`${say('CPF, telefone, endereço e IP do cadastro mascarados; revelar fica registrado.', 'CPF, phone, address and sign-up IP masked; a reveal is recorded.')} <button
            type="button"
            data-reveal
            disabled=${reveal}
            onClick=${() => setRevealedId(id)}
          >${say('Revelar', 'Reveal')}</button>`
    }</p>
    <div class="columns"><${StatusForm} player=${file.player} standing=${file.standing} onDone=${state.reload} /><${LimitsForm} limits=${file.limits} standing=${file.standing} onDone=${state.reload} /></div>
    <${ResponsibleGaming} player=${file.player} onDone=${state.reload} />
    <${PlayerKyc} file=${file} />
    <${Money} player=${file.player} reveal=${reveal} />
  </article>`}<//>`;
}

export function PlayersPage() {
  const params = new URLSearchParams(location.search);
  const [q, setQ] = useState(params.get('q') ?? '');
  const [id, setId] = useState(params.get('id') ?? undefined);
  // Production's players unless the switch says the sandbox's (issue #61); a player opened by id opens whatever its brand.
  const { environment, toggle } = useEnvironment();
  const results = useLoad(async () => (q ? (await api('GET', `/admin/players${query({ q, environment })}`)).data : undefined), [q, environment]);
  const open = (playerId) => {
    setId(playerId);
    history.replaceState(null, '', `/players${query({ q, id: playerId, environment: environment === 'sandbox' ? environment : undefined })}`);
  };
  const search = (e) => {
    e.preventDefault();
    setId(undefined);
    setQ(e.currentTarget.q.value.trim());
    history.replaceState(null, '', `/players${query({ q: e.currentTarget.q.value.trim(), environment: environment === 'sandbox' ? environment : undefined })}`);
  };
  return html`<div>
    ${toggle}
    <form class="search" role="search" onSubmit=${search}>
      <label for="q">${say('Nome, CPF, e-mail, externalId ou id do apostador', 'Player name, CPF, e-mail, externalId or id')}</label>
      <input id="q" name="q" value=${q} required maxlength="254" /><button type="submit">${say('Buscar', 'Find')}</button>
    </form>
    ${
      q && !id
        ? html`<${Loaded} state=${results}>${(rows) =>
            rows === undefined
              ? null
              : rows.length === 0
                ? html`<p class="empty">${say(`Nenhum apostador corresponde a “${q}” em ${label(environment)}.`, `No player matches “${q}” in ${label(environment).toLowerCase()}.`)}</p>`
                : html`<table class="stack players"><thead><tr><th>${say('Nome', 'Name')}</th><th>externalId</th><th>E-mail</th><th>${say('Operador / marca', 'Operator / brand')}</th><th>${say('Situação', 'Status')}</th><th>KYC</th></tr></thead>
                  <tbody>${rows.map(
                    (p) =>
                      html`<tr data-player-row=${p.id} data-environment=${p.environment}><td data-label=${say('Nome', 'Name')}><a href=${`/players${query({ q, id: p.id })}`} title=${p.id} onClick=${(
                        e,
                      ) => {
                        e.preventDefault();
                        open(p.id);
                      }}>${p.name}</a></td><td data-label="externalId"><code>${p.externalId}</code></td><td data-label="E-mail">${p.email}</td><td data-label=${say('Operador / marca', 'Operator / brand')}><${OperatorBrand} player=${p} /></td><td data-label=${say('Situação', 'Status')}>${label(p.status)}</td><td data-label="KYC">${label(p.kycStatus)}</td></tr>`,
                  )}</tbody></table>`}<//>`
        : null
    }
    ${id ? html`<${PlayerFile} id=${id} />` : null}
  </div>`;
}
