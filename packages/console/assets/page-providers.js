// Game providers (admin only; docs/providers.md, "Our team's side"): the list, and per provider its
// settings (enable or disable, launch URL and timeout, allowed addresses, open-round limit), its keys
// per environment (issued with the secret shown once, rotated with an overlap, revoked), the
// operators its games are offered to, its games, and the casino rounds left open past its limit.
// Every change after a confirmation where it stops something at once. A provider that calls us in
// an aggregator's protocol (Hub88, Evolution, Betsy; docs/connectors.md) has a connector per environment
// instead of /provider/v1 keys: the endpoint URL to hand over, its settings (per protocol), their
// public keys (uploaded) and ours (made here, downloaded to hand over) or the shared secrets they
// gave us (kept sealed, never shown back), the game list sync and the connector's health.
import { useState } from 'preact/hooks';
import { html, api, useLoad, useAction, Loaded, ErrorNote, ZonedTime, BrandName, money, may, say, label } from './kit.js';
import { Clearing, DailyReport, MonthStatement, Reconciliations, RevenueShares } from './page-provider-money.js';
import { CertificateWarnings, GameRegister, MeasuredRtp } from './page-game-register.js';
import { ProviderPicker } from './pickers.js';

function Setting({ label, name, value, placeholder, onSave }) {
  const action = useAction();
  const submit = (e) => {
    e.preventDefault();
    action.run(() => onSave(e.currentTarget[name].value.trim()));
  };
  return html`<form class="inline" onSubmit=${submit} aria-label=${label}>
    <label>${label} <input name=${name} value=${value} placeholder=${placeholder} /></label>
    <button type="submit" disabled=${action.busy}>${say('Salvar', 'Save')}</button>${action.done ? html`<span class="ok">${say('salvo', 'saved')}</span>` : null}
    <${ErrorNote} error=${action.error} />
  </form>`;
}

function Keys({ base }) {
  const list = useLoad(() => api('GET', `${base}/credentials`), [base]);
  const [issued, setIssued] = useState(undefined);
  const [overlap, setOverlap] = useState('');
  const action = useAction();
  const issue = async (environment) => {
    const minutes = overlap === '' ? undefined : Number(overlap);
    const env = label(environment);
    const when = minutes === 0 ? say('imediatamente', 'at once') : say(`em ${minutes} minutos`, `in ${minutes} minutes`);
    const what =
      minutes === undefined
        ? say('As chaves em uso continuam valendo.', 'The keys in use go on working.')
        : say(`As chaves de ${env} em uso param ${when}.`, `The ${environment} keys in use stop ${when}.`);
    if (!confirm(say(`Emitir uma nova chave de provedor de ${env}? ${what}`, `Issue a new ${environment} provider key? ${what}`))) return;
    const made = await action.run(() => api('POST', `${base}/credentials`, { environment, ...(minutes === undefined ? {} : { overlapMinutes: minutes }) }));
    if (made) {
      setIssued(made);
      list.reload();
    }
  };
  const revoke = async (k) => {
    const question = say(
      `Revogar agora a chave de ${label(k.environment)} ${k.keyPrefix}…? Toda chamada assinada com ela é recusada a partir de agora.`,
      `Revoke the ${k.environment} key ${k.keyPrefix}… now? Every call signed with it is refused from now on.`,
    );
    if (!confirm(question)) return;
    if (await action.run(() => api('POST', `${base}/credentials/${encodeURIComponent(k.id)}/revoke`))) list.reload();
  };
  return html`<section aria-label=${say('Chaves do provedor', 'Provider keys')}>
    <h3>${say('Chaves', 'Keys')}</h3>
    ${
      issued
        ? html`<div class="secrets" role="alert"><p>${say('Uma nova chave de', 'A new')} <strong>${label(issued.credential.environment)}</strong> ${say(
            'foi emitida. Copie o segredo agora: ele não é mostrado de novo.',
            'key is issued. Copy the secret now: it is not shown again.',
          )}</p>
          <table><thead><tr><th>${say('Chave', 'Key')}</th><th>${say('Segredo', 'Secret')}</th></tr></thead><tbody><tr><td><code>${issued.key}</code></td><td><code class="secret">${issued.secret}</code></td></tr></tbody></table></div>`
        : null
    }
    <${Loaded} state=${list}>${(page) =>
      page.data.length === 0
        ? html`<p data-empty>${say('Nenhuma chave ainda: emita uma abaixo.', 'No key yet: issue one below.')}</p>`
        : html`<table class="stack keys">
      <thead><tr><th>${say('Ambiente', 'Environment')}</th><th>${say('Chave', 'Key')}</th><th>${say('Situação', 'Status')}</th><th>${say('Criada', 'Created')}</th><th>${say('Para', 'Stops')}</th><th></th></tr></thead>
      <tbody>${page.data.map(
        (k) => html`<tr data-credential=${k.id} data-status=${k.status}>
          <td data-label=${say('Ambiente', 'Environment')}>${label(k.environment)}</td><td data-label=${say('Chave', 'Key')}><code>${k.keyPrefix}…</code></td><td data-label=${say('Situação', 'Status')}>${label(k.status)}</td><td data-label=${say('Criada', 'Created')}><${ZonedTime} iso=${k.createdAt} /></td>
          <td data-label=${say('Para', 'Stops')}><${Stops} k=${k} /></td>
          <td>${k.status === 'active' || k.status === 'expiring' ? html`<button type="button" class="danger" disabled=${action.busy} onClick=${() => revoke(k)}>${say('Revogar', 'Revoke')}</button>` : null}</td>
        </tr>`,
      )}</tbody></table>`}<//>
    <div class="actions">
      <label class="inline">${say('Sobreposição em minutos (vazio: as chaves em uso ficam; 0: param imediatamente)', 'Overlap in minutes (empty: the keys in use stay; 0: they stop at once)')}
        <input name="overlapMinutes" type="number" min="0" max="10080" value=${overlap} onInput=${(e) => setOverlap(e.currentTarget.value)} /></label>
      ${['sandbox', 'production'].map((env) => html`<button type="button" disabled=${action.busy} onClick=${() => issue(env)}>${say(`Emitir chave de ${label(env)}`, `Issue ${env} key`)}</button>`)}
    </div>
    <${ErrorNote} error=${action.error} />
  </section>`;
}

