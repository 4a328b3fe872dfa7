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
import { html, api, useLoad, useAction, Loaded, ErrorNote, ZonedTime, BrandName, time, money, may, say } from './kit.js';
import { Clearing, DailyReport } from './page-provider-money.js';
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
    <button type="submit" disabled=${action.busy}>Save</button>${action.done ? html`<span class="ok">saved</span>` : null}
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
    const what =
      minutes === undefined ? 'The keys in use go on working.' : `The ${environment} keys in use stop ${minutes === 0 ? 'at once' : `in ${minutes} minutes`}.`;
    if (!confirm(`Issue a new ${environment} provider key? ${what}`)) return;
    const made = await action.run(() => api('POST', `${base}/credentials`, { environment, ...(minutes === undefined ? {} : { overlapMinutes: minutes }) }));
    if (made) {
      setIssued(made);
      list.reload();
    }
  };
  const revoke = async (k) => {
    if (!confirm(`Revoke the ${k.environment} key ${k.keyPrefix}… now? Every call signed with it is refused from now on.`)) return;
    if (await action.run(() => api('POST', `${base}/credentials/${encodeURIComponent(k.id)}/revoke`))) list.reload();
  };
  return html`<section aria-label="Provider keys">
    <h3>Keys</h3>
    ${
      issued
        ? html`<div class="secrets" role="alert"><p>A new <strong>${issued.credential.environment}</strong> key is issued. Copy the secret now: it is not shown again.</p>
          <table><thead><tr><th>Key</th><th>Secret</th></tr></thead><tbody><tr><td><code>${issued.key}</code></td><td><code class="secret">${issued.secret}</code></td></tr></tbody></table></div>`
        : null
    }
    <${Loaded} state=${list}>${(page) => html`<table class="keys">
      <thead><tr><th>Environment</th><th>Key</th><th>Status</th><th>Created</th><th>Stops</th><th></th></tr></thead>
      <tbody>${page.data.map(
        (k) => html`<tr data-credential=${k.id} data-status=${k.status}>
          <td>${k.environment}</td><td><code>${k.keyPrefix}…</code></td><td>${k.status}</td><td>${time(k.createdAt)}</td>
          <td>${k.revokedAt ? `revoked ${time(k.revokedAt)}` : time(k.expiresAt)}</td>
          <td>${k.status === 'active' || k.status === 'expiring' ? html`<button type="button" class="danger" disabled=${action.busy} onClick=${() => revoke(k)}>Revoke</button>` : null}</td>
        </tr>`,
      )}</tbody></table>`}<//>
    <div class="actions">
      <label class="inline">Overlap in minutes (empty: the keys in use stay; 0: they stop at once)
        <input name="overlapMinutes" type="number" min="0" max="10080" value=${overlap} onInput=${(e) => setOverlap(e.currentTarget.value)} /></label>
      ${['sandbox', 'production'].map((env) => html`<button type="button" disabled=${action.busy} onClick=${() => issue(env)}>Issue ${env} key</button>`)}
    </div>
    <${ErrorNote} error=${action.error} />
  </section>`;
}

