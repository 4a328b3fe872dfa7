// Operators: the list for everyone on the team; for admin, create (the secrets are shown once),
// suspend and resume, allowed IPs, rate limit, webhook URLs per environment and the four-eyes
// threshold of withdrawals.
import { useState } from 'preact/hooks';
import { html, api, useLoad, useAction, Loaded, ErrorNote, time, may } from './kit.js';

function Field({ label, name, value, onSave, placeholder }) {
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

function Created({ created }) {
  const row = (env) =>
    html`<tr><th>${env}</th><td><code>${created[env].brandId}</code></td><td><code>${created[env].key}</code></td><td><code>${created[env].secret}</code></td><td><code>${created[env].webhookSecret}</code></td></tr>`;
  return html`<div class="secrets" role="alert">
    <p><strong>${created.operator.name}</strong> (<code>${created.operator.id}</code>) is created. Copy the secrets now: they are not shown again.</p>
    <table><thead><tr><th></th><th>Brand</th><th>Key</th><th>Secret</th><th>Webhook secret</th></tr></thead><tbody>${row('sandbox')}${row('production')}</tbody></table>
  </div>`;
}

function Operator({ op, onChange }) {
  const path = `/admin/operators/${encodeURIComponent(op.id)}`;
  const save = (fn) => async (v) => {
    await fn(v);
    onChange();
  };
  const fourEyes = useLoad(() => api('GET', `${path}/four-eyes`), [op.id]);
  const toggle = useAction();
  const admin = may();
  return html`<article class="card" data-operator=${op.id}>
    <h2>${op.name} <small><code>${op.id}</code> · <strong>${op.status}</strong> · since ${time(op.createdAt)}</small></h2>
    ${
      admin
        ? html`<div class="actions"><button type="button" class=${op.status === 'active' ? 'danger' : ''} disabled=${toggle.busy}
            onClick=${() => toggle.run(() => api('POST', `${path}/${op.status === 'active' ? 'suspend' : 'resume'}`)).then((r) => r && onChange())}>${op.status === 'active' ? 'Suspend' : 'Resume'}</button>
            <${ErrorNote} error=${toggle.error} /></div>
          <${Field} label="Allowed IPs (comma-separated; empty allows all)" name="ips" value=${op.allowedIps.join(', ')}
            onSave=${save((v) => api('PUT', `${path}/allowed-ips`, { ips: v ? v.split(/[\s,]+/).filter(Boolean) : [] }))} />
          <${Field} label="Rate limit per minute" name="perMinute" value=${String(op.rateLimitPerMinute)} onSave=${save((v) => api('PUT', `${path}/rate-limit`, { perMinute: Number(v) }))} />
          ${['sandbox', 'production'].map(
            (env) => html`<${Field} label=${`Webhook URL (${env})`} name="url" value=${op.webhookUrls[env] ?? ''} placeholder="none"
              onSave=${save((v) => api('PUT', `${path}/webhooks/${env}`, { url: v || null }))} />`,
          )}
          <${Loaded} state=${fourEyes}>${(f) => html`<${Field} label="Four eyes from amount (0.00: every withdrawal)" name="minAmount" value=${f.minAmount}
            onSave=${(v) => api('PUT', `${path}/four-eyes`, { minAmount: v }).then(fourEyes.reload)} />`}<//>`
        : html`<dl class="profile">
            <dt>Allowed IPs</dt><dd>${op.allowedIps.join(', ') || 'any'}</dd><dt>Rate limit</dt><dd>${op.rateLimitPerMinute} / min</dd>
            <dt>Webhook (sandbox)</dt><dd>${op.webhookUrls.sandbox ?? '—'}</dd><dt>Webhook (production)</dt><dd>${op.webhookUrls.production ?? '—'}</dd>
            <dt>Four eyes from</dt><dd><${Loaded} state=${fourEyes}>${(f) => f.minAmount}<//></dd>
          </dl>`
    }
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
  return html`<form class="inline" onSubmit=${submit} aria-label="New operator">
    <label>New operator <input name="name" required minlength="2" maxlength="200" placeholder="name" /></label>
    <button type="submit" disabled=${action.busy}>Create</button><${ErrorNote} error=${action.error} />
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