function Operators({ base, provider, onChange }) {
  const operators = useLoad(() => api('GET', '/admin/operators'));
  const action = useAction();
  const set = (operatorId, enabled) =>
    action.run(() => api('PUT', `${base}/operators/${encodeURIComponent(operatorId)}`, { enabled })).then((r) => r && onChange());
  return html`<section aria-label=${say('Operadores atendidos', 'Operators offered')}>
    <h3>${say('Operadores aos quais seus jogos são oferecidos', 'Operators its games are offered to')}</h3>
    <${Loaded} state=${operators}>${(page) => html`<table class="stack">
      <thead><tr><th>${say('Operador', 'Operator')}</th><th>${say('Oferecido', 'Offered')}</th><th></th></tr></thead>
      <tbody>${page.data.map((op) => {
        const on = provider.operatorIds.includes(op.id);
        return html`<tr data-operator=${op.id}><td data-label=${say('Operador', 'Operator')}>${op.name} <code>${op.id}</code></td><td data-label=${say('Oferecido', 'Offered')}>${on ? say('sim', 'yes') : say('não', 'no')}</td>
          <td><button type="button" disabled=${action.busy} onClick=${() => set(op.id, !on)}>${on ? say('Retirar', 'Withdraw') : say('Oferecer', 'Offer')}</button></td></tr>`;
      })}</tbody></table>`}<//>
    <${ErrorNote} error=${action.error} />
  </section>`;
}

function Games({ base }) {
  const list = useLoad(() => api('GET', `${base}/games`), [base]);
  const action = useAction();
  const put = (code, body) => action.run(() => api('PUT', `${base}/games/${encodeURIComponent(code)}`, body)).then((r) => r && list.reload());
  const add = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const body = { name: f.name.value.trim(), category: f.category.value.trim(), enabled: true };
    if (await action.run(() => api('PUT', `${base}/games/${encodeURIComponent(f.gameCode.value.trim())}`, body))) {
      f.reset();
      list.reload();
    }
  };
  return html`<section aria-label=${say('Jogos do provedor', 'Provider games')}>
    <h3>${say('Jogos', 'Games')}</h3>
    <${Loaded} state=${list}>${(page) =>
      page.data.length === 0
        ? html`<p data-empty>${say('Nenhum jogo ainda: adicione um abaixo.', 'No game yet: add one below.')}</p>`
        : html`<table class="stack">
      <thead><tr><th>${say('Código do jogo', 'Game code')}</th><th>${say('Nosso id', 'Our id')}</th><th>${say('Nome', 'Name')}</th><th>${say('Categoria', 'Category')}</th><th>${say('Ativo', 'Enabled')}</th><th></th></tr></thead>
      <tbody>${page.data.map(
        (
          g,
        ) => html`<tr data-game=${g.gameCode}><td data-label=${say('Código do jogo', 'Game code')}><code>${g.gameCode}</code></td><td data-label=${say('Nosso id', 'Our id')}><code>${g.id}</code></td><td data-label=${say('Nome', 'Name')}>${g.name}</td><td data-label=${say('Categoria', 'Category')}>${g.category}</td>
          <td data-label=${say('Ativo', 'Enabled')}>${g.enabled ? say('sim', 'yes') : say('não', 'no')}</td>
          <td><button type="button" disabled=${action.busy} onClick=${() => put(g.gameCode, { name: g.name, category: g.category, enabled: !g.enabled })}>${g.enabled ? say('Desativar', 'Disable') : say('Ativar', 'Enable')}</button></td></tr>`,
      )}</tbody></table>`}<//>
    <form class="inline" onSubmit=${add} aria-label=${say('Incluir um jogo', 'Add a game')}>
      <label>${say('Código do jogo', 'Game code')} <input name="gameCode" required maxlength="128" /></label>
      <label>${say('Nome', 'Name')} <input name="name" required maxlength="200" /></label>
      <label>${say('Categoria', 'Category')} <input name="category" required maxlength="64" placeholder="slots" /></label>
      <button type="submit" disabled=${action.busy}>${say('Incluir', 'Add')}</button>
    </form>
    <${ErrorNote} error=${action.error} />
  </section>`;
}