function Operators({ base, provider, onChange }) {
  const operators = useLoad(() => api('GET', '/admin/operators'));
  const action = useAction();
  const set = (operatorId, enabled) =>
    action.run(() => api('PUT', `${base}/operators/${encodeURIComponent(operatorId)}`, { enabled })).then((r) => r && onChange());
  return html`<section aria-label="Operators offered">
    <h3>Operators its games are offered to</h3>
    <${Loaded} state=${operators}>${(page) => html`<table>
      <thead><tr><th>Operator</th><th>Offered</th><th></th></tr></thead>
      <tbody>${page.data.map((op) => {
        const on = provider.operatorIds.includes(op.id);
        return html`<tr data-operator=${op.id}><td>${op.name} <code>${op.id}</code></td><td>${on ? 'yes' : 'no'}</td>
          <td><button type="button" disabled=${action.busy} onClick=${() => set(op.id, !on)}>${on ? 'Withdraw' : 'Offer'}</button></td></tr>`;
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
  return html`<section aria-label="Provider games">
    <h3>Games</h3>
    <${Loaded} state=${list}>${(page) => html`<table>
      <thead><tr><th>Game code</th><th>Our id</th><th>Name</th><th>Category</th><th>Enabled</th><th></th></tr></thead>
      <tbody>${page.data.map(
        (g) => html`<tr data-game=${g.gameCode}><td><code>${g.gameCode}</code></td><td><code>${g.id}</code></td><td>${g.name}</td><td>${g.category}</td>
          <td>${g.enabled ? 'yes' : 'no'}</td>
          <td><button type="button" disabled=${action.busy} onClick=${() => put(g.gameCode, { name: g.name, category: g.category, enabled: !g.enabled })}>${g.enabled ? 'Disable' : 'Enable'}</button></td></tr>`,
      )}</tbody></table>`}<//>
    <form class="inline" onSubmit=${add} aria-label="Add a game">
      <label>Game code <input name="gameCode" required maxlength="128" /></label>
      <label>Name <input name="name" required maxlength="200" /></label>
      <label>Category <input name="category" required maxlength="64" placeholder="slots" /></label>
      <button type="submit" disabled=${action.busy}>Add</button>
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
    <p>Last call: <strong data-last-call>${time(health.lastCallAt)}</strong> · ${health.calls} calls in 24 h · error rate
      <strong data-error-rate>${(health.errorRate * 100).toFixed(1)}%</strong> <small>(bad signatures, tokens or syntax, unknown partner, our faults; not the players' refusals)</small></p>
    ${
      statuses.length === 0
        ? null
        : html`<table class="stack"><thead><tr><th>Status</th><th>Calls</th></tr></thead>
          <tbody>${statuses.map(([status, n]) => html`<tr data-status=${status}><td data-label="Status"><code>${status}</code></td><td data-label="Calls">${n}</td></tr>`)}</tbody></table>`
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
    idField: { name: 'operatorId', label: 'Their operator_id', type: 'number', value: (v) => Number(v) },
    urlLabel: 'Games API base URL',
    keys: true,
    secrets: [],
    syncGames: true,
  },
  evolution: {
    name: 'Evolution',
    idField: { name: 'casinoKey', label: 'Their casino key', type: 'text', value: (v) => v.trim() },
    urlLabel: 'Evolution host (UA API)',
    keys: false,
    secrets: ['authToken', 'casinoToken'],
    syncGames: false,
  },
  // Betsy's sportsbook: no id of ours with them, the page its frame starts in (its launch), its PARTNER_SECRET.
  betsy: {
    name: 'Betsy',
    idField: null,
    urlField: 'frameUrl',
    urlLabel: 'Frame page (the player is sent there with the session token)',
    keys: false,
    secrets: ['partnerSecret'],
    syncGames: false,
  },
};
const protocolOf = (protocol) =>
  PROTOCOLS[protocol] ?? { name: 'the aggregator', idField: null, urlLabel: 'API base URL', keys: false, secrets: [], syncGames: false };

/** The shared secrets an aggregator gave us (Evolution's tokens): kept sealed, shown by fingerprint only. */
function Secrets({ c, env, names, action, onChange }) {
  const keep = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const minutes = f.overlapMinutes.value === '' ? 0 : Number(f.overlapMinutes.value);
    const name = f.name.value;
    if (minutes === 0 && env.secrets.some((k) => k.name === name && (k.status === 'active' || k.status === 'expiring'))) {
      if (!confirm(`Replace the ${env.environment} ${name} at once? The one in use stops working now.`)) return;
    }
    if (await action.run(() => api('POST', `${c}/secrets`, { name, value: f.value.value.trim(), overlapMinutes: minutes }))) {
      f.reset();
      onChange();
    }
  };
  const revoke = async (k) => {
    if (!confirm(`Revoke the ${k.environment} ${k.name} ${k.fingerprint}… now?`)) return;
    if (await action.run(() => api('POST', `${c}/keys/${encodeURIComponent(k.id)}/revoke`))) onChange();
  };
  return html`<table class="stack connector-secrets"><thead><tr><th>Secret</th><th>Whose</th><th>Fingerprint</th><th>Status</th><th>From</th><th>Stops</th><th></th></tr></thead>
      <tbody>${env.secrets.map(
        (k) => html`<tr data-secret=${k.id} data-name=${k.name} data-status=${k.status}>
          <td data-label="Secret"><code>${k.name}</code></td><td data-label="Whose">${k.owner}</td><td data-label="Fingerprint"><code>${k.fingerprint}</code></td>
          <td data-label="Status">${k.status}</td><td data-label="From">${time(k.startsAt)}</td>
          <td data-label="Stops">${k.revokedAt ? `revoked ${time(k.revokedAt)}` : time(k.expiresAt)}</td>
          <td>${k.status !== 'revoked' && k.status !== 'expired' ? html`<button type="button" class="danger" disabled=${action.busy} onClick=${() => revoke(k)}>Revoke</button>` : null}</td>
        </tr>`,
      )}</tbody></table>
    <form onSubmit=${keep} aria-label="Keep their secret">
      <label>Secret <select name="name">${names.map((n) => html`<option value=${n}>${n}</option>`)}</select></label>
      <label>Value (as they gave it; never shown back) <input name="value" type="password" autocomplete="off" required minlength="8" maxlength="512" /></label>
      <label class="inline">Overlap in minutes (the one in use keeps working that long; 0: at once) <input name="overlapMinutes" type="number" min="0" max="10080" /></label>
      <button type="submit" disabled=${action.busy}>Keep secret</button>
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
      if (!confirm(`Replace their ${env.environment} key at once? Calls signed with the key in use are refused from now on.`)) return;
    }
    if (await action.run(() => api('POST', `${c}/their-keys`, { publicKey: f.publicKey.value.trim(), overlapMinutes: minutes }))) {
      f.reset();
      onChange();
    }
  };
  const rotate = async (e) => {
    e.preventDefault();
    const minutes = e.currentTarget.overlapMinutes.value === '' ? 0 : Number(e.currentTarget.overlapMinutes.value);
    if (
      !confirm(
        `Make a new ${env.environment} key pair of ours? It signs our calls ${minutes === 0 ? 'at once' : `in ${minutes} minutes`}: hand its public key over before.`,
      )
    )
      return;
    if (await action.run(() => api('POST', `${c}/our-keys`, { overlapMinutes: minutes }))) onChange();
  };
  const revoke = async (k) => {
    if (!confirm(`Revoke ${k.owner === 'ours' ? 'our' : 'their'} ${k.environment} key ${k.fingerprint.slice(0, 12)}… now?`)) return;
    if (await action.run(() => api('POST', `${c}/keys/${encodeURIComponent(k.id)}/revoke`))) onChange();
  };
  const sync = async () => {
    const r = await action.run(() => api('POST', `${c}/sync-games`));
    if (r) {
      setSynced(r);
      onChange();
    }
  };
  return html`<section class="connector" aria-label=${`Connector ${env.environment}`} data-environment=${env.environment}>
    <h4>${env.environment}</h4>
    <p>Endpoint URL to hand ${p.name}: <code data-endpoint>${env.endpointUrl}</code></p>
    ${
      p.idField || p.urlField
        ? html`<form class="inline" onSubmit=${saveSettings} aria-label="Connector settings">
      ${p.idField ? html`<label>${p.idField.label} <input name=${p.idField.name} type=${p.idField.type} min="1" required value=${settings[p.idField.name] ?? ''} /></label>` : null}
      <label>${p.urlLabel} <input name=${urlField} type="url" required value=${settings[urlField] ?? ''} placeholder="https://…" /></label>
      <button type="submit" disabled=${action.busy}>Save settings</button>
    </form>`
        : null
    }
    ${p.secrets.length > 0 ? html`<${Secrets} c=${c} env=${env} names=${p.secrets} action=${action} onChange=${onChange} />` : null}
    ${
      p.keys
        ? html`<table class="stack connector-keys"><thead><tr><th>Whose</th><th>Fingerprint</th><th>Status</th><th>From</th><th>Stops</th><th></th></tr></thead>
      <tbody>${env.keys.map(
        (k) => html`<tr data-key=${k.id} data-owner=${k.owner} data-status=${k.status}>
          <td data-label="Whose">${k.owner}</td><td data-label="Fingerprint"><code>${k.fingerprint.slice(0, 16)}…</code></td><td data-label="Status">${k.status}</td>
          <td data-label="From">${time(k.startsAt)}</td><td data-label="Stops">${k.revokedAt ? `revoked ${time(k.revokedAt)}` : time(k.expiresAt)}</td>
          <td>${k.owner === 'ours' && k.status !== 'revoked' && k.status !== 'expired' ? html`<a class="button" download=${`our-public-key-${env.environment}.pem`} href=${pemFile(k.publicKey)}>Download public key</a> ` : null}
            ${k.status !== 'revoked' && k.status !== 'expired' ? html`<button type="button" class="danger" disabled=${action.busy} onClick=${() => revoke(k)}>Revoke</button>` : null}</td>
        </tr>`,
      )}</tbody></table>
    <form onSubmit=${upload} aria-label="Upload their public key">
      <label>Their public key (PEM) <textarea name="publicKey" rows="4" required placeholder="-----BEGIN PUBLIC KEY-----"></textarea></label>
      <label class="inline">Overlap in minutes (their key in use keeps verifying that long; 0: at once) <input name="overlapMinutes" type="number" min="0" max="10080" /></label>
      <button type="submit" disabled=${action.busy}>Upload their key</button>
    </form>
    <form class="inline" onSubmit=${rotate} aria-label="New key pair of ours">
      <label>Overlap in minutes (ours in use keeps signing that long) <input name="overlapMinutes" type="number" min="0" max="10080" /></label>
      <button type="submit" disabled=${action.busy}>New key pair of ours</button>
    </form>`
        : null
    }
    ${
      p.syncGames
        ? html`<div class="actions"><button type="button" disabled=${action.busy} onClick=${sync}>Sync games</button>
      ${synced ? html`<span class="ok" data-synced>${synced.added} added, ${synced.updated} updated, ${synced.disabled} disabled of ${synced.total}</span>` : null}</div>`
        : html`<p><small>${p.name} lists no games for us: add its games below (their code as ${p.name} names them).</small></p>`
    }
    <${Health} health=${env.health} />
    <${ErrorNote} error=${action.error} />
  </section>`;
}

function Connector({ base, provider }) {
  const connector = useLoad(() => api('GET', `${base}/connector`), [base]);
  return html`<section aria-label="Connector">
    <h3>Connector (${provider.protocol})</h3>
    <${Loaded} state=${connector}>${(c) => c.environments.map((env) => html`<${ConnectorEnvironment} key=${env.environment} base=${base} protocol=${c.protocol} env=${env} onChange=${connector.reload} />`)}<//>
  </section>`;
}

/** Provider money (issue #61): what each brand owes or is owed, the day per brand, players' debts and rounds left open. */
function ProviderMoney({ base }) {
  return html`<${Clearing} base=${base} />
    <${DailyReport} base=${base} />
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
    if (next === 'disabled' && !confirm(`Disable ${provider.name}? It takes no new bets; its wins and rollbacks still settle.`)) return;
    if (await toggle.run(() => api('PUT', base, { status: next }))) onChange();
  };
  // Admins change a provider; finance reads its money (issue #61). A card opens on demand: the page stays short.
  const admin = may();
  // The money sections are read once the card is open (a closed card asks nothing).
  const [isOpen, setIsOpen] = useState(open);
  return html`<article class="card" data-provider=${provider.id}>
    <details open=${open} onToggle=${(e) => setIsOpen(e.currentTarget.open)}>
    <summary><h2>${provider.name} <small><code>${provider.id}</code> · ${provider.kind} · protocol <span data-protocol>${provider.protocol}</span> · <strong>${provider.status}</strong> · since ${time(provider.createdAt)}</small></h2></summary>
    ${
      admin
        ? html`<div class="actions"><button type="button" class=${provider.status === 'enabled' ? 'danger' : ''} disabled=${toggle.busy} onClick=${flip}>
      ${provider.status === 'enabled' ? 'Disable' : 'Enable'}</button><${ErrorNote} error=${toggle.error} /></div>
    ${
      native
        ? html`<${Setting} label="Launch URL" name="launchUrl" value=${provider.launchUrl ?? ''} placeholder="none" onSave=${(v) => update({ launchUrl: v || null })} />`
        : null
    }
    <${Setting} label="Launch timeout (ms)" name="launchTimeoutMs" value=${String(provider.launchTimeoutMs)} onSave=${(v) => update({ launchTimeoutMs: Number(v) })} />
    <${Setting} label="Allowed addresses (comma-separated; empty allows all)" name="allowedIps" value=${provider.allowedIps.join(', ')}
      onSave=${(v) => update({ allowedIps: v ? v.split(/[\s,]+/).filter(Boolean) : [] })} />
    <${Setting} label="Open-round limit (minutes)" name="openRoundLimitMinutes" value=${String(provider.openRoundLimitMinutes)}
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
  return html`<form class="inline" onSubmit=${submit} aria-label="New provider">
    <label>New provider <input name="name" required minlength="2" maxlength="200" placeholder="name" /></label>
    <label>Kind <select name="kind"><option value="casino">casino</option><option value="sportsbook">sportsbook</option></select></label>
    <label>Protocol <select name="protocol"><option value="native">native (/provider/v1)</option><option value="hub88">hub88</option><option value="evolution">evolution</option><option value="betsy">betsy</option></select></label>
    <label>Launch URL <input name="launchUrl" type="url" placeholder="https://…" /></label>
    <button type="submit" disabled=${action.busy}>Create</button><${ErrorNote} error=${action.error} />
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
        ? html`<p>No provider yet.</p>`
        : html`<form class="inline" aria-label="Go to a provider" onSubmit=${(e) => e.preventDefault()}>
              <${ProviderPicker} providers=${page.data} value=${chosen} onChange=${pick} />
            </form>
            ${page.data.map(
              (p) =>
                html`<${Provider} key=${p.id} provider=${p} onChange=${list.reload} open=${p.id === chosen || (may() && page.data.length <= OPEN_UP_TO)} />`,
            )}`}<//>
  </div>`;
}
