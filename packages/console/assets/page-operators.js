// Operators: the list for everyone on the team, with each operator's API keys (prefix, status,
// expiry); for admin, create (the secrets are shown once), suspend and resume, allowed IPs, rate
// limit, webhook URLs per environment, the four-eyes threshold of withdrawals, the automatic approval amount of br-spa withdrawals (the prize clock), the compliance profile (off, br-spa), and key rotation
// (the new secret shown once) and revocation, each after a confirmation. The compliance profile is
// changed with a reason; turning br-spa off is requested by one person and confirmed (or cancelled)
// by another, admin or compliance (issue #56).
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, useAction, Loaded, ErrorNote, time, may, me, label, say, money, person, ZonedTime } from './kit.js';

function Field({ label, name, value, onSave, placeholder }) {
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

function Created({ created }) {
  const row = (env) =>
    html`<tr><th>${label(env)}</th><td><code>${created[env].brandId}</code></td><td><code>${created[env].key}</code></td><td><code>${created[env].secret}</code></td><td><code>${created[env].webhookSecret}</code></td></tr>`;
  return html`<div class="secrets" role="alert">
    <p><strong>${created.operator.name}</strong> (<code>${created.operator.id}</code>) ${say(
      'foi criado. Copie os segredos agora: eles não são mostrados de novo.',
      'is created. Copy the secrets now: they are not shown again.',
    )}</p>
    <table><thead><tr><th></th><th>${say('Marca', 'Brand')}</th><th>${say('Chave', 'Key')}</th><th>${say('Segredo', 'Secret')}</th><th>${say('Segredo do webhook', 'Webhook secret')}</th></tr></thead><tbody>${row('sandbox')}${row('production')}</tbody></table>
  </div>`;
}

function IssuedKey({ issued }) {
  return html`<div class="secrets" role="alert">
    <p>${say('Uma nova chave de', 'A new')} <strong>${label(issued.environment)}</strong> ${say(
      'foi emitida. Copie o segredo agora: ele não é mostrado de novo.',
      'key is issued. Copy the secret now: it is not shown again.',
    )}
      ${
        issued.replaced.length
          ? say(
              ` As chaves que ela substitui param em ${time(issued.replaced[0].expiresAt)}.`,
              ` The keys it replaces stop at ${time(issued.replaced[0].expiresAt)}.`,
            )
          : ''
      }</p>
    <table><thead><tr><th>${say('Chave', 'Key')}</th><th>${say('Segredo', 'Secret')}</th></tr></thead>
      <tbody><tr><td><code>${issued.key}</code></td><td><code class="secret">${issued.secret}</code></td></tr></tbody></table>
  </div>`;
}

/** The operator's keys; admin rotates an environment's key (with an overlap) or revokes one at once. */
function Keys({ operatorId, admin }) {
  const path = `/admin/operators/${encodeURIComponent(operatorId)}/credentials`;
  const list = useLoad(() => api('GET', path), [operatorId]);
  const [issued, setIssued] = useState(undefined);
  const [overlap, setOverlap] = useState('1440');
  const action = useAction();
  const rotate = async (env) => {
    const minutes = Number(overlap);
    const when = minutes === 0 ? say('imediatamente', 'at once') : say(`em ${minutes} minutos`, `in ${minutes} minutes`);
    const env_ = label(env);
    if (
      !confirm(
        say(
          `Emitir uma nova chave de ${env_}? As chaves de ${env_} em uso param ${when}.`,
          `Issue a new ${env} key? The ${env} keys in use stop working ${when}.`,
        ),
      )
    )
      return;
    const rotated = await action.run(() => api('POST', `${path}/${env}/rotate`, { overlapMinutes: minutes }));
    if (rotated) {
      setIssued(rotated);
      list.reload();
    }
  };
  const revoke = async (key) => {
    const question = say(
      `Revogar agora a chave de ${label(key.environment)} ${key.keyPrefix}…? Toda requisição assinada com ela é recusada a partir de agora.`,
      `Revoke the ${key.environment} key ${key.keyPrefix}… now? Every request signed with it is refused from now on.`,
    );
    if (!confirm(question)) return;
    if (await action.run(() => api('POST', `${path}/${encodeURIComponent(key.id)}/revoke`))) list.reload();
  };
  return html`<section class="keys" aria-label=${say('Chaves de API', 'API keys')}>
    <h3>${say('Chaves de API', 'API keys')}</h3>
    ${issued ? html`<${IssuedKey} issued=${issued} />` : null}
    <${Loaded} state=${list}>${(page) => html`<table class="stack keys">
      <thead><tr><th>${say('Ambiente', 'Environment')}</th><th>${say('Chave', 'Key')}</th><th>${say('Situação', 'Status')}</th><th>${say('Criada', 'Created')}</th><th>${say('Para', 'Stops')}</th>${admin ? html`<th></th>` : null}</tr></thead>
      <tbody>${page.data.map(
        (k) => html`<tr data-credential=${k.id} data-status=${k.status}>
          <td data-label=${say('Ambiente', 'Environment')}>${label(k.environment)}</td><td data-label=${say('Chave', 'Key')}><code>${k.keyPrefix}…</code></td><td data-label=${say('Situação', 'Status')}>${label(k.status)}</td><td data-label=${say('Criada', 'Created')}><${ZonedTime} iso=${k.createdAt} /></td>
          <td data-label=${say('Para', 'Stops')}>${k.revokedAt ? html`${say('revogada', 'revoked')} <${ZonedTime} iso=${k.revokedAt} />` : html`<${ZonedTime} iso=${k.expiresAt} />`}</td>
          ${admin ? html`<td>${k.status === 'active' || k.status === 'expiring' ? html`<button type="button" class="danger" disabled=${action.busy} onClick=${() => revoke(k)}>${say('Revogar', 'Revoke')}</button>` : null}</td>` : null}
        </tr>`,
      )}</tbody>
    </table>`}<//>
    ${
      admin
        ? html`<div class="actions">
            <label class="inline">${say('Sobreposição em minutos (0: as chaves em uso param imediatamente)', 'Overlap in minutes (0: the keys in use stop at once)')}
              <input name="overlapMinutes" type="number" min="0" max="10080" value=${overlap} onInput=${(e) => setOverlap(e.currentTarget.value)} /></label>
            ${['sandbox', 'production'].map(
              (env) =>
                html`<button type="button" disabled=${action.busy} onClick=${() => rotate(env)}>${say(`Trocar a chave de ${label(env)}`, `Rotate ${env} key`)}</button>`,
            )}
          </div>`
        : null
    }
    <${ErrorNote} error=${action.error} />
  </section>`;
}

/** A change that waits for a second person: who asked, why, until when; confirm or cancel it, with a reason (never your own). */
function PendingChange({ change, onDone }) {
  const [reason, setReason] = useState('');
  const action = useAction();
  const mine = change.requestedBy === me();
  const decide = async (step) => {
    const question = say(
      'Confirmar o desligamento das regras br-spa? Todas as regras brasileiras param agora para este operador.',
      'Confirm turning the br-spa rules off? Every Brazilian rule stops for this operator now.',
    );
    if (step === 'confirm' && !confirm(question)) return;
    const path = `/admin/operators/${encodeURIComponent(change.operatorId)}/compliance/changes/${encodeURIComponent(change.id)}/${step}`;
    if (await action.run(() => api('POST', path, { reason: reason.trim() }))) onDone();
  };
  return html`<div class="notice" role="status" data-change=${change.id}>
    <p>${say(
      html`<strong>O desligamento das regras br-spa</strong> foi pedido por ${person(change.requestedBy)} em <${ZonedTime} iso=${change.requestedAt} />: “${change.reason}”. Aguarda uma segunda pessoa até <${ZonedTime} iso=${change.expiresAt} />.`,
      html`<strong>Turning the br-spa rules off</strong> was requested by ${person(change.requestedBy)} <${ZonedTime} iso=${change.requestedAt} />: “${change.reason}”. It waits for a second person until <${ZonedTime} iso=${change.expiresAt} />.`,
    )}</p>
    ${
      may('compliance')
        ? html`<div class="inline" role="group" aria-label=${say('Decidir a mudança', 'Decide the change')}>
            <label>${say('Motivo', 'Reason')} <input name="decisionReason" minlength="3" maxlength="500" value=${reason} onInput=${(e) => setReason(e.currentTarget.value)} /></label>
            <button type="button" class="danger" disabled=${mine || action.busy || reason.trim().length < 3} onClick=${() => decide('confirm')}>${say('Confirmar', 'Confirm')}</button>
            <button type="button" disabled=${action.busy || reason.trim().length < 3} onClick=${() => decide('cancel')}>${say('Cancelar o pedido', 'Cancel it')}</button>
            ${mine ? html`<span class="muted" data-reason="four-eyes">${say('Você pediu: outra pessoa confirma.', 'You requested it: another person confirms it.')}</span>` : null}
          </div>`
        : null
    }
    <${ErrorNote} error=${action.error} />
  </div>`;
}

/**
 * The operator's compliance profile for everyone; for admin, a change with its reason (turning
 * br-spa off is a request for a second person); the change waiting for one, for admin and compliance.
 */
function Compliance({ operatorId, admin }) {
  const path = `/admin/operators/${encodeURIComponent(operatorId)}/compliance`;
  const current = useLoad(() => api('GET', path), [operatorId]);
  const pending = useLoad(() => api('GET', `/admin/compliance-changes${query({ operatorId, status: 'pending' })}`), [operatorId]);
  const action = useAction();
  const reload = () => {
    current.reload();
    pending.reload();
  };
  const submit = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const body = { profile: f.profile.value, reason: f.reason.value.trim() };
    const off = current.data?.profile === 'br-spa' && body.profile === 'off';
    const question = say(
      'Desligar as regras br-spa encerra todas as regras brasileiras deste operador. Pedir? Uma segunda pessoa confirma.',
      'Turning the br-spa rules off stops every Brazilian rule for this operator. Request it? A second person confirms it.',
    );
    if (off && !confirm(question)) return;
    if (await action.run(() => (off ? api('POST', `${path}/changes`, body) : api('PUT', path, body)))) {
      f.reason.value = '';
      reload();
    }
  };
  return html`<section class="compliance" aria-label=${say('Perfil de compliance', 'Compliance profile')}>
    <h3>${say('Perfil de compliance', 'Compliance profile')}</h3>
    <${Loaded} state=${current}>${(c) =>
      html`<p>${say('Perfil', 'Profile')} <strong data-profile=${c.profile}>${label(c.profile)}</strong> (${say('períodos em', 'periods in')} ${c.timeZone})${
        c.updatedBy ? html`<span class="muted">, ${say('definido por', 'set by')} ${person(c.updatedBy)} <${ZonedTime} iso=${c.updatedAt} /></span>` : null
      }</p>`}<//>
    <${Loaded} state=${pending}>${(p) => p.data.map((c) => html`<${PendingChange} key=${c.id} change=${c} onDone=${reload} />`)}<//>
    ${
      admin
        ? html`<${Loaded} state=${current}>${(
            c,
          ) => html`<form class="inline" onSubmit=${submit} aria-label=${say('Mudar o perfil de compliance', 'Change the compliance profile')}>
            <label>${say('Perfil', 'Profile')} <select name="profile">${['off', 'br-spa'].map((v) => html`<option value=${v} selected=${v === c.profile}>${label(v)}</option>`)}</select></label>
            <label>${say('Motivo', 'Reason')} <input name="reason" required minlength="3" maxlength="500" /></label>
            <button type="submit" disabled=${action.busy}>${say('Salvar', 'Save')}</button>${action.done ? html`<span class="ok">${say('salvo', 'saved')}</span>` : null}
            <${ErrorNote} error=${action.error} />
          </form>`}<//>`
        : null
    }
  </section>`;
}

function Operator({ op, onChange }) {
  const path = `/admin/operators/${encodeURIComponent(op.id)}`;
  const save = (fn) => async (v) => {
    await fn(v);
    onChange();
  };
  const fourEyes = useLoad(() => api('GET', `${path}/four-eyes`), [op.id]);
  const autoApproval = useLoad(() => api('GET', `${path}/auto-approval`), [op.id]);
  const toggle = useAction();
  const admin = may();
  return html`<article class="card" id=${op.id} data-operator=${op.id}>
    <h2>${op.name} <small><code>${op.id}</code> · <strong data-status=${op.status}>${label(op.status)}</strong> · ${say('desde', 'since')} <${ZonedTime} iso=${op.createdAt} /></small></h2>
    ${
      admin
        ? html`<div class="actions"><button type="button" class=${op.status === 'active' ? 'danger' : ''} disabled=${toggle.busy}
            onClick=${() => toggle.run(() => api('POST', `${path}/${op.status === 'active' ? 'suspend' : 'resume'}`)).then((r) => r && onChange())}>${op.status === 'active' ? say('Suspender', 'Suspend') : say('Reativar', 'Resume')}</button>
            <${ErrorNote} error=${toggle.error} /></div>
          <${Field} label=${say('IPs permitidos (separados por vírgula; vazio permite todos)', 'Allowed IPs (comma-separated; empty allows all)')} name="ips" value=${op.allowedIps.join(', ')}
            onSave=${save((v) => api('PUT', `${path}/allowed-ips`, { ips: v ? v.split(/[\s,]+/).filter(Boolean) : [] }))} />
          <${Field} label=${say('Limite de requisições por minuto', 'Rate limit per minute')} name="perMinute" value=${String(op.rateLimitPerMinute)} onSave=${save((v) => api('PUT', `${path}/rate-limit`, { perMinute: Number(v) }))} />
          ${['sandbox', 'production'].map(
            (
              env,
            ) => html`<${Field} label=${say(`URL do webhook — ${label(env)}`, `Webhook URL (${env})`)} name="url" value=${op.webhookUrls[env] ?? ''} placeholder=${say('nenhuma', 'none')}
              onSave=${save((v) => api('PUT', `${path}/webhooks/${env}`, { url: v || null }))} />`,
          )}
          <${Loaded} state=${fourEyes}>${(
            f,
          ) => html`<${Field} label=${say(`Quatro olhos a partir do valor (${money('0.00')}: todo saque)`, `Four eyes from amount (${money('0.00')}: every withdrawal)`)} name="minAmount" value=${f.minAmount}
            onSave=${(v) => api('PUT', `${path}/four-eyes`, { minAmount: v }).then(fourEyes.reload)} />`}<//>
          <${Loaded} state=${autoApproval}>${(
            a,
          ) => html`<${Field} label=${say('Aprovar e pagar saques br-spa abaixo de (vazio: desligado, uma pessoa decide cada um)', 'Approve and pay br-spa withdrawals below (empty: off, a person decides every one)')} name="belowAmount"
            value=${a.belowAmount ?? ''} placeholder=${say('desligado', 'off')} onSave=${(v) => api('PUT', `${path}/auto-approval`, { belowAmount: v.trim() || null }).then(autoApproval.reload)} />`}<//>`
        : html`<dl class="profile">
            <dt>${say('IPs permitidos', 'Allowed IPs')}</dt><dd>${op.allowedIps.join(', ') || say('qualquer um', 'any')}</dd><dt>${say('Limite de requisições', 'Rate limit')}</dt><dd>${op.rateLimitPerMinute} / min</dd>
            <dt>Webhook (${label('sandbox')})</dt><dd>${op.webhookUrls.sandbox ?? '—'}</dd><dt>Webhook (${label('production')})</dt><dd>${op.webhookUrls.production ?? '—'}</dd>
            <dt>${say('Quatro olhos a partir de', 'Four eyes from')}</dt><dd><${Loaded} state=${fourEyes}>${(f) => money(f.minAmount)}<//></dd>
            <dt>${say('Aprovação automática abaixo de', 'Automatic approval below')}</dt><dd><${Loaded} state=${autoApproval}>${(a) => (a.belowAmount ? money(a.belowAmount) : label('off'))}<//></dd>
          </dl>`
    }
    <${Compliance} operatorId=${op.id} admin=${admin} />
    <${Keys} operatorId=${op.id} admin=${admin} />
  </article>`;
}

function CreateOperator({ onCreated }) {
  const action = useAction();
  const submit = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const created = await action.run(() => api('POST', '/admin/operators', { name: f.name.value.trim() }));
    if (created) {
      f.reset();
      onCreated(created);
    }
  };
  return html`<form class="inline" onSubmit=${submit} aria-label=${say('Novo operador', 'New operator')}>
    <label>${say('Novo operador', 'New operator')} <input name="name" required minlength="2" maxlength="200" placeholder=${say('nome', 'name')} /></label>
    <button type="submit" disabled=${action.busy}>${say('Criar', 'Create')}</button><${ErrorNote} error=${action.error} />
  </form>`;
}

export function OperatorsPage() {
  const list = useLoad(() => api('GET', '/admin/operators'));
  const [created, setCreated] = useState(undefined);
  return html`<div>
    ${
      may()
        ? html`<${CreateOperator} onCreated=${(c) => {
            setCreated(c);
            list.reload();
          }} />`
        : null
    }
    ${created ? html`<${Created} created=${created} />` : null}
    <${Loaded} state=${list}>${(page) => page.data.map((op) => html`<${Operator} key=${op.id} op=${op} onChange=${list.reload} />`)}<//>
  </div>`;
}