/** A player by name (their operator's id beside it), a link to their file; the id on hover. */
const PlayerName = ({ row }) =>
  html`<a href=${`/players?id=${encodeURIComponent(row.playerId)}`} title=${row.playerId} data-player-name>${row.playerName ?? row.playerId}</a>${
    row.externalId ? html` <small><code>${row.externalId}</code></small>` : null
  }`;

function OpenRounds({ base }) {
  const list = useLoad(() => api('GET', `${base}/open-rounds`), [base]);
  return html`<section aria-label="Open rounds">
    <h3>${say('Rodadas abertas além do limite', 'Rounds left open past the limit')}</h3>
    <${Loaded} state=${list}>${(page) =>
      page.data.length === 0
        ? html`<p>${say('Nenhuma.', 'None.')}</p>`
        : html`<table class="stack open-rounds"><thead><tr><th>${say('Apostador', 'Player')}</th><th>${say('Marca', 'Brand')}</th><th>${say('Jogo', 'Game')}</th><th class="num">${say('Apostado', 'Staked')}</th><th>${say('Aberta', 'Opened')}</th><th>${say('Rodada', 'Round')}</th></tr></thead>
          <tbody>${page.data.map(
            (
              r,
            ) => html`<tr data-open-round=${r.roundId}><td data-label=${say('Apostador', 'Player')}><${PlayerName} row=${r} /></td><td data-label=${say('Marca', 'Brand')}><${BrandName} brandId=${r.brandId} /></td><td data-label=${say('Jogo', 'Game')}>${r.gameCode}</td>
              <td data-label=${say('Apostado', 'Staked')} class="num">${money(r.staked)}</td><td data-label=${say('Aberta', 'Opened')}><${ZonedTime} iso=${r.openedAt} /></td><td data-label=${say('Rodada', 'Round')}><code>${r.roundId}</code></td></tr>`,
          )}</tbody></table>`}<//>
  </section>`;
}

function Debts({ base }) {
  const list = useLoad(() => api('GET', `${base}/debts`), [base]);
  return html`<section aria-label="Players' debts">
    <h3>${say('Apostadores que devem a este provedor', 'Players who owe this provider')}</h3>
    <p>${say(
      'O débito de uma correção que o saldo do apostador não cobriu; os próximos créditos do provedor ao apostador pagam-no primeiro.',
      "A correction's debit the player's balance did not cover; the provider's next credits to the player repay it first.",
    )}</p>
    <${Loaded} state=${list}>${(page) =>
      page.data.length === 0
        ? html`<p>${say('Nenhum.', 'None.')}</p>`
        : html`<table class="stack debts"><thead><tr><th>${say('Apostador', 'Player')}</th><th>${say('Marca', 'Brand')}</th><th class="num">${say('Deve', 'Owed')}</th><th class="num">${say('Contraído', 'Incurred')}</th><th class="num">${say('Pago', 'Repaid')}</th><th>${say('Última mudança', 'Last change')}</th></tr></thead>
          <tbody>${page.data.map(
            (
              d,
            ) => html`<tr data-debt=${d.playerId}><td data-label=${say('Apostador', 'Player')}><${PlayerName} row=${d} /></td><td data-label=${say('Marca', 'Brand')}><${BrandName} brandId=${d.brandId} /></td><td data-label=${say('Deve', 'Owed')} class="num">${money(d.owed, d.currency)}</td>
              <td data-label=${say('Contraído', 'Incurred')} class="num">${money(d.incurred, d.currency)}</td><td data-label=${say('Pago', 'Repaid')} class="num">${money(d.repaid, d.currency)}</td><td data-label=${say('Última mudança', 'Last change')}><${ZonedTime} iso=${d.updatedAt} /></td></tr>`,
          )}</tbody></table>`}<//>
  </section>`;
}

/** What a connector answered in the last 24 hours: the last call, the calls by status, the error rate. */
function Health({ health }) {
  const statuses = Object.entries(health.byStatus).sort((a, b) => b[1] - a[1]);
  return html`<div class="health" data-health>
    <p>${say('Última chamada', 'Last call')}: <strong data-last-call><${ZonedTime} iso=${health.lastCallAt} /></strong> · ${health.calls} ${say('chamadas em 24 h', 'calls in 24 h')} · ${say('taxa de erro', 'error rate')}
      <strong data-error-rate>${(health.errorRate * 100).toFixed(1)}%</strong> <small>${say(
        '(assinaturas, tokens ou sintaxe inválidos, parceiro desconhecido, falhas nossas; não as recusas aos apostadores)',
        "(bad signatures, tokens or syntax, unknown partner, our faults; not the players' refusals)",
      )}</small></p>
    ${
      statuses.length === 0
        ? null
        : html`<table class="stack"><thead><tr><th>${say('Resposta', 'Status')}</th><th>${say('Chamadas', 'Calls')}</th></tr></thead>
          <tbody>${statuses.map(
            ([status, n]) =>
              html`<tr data-status=${status}><td data-label=${say('Resposta', 'Status')}><code>${status}</code></td><td data-label=${say('Chamadas', 'Calls')}>${n}</td></tr>`,
          )}</tbody></table>`
    }
  </div>`;
}

/** A PEM handed over as a file (our public key, for the aggregator). */
const pemFile = (pem) => `data:application/x-pem-file;charset=utf-8,${encodeURIComponent(pem)}`;

/**
 * What each protocol's connector is set up with (docs/connectors-<protocol>.md): the aggregator's
 * name, its settings' fields (the first one names it: Hub88's operator_id, Evolution's casino key),
 * whether it signs with key pairs, the shared secrets it gives us, and whether it lists its games.
 */
const PROTOCOLS = {
  hub88: {
    name: 'Hub88',
    idField: { name: 'operatorId', label: () => say('O operator_id deles', 'Their operator_id'), type: 'number', value: (v) => Number(v) },
    urlLabel: () => say('URL base da API de jogos', 'Games API base URL'),
    keys: true,
    secrets: [],
    syncGames: true,
  },
  evolution: {
    name: 'Evolution',
    idField: { name: 'casinoKey', label: () => say('A casino key deles', 'Their casino key'), type: 'text', value: (v) => v.trim() },
    urlLabel: () => say('Host da Evolution (API UA)', 'Evolution host (UA API)'),
    keys: false,
    secrets: ['authToken', 'casinoToken'],
    syncGames: false,
  },
  // Betsy's sportsbook: no id of ours with them, the page its frame starts in (its launch), its PARTNER_SECRET.
  betsy: {
    name: 'Betsy',
    idField: null,
    urlField: 'frameUrl',
    urlLabel: () =>
      say('Página do frame (o apostador é enviado para lá com o token da sessão)', 'Frame page (the player is sent there with the session token)'),
    keys: false,
    secrets: ['partnerSecret'],
    syncGames: false,
  },
};
const protocolOf = (protocol) =>
  PROTOCOLS[protocol] ?? {
    name: 'the aggregator',
    idField: null,
    urlLabel: () => say('URL base da API', 'API base URL'),
    keys: false,
    secrets: [],
    syncGames: false,
  };

/** The column names of a connector's keys and secrets, in the person's language. */
const COLUMNS = () => ({
  secret: say('Segredo', 'Secret'),
  whose: say('De quem', 'Whose'),
  fingerprint: say('Impressão digital', 'Fingerprint'),
  status: say('Situação', 'Status'),
  from: say('Desde', 'From'),
  stops: say('Para', 'Stops'),
});
const whose = (owner) => (owner === 'ours' ? say('nossa', 'ours') : say('deles', 'theirs'));
/** When a key stops: revoked then, or its end (none: in force until rotated). */
const Stops = ({ k }) => (k.revokedAt ? html`${label('revoked')} <${ZonedTime} iso=${k.revokedAt} />` : html`<${ZonedTime} iso=${k.expiresAt} />`);

/** The shared secrets an aggregator gave us (Evolution's tokens): kept sealed, shown by fingerprint only. */
function Secrets({ c, env, names, action, onChange }) {
  const keep = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const minutes = f.overlapMinutes.value === '' ? 0 : Number(f.overlapMinutes.value);
    const name = f.name.value;
    if (minutes === 0 && env.secrets.some((k) => k.name === name && (k.status === 'active' || k.status === 'expiring'))) {
      if (
        !confirm(
          say(
            `Substituir ${name} de ${label(env.environment)} imediatamente? O que está em uso para agora.`,
            `Replace the ${env.environment} ${name} at once? The one in use stops working now.`,
          ),
        )
      )
        return;
    }
    if (await action.run(() => api('POST', `${c}/secrets`, { name, value: f.value.value.trim(), overlapMinutes: minutes }))) {
      f.reset();
      onChange();
    }
  };
  const revoke = async (k) => {
    if (!confirm(say(`Revogar agora ${k.name} de ${label(k.environment)} ${k.fingerprint}…?`, `Revoke the ${k.environment} ${k.name} ${k.fingerprint}… now?`)))
      return;
    if (await action.run(() => api('POST', `${c}/keys/${encodeURIComponent(k.id)}/revoke`))) onChange();
  };
  const h = COLUMNS();
  return html`<table class="stack connector-secrets"><thead><tr><th>${h.secret}</th><th>${h.whose}</th><th>${h.fingerprint}</th><th>${h.status}</th><th>${h.from}</th><th>${h.stops}</th><th></th></tr></thead>
      <tbody>${env.secrets.map(
        (k) => html`<tr data-secret=${k.id} data-name=${k.name} data-status=${k.status}>
          <td data-label=${h.secret}><code>${k.name}</code></td><td data-label=${h.whose}>${whose(k.owner)}</td><td data-label=${h.fingerprint}><code>${k.fingerprint}</code></td>
          <td data-label=${h.status}>${label(k.status)}</td><td data-label=${h.from}><${ZonedTime} iso=${k.startsAt} /></td>
          <td data-label=${h.stops}><${Stops} k=${k} /></td>
          <td>${k.status !== 'revoked' && k.status !== 'expired' ? html`<button type="button" class="danger" disabled=${action.busy} onClick=${() => revoke(k)}>${say('Revogar', 'Revoke')}</button>` : null}</td>
        </tr>`,
      )}</tbody></table>
    <form onSubmit=${keep} aria-label=${say('Guardar o segredo deles', 'Keep their secret')}>
      <label>${h.secret} <select name="name">${names.map((n) => html`<option value=${n}>${n}</option>`)}</select></label>
      <label>${say('Valor (como eles o deram; nunca mostrado de volta)', 'Value (as they gave it; never shown back)')} <input name="value" type="password" autocomplete="off" required minlength="8" maxlength="512" /></label>
      <label class="inline">${say('Sobreposição em minutos (o que está em uso continua valendo por esse tempo; 0: imediatamente)', 'Overlap in minutes (the one in use keeps working that long; 0: at once)')} <input name="overlapMinutes" type="number" min="0" max="10080" /></label>
      <button type="submit" disabled=${action.busy}>${say('Guardar segredo', 'Keep secret')}</button>
    </form>`;
}

function ConnectorEnvironment({ base, protocol, env, onChange }) {
  const action = useAction();
  const [synced, setSynced] = useState(undefined);
  const c = `${base}/connector/${env.environment}`;
  const settings = env.settings ?? {};
  const p = protocolOf(protocol);
  const urlField = p.urlField ?? 'apiBaseUrl';
  const saveSettings = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    // The fields the form does not show (lang, lobbyUrl) are kept as they are.
    const { operatorId: _o, casinoKey: _c, apiBaseUrl: _u, frameUrl: _f, ...kept } = settings;
    const id = p.idField ? { [p.idField.name]: p.idField.value(f[p.idField.name].value) } : {};
    const body = { settings: { ...kept, ...id, [urlField]: f[urlField].value.trim() } };
    if (await action.run(() => api('PUT', c, body))) onChange();
  };
  const upload = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const minutes = f.overlapMinutes.value === '' ? 0 : Number(f.overlapMinutes.value);
    if (minutes === 0 && env.keys.some((k) => k.owner === 'theirs' && (k.status === 'active' || k.status === 'expiring'))) {
      const question = say(
        `Substituir a chave deles de ${label(env.environment)} imediatamente? Chamadas assinadas com a chave em uso são recusadas a partir de agora.`,
        `Replace their ${env.environment} key at once? Calls signed with the key in use are refused from now on.`,
      );
      if (!confirm(question)) return;
    }
    if (await action.run(() => api('POST', `${c}/their-keys`, { publicKey: f.publicKey.value.trim(), overlapMinutes: minutes }))) {
      f.reset();
      onChange();
    }
  };
  const rotate = async (e) => {
    e.preventDefault();
    const minutes = e.currentTarget.overlapMinutes.value === '' ? 0 : Number(e.currentTarget.overlapMinutes.value);
    const when = minutes === 0 ? say('imediatamente', 'at once') : say(`em ${minutes} minutos`, `in ${minutes} minutes`);
    const question = say(
      `Criar um novo par de chaves nosso de ${label(env.environment)}? Ele assina nossas chamadas ${when}: entregue a chave pública antes.`,
      `Make a new ${env.environment} key pair of ours? It signs our calls ${when}: hand its public key over before.`,
    );
    if (!confirm(question)) return;
    if (await action.run(() => api('POST', `${c}/our-keys`, { overlapMinutes: minutes }))) onChange();
  };
  const revoke = async (k) => {
    const question = say(
      `Revogar agora a chave ${k.owner === 'ours' ? 'nossa' : 'deles'} de ${label(k.environment)} ${k.fingerprint.slice(0, 12)}…?`,
      `Revoke ${k.owner === 'ours' ? 'our' : 'their'} ${k.environment} key ${k.fingerprint.slice(0, 12)}… now?`,
    );
    if (!confirm(question)) return;
    if (await action.run(() => api('POST', `${c}/keys/${encodeURIComponent(k.id)}/revoke`))) onChange();
  };
  const sync = async () => {
    const r = await action.run(() => api('POST', `${c}/sync-games`));
    if (r) {
      setSynced(r);
      onChange();
    }
  };
  const h = COLUMNS();
  return html`<section class="connector" aria-label=${`Connector ${env.environment}`} data-environment=${env.environment}>
    <h4>${label(env.environment)}</h4>
    <p>${say(`URL do endpoint a entregar a ${p.name}`, `Endpoint URL to hand ${p.name}`)}: <code data-endpoint>${env.endpointUrl}</code></p>
    ${
      p.idField || p.urlField
        ? html`<form class="inline" onSubmit=${saveSettings} aria-label=${say('Configuração do conector', 'Connector settings')}>
      ${p.idField ? html`<label>${p.idField.label()} <input name=${p.idField.name} type=${p.idField.type} min="1" required value=${settings[p.idField.name] ?? ''} /></label>` : null}
      <label>${p.urlLabel()} <input name=${urlField} type="url" required value=${settings[urlField] ?? ''} placeholder="https://…" /></label>
      <button type="submit" disabled=${action.busy}>${say('Salvar configuração', 'Save settings')}</button>
    </form>`
        : null
    }
    ${p.secrets.length > 0 ? html`<${Secrets} c=${c} env=${env} names=${p.secrets} action=${action} onChange=${onChange} />` : null}
    ${
      p.keys
        ? html`${
            env.keys.length === 0
              ? html`<p data-empty>${say('Nenhuma chave ainda: envie a deles abaixo.', 'No key yet: upload theirs below.')}</p>`
              : html`<table class="stack connector-keys"><thead><tr><th>${h.whose}</th><th>${h.fingerprint}</th><th>${h.status}</th><th>${h.from}</th><th>${h.stops}</th><th></th></tr></thead>
      <tbody>${env.keys.map(
        (k) => html`<tr data-key=${k.id} data-owner=${k.owner} data-status=${k.status}>
          <td data-label=${h.whose}>${whose(k.owner)}</td><td data-label=${h.fingerprint}><code>${k.fingerprint.slice(0, 16)}…</code></td><td data-label=${h.status}>${label(k.status)}</td>
          <td data-label=${h.from}><${ZonedTime} iso=${k.startsAt} /></td><td data-label=${h.stops}><${Stops} k=${k} /></td>
          <td>${
            k.owner === 'ours' && k.status !== 'revoked' && k.status !== 'expired'
              ? html`<a class="button" download=${`our-public-key-${env.environment}.pem`} href=${pemFile(k.publicKey)}>${say('Baixar a chave pública', 'Download public key')}</a> `
              : null
          }
            ${k.status !== 'revoked' && k.status !== 'expired' ? html`<button type="button" class="danger" disabled=${action.busy} onClick=${() => revoke(k)}>${say('Revogar', 'Revoke')}</button>` : null}</td>
        </tr>`,
      )}</tbody></table>`
          }
    <form onSubmit=${upload} aria-label=${say('Enviar a chave pública deles', 'Upload their public key')}>
      <label>${say('A chave pública deles (PEM)', 'Their public key (PEM)')} <textarea name="publicKey" rows="4" required placeholder="-----BEGIN PUBLIC KEY-----"></textarea></label>
      <label class="inline">${say('Sobreposição em minutos (a chave deles em uso continua verificando por esse tempo; 0: imediatamente)', 'Overlap in minutes (their key in use keeps verifying that long; 0: at once)')} <input name="overlapMinutes" type="number" min="0" max="10080" /></label>
      <button type="submit" disabled=${action.busy}>${say('Enviar a chave deles', 'Upload their key')}</button>
    </form>
    <form class="inline" onSubmit=${rotate} aria-label=${say('Novo par de chaves nosso', 'New key pair of ours')}>
      <label>${say('Sobreposição em minutos (a nossa em uso continua assinando por esse tempo)', 'Overlap in minutes (ours in use keeps signing that long)')} <input name="overlapMinutes" type="number" min="0" max="10080" /></label>
      <button type="submit" disabled=${action.busy}>${say('Novo par de chaves nosso', 'New key pair of ours')}</button>
    </form>`
        : null
    }
    ${
      p.syncGames
        ? html`<div class="actions"><button type="button" disabled=${action.busy} onClick=${sync}>${say('Sincronizar jogos', 'Sync games')}</button>
      ${
        synced
          ? html`<span class="ok" data-synced>${say(
              `${synced.added} incluídos, ${synced.updated} atualizados, ${synced.disabled} desativados de ${synced.total}`,
              `${synced.added} added, ${synced.updated} updated, ${synced.disabled} disabled of ${synced.total}`,
            )}</span>`
          : null
      }</div>`
        : html`<p><small>${say(
            `${p.name} não lista jogos para nós: inclua os jogos abaixo (o código como ${p.name} os chama).`,
            `${p.name} lists no games for us: add its games below (their code as ${p.name} names them).`,
          )}</small></p>`
    }
    <${Health} health=${env.health} />
    <${ErrorNote} error=${action.error} />
  </section>`;
}

function Connector({ base, provider }) {
  const connector = useLoad(() => api('GET', `${base}/connector`), [base]);
  return html`<section aria-label=${say('Conector', 'Connector')}>
    <h3>${say('Conector', 'Connector')} (${provider.protocol})</h3>
    <${Loaded} state=${connector}>${(c) => c.environments.map((env) => html`<${ConnectorEnvironment} key=${env.environment} base=${base} protocol=${c.protocol} env=${env} onChange=${connector.reload} />`)}<//>
  </section>`;
}

/**
 * Provider money (issue #61): what each brand owes or is owed, the day per brand, the month statement,
 * the revenue share and reconciliation (issue #59), players' debts and rounds left open.
 */
function ProviderMoney({ base }) {
  // A revenue share set here reads again the month it changes.
  const [shares, setShares] = useState(0);
  return html`<${Clearing} base=${base} />
    <${DailyReport} base=${base} />
    <${MonthStatement} base=${base} changed=${shares} />
    <${RevenueShares} base=${base} onChange=${() => setShares(shares + 1)} />
    <${Reconciliations} base=${base} />
    <${Debts} base=${base} />
    <${OpenRounds} base=${base} />`;
}

function Provider({ provider, onChange, open }) {
  const base = `/admin/providers/${encodeURIComponent(provider.id)}`;
  // A connector's provider calls us in its own protocol: no /provider/v1 keys, no launch URL (its API launches).
  const native = provider.protocol === 'native';
  const toggle = useAction();
  const update = (body) => api('PUT', base, body).then(onChange);
  const flip = async () => {
    const next = provider.status === 'enabled' ? 'disabled' : 'enabled';
    const question = say(
      `Desativar ${provider.name}? Ele não recebe novas apostas; seus prêmios e estornos continuam sendo liquidados.`,
      `Disable ${provider.name}? It takes no new bets; its wins and rollbacks still settle.`,
    );
    if (next === 'disabled' && !confirm(question)) return;
    if (await toggle.run(() => api('PUT', base, { status: next }))) onChange();
  };
  // Admins change a provider; finance reads its money (issue #61). A card opens on demand: the page stays short.
  const admin = may();
  // The money sections are read once the card is open (a closed card asks nothing).
  const [isOpen, setIsOpen] = useState(open);
  return html`<article class="card" data-provider=${provider.id}>
    <details open=${open} onToggle=${(e) => setIsOpen(e.currentTarget.open)}>
    <summary><h2>${provider.name} <small><code>${provider.id}</code> · ${kindName(provider.kind)} · ${say('protocolo', 'protocol')} <span data-protocol>${provider.protocol}</span> · <strong data-status=${provider.status}>${statusName(provider.status)}</strong> · ${say('desde', 'since')} <${ZonedTime} iso=${provider.createdAt} /></small></h2></summary>
    ${
      admin
        ? html`<div class="actions"><button type="button" class=${provider.status === 'enabled' ? 'danger' : ''} disabled=${toggle.busy} onClick=${flip}>
      ${provider.status === 'enabled' ? say('Desativar', 'Disable') : say('Ativar', 'Enable')}</button><${ErrorNote} error=${toggle.error} /></div>
    ${
      native
        ? html`<${Setting} label=${say('URL de lançamento', 'Launch URL')} name="launchUrl" value=${provider.launchUrl ?? ''} placeholder=${say('nenhuma', 'none')} onSave=${(v) => update({ launchUrl: v || null })} />`
        : null
    }
    <${Setting} label=${say('Tempo limite do lançamento (ms)', 'Launch timeout (ms)')} name="launchTimeoutMs" value=${String(provider.launchTimeoutMs)} onSave=${(v) => update({ launchTimeoutMs: Number(v) })} />
    <${Setting} label=${say('Endereços permitidos (separados por vírgula; vazio permite todos)', 'Allowed addresses (comma-separated; empty allows all)')} name="allowedIps" value=${provider.allowedIps.join(', ')}
      onSave=${(v) => update({ allowedIps: v ? v.split(/[\s,]+/).filter(Boolean) : [] })} />
    <${Setting} label=${say('Limite de rodada aberta (minutos)', 'Open-round limit (minutes)')} name="openRoundLimitMinutes" value=${String(provider.openRoundLimitMinutes)}
      onSave=${(v) => update({ openRoundLimitMinutes: Number(v) })} />
    ${native ? html`<${Keys} base=${base} />` : html`<${Connector} base=${base} provider=${provider} />`}
    <${Operators} base=${base} provider=${provider} onChange=${onChange} />
    <${Games} base=${base} />`
        : null
    }
    ${isOpen ? html`<${ProviderMoney} base=${base} />` : null}
    ${isOpen && provider.kind === 'casino' ? html`<${GameRegister} base=${base} /><${MeasuredRtp} base=${base} />` : null}
    </details>
  </article>`;
}

/** A provider's kind and status in the person's language (English as the API writes them). */
/** A provider's kind mid-sentence (language.js's words, in lower case). */
const kindName = (kind) => label(kind).toLowerCase();
const statusName = (status) => (status === 'enabled' ? say('ativo', 'enabled') : status === 'disabled' ? say('desativado', 'disabled') : label(status));

function CreateProvider({ onCreated }) {
  const action = useAction();
  const submit = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const url = f.launchUrl.value.trim();
    const made = await action.run(() =>
      api('POST', '/admin/providers', { name: f.name.value.trim(), kind: f.kind.value, protocol: f.protocol.value, ...(url ? { launchUrl: url } : {}) }),
    );
    if (made) {
      f.reset();
      onCreated();
    }
  };
  return html`<form class="inline" onSubmit=${submit} aria-label=${say('Novo provedor', 'New provider')}>
    <label>${say('Novo provedor', 'New provider')} <input name="name" required minlength="2" maxlength="200" placeholder=${say('nome', 'name')} /></label>
    <label>${say('Tipo', 'Kind')} <select name="kind">${['casino', 'sportsbook'].map((k) => html`<option value=${k}>${kindName(k)}</option>`)}</select></label>
    <label>${say('Protocolo', 'Protocol')} <select name="protocol"><option value="native">${say('nativo', 'native')} (/provider/v1)</option><option value="hub88">Hub88</option><option value="evolution">Evolution</option><option value="betsy">Betsy</option></select></label>
    <label>${say('URL de lançamento', 'Launch URL')} <input name="launchUrl" type="url" placeholder="https://…" /></label>
    <button type="submit" disabled=${action.busy}>${say('Criar', 'Create')}</button><${ErrorNote} error=${action.error} />
  </form>`;
}

/** Up to this many providers, an admin's cards are open; past it, the one picked (or just made) is. */
const OPEN_UP_TO = 3;

export function ProvidersPage() {
  const list = useLoad(() => api('GET', '/admin/providers'));
  const [chosen, setChosen] = useState(new URLSearchParams(location.search).get('provider') ?? '');
  const pick = (id) => {
    setChosen(id);
    history.replaceState(null, '', id ? `/providers?provider=${encodeURIComponent(id)}` : '/providers');
  };
  return html`<div>
    <${CertificateWarnings} />
    ${may() ? html`<${CreateProvider} onCreated=${list.reload} />` : null}
    <${Loaded} state=${list}>${(page) =>
      page.data.length === 0
        ? html`<p>${say('Nenhum provedor ainda.', 'No provider yet.')}</p>`
        : html`<form class="inline" aria-label=${say('Ir para um provedor', 'Go to a provider')} onSubmit=${(e) => e.preventDefault()}>
              <${ProviderPicker} providers=${page.data} value=${chosen} onChange=${pick} />
            </form>
            ${page.data.map(
              (p) =>
                html`<${Provider} key=${p.id} provider=${p} onChange=${list.reload} open=${p.id === chosen || (may() && page.data.length <= OPEN_UP_TO)} />`,
            )}`}<//>
  </div>`;
}
