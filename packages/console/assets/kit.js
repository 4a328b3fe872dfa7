// What every console page shares: htm bound to Preact, the admin API client (session cookie, CSRF
// token and an Idempotency-Key on every change), a loader hook, and small views.
import { h } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import htm from 'htm';

export const html = htm.bind(h);

/** The signed-in person: `{ user: { email, role }, csrfToken }`, set once by the app. */
export const session = { current: undefined };

/** An error of the admin API, with its envelope's code (FORBIDDEN_ROLE, FOUR_EYES_REQUIRED, …). */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.error?.code ?? 'HTTP_ERROR';
    this.details = body?.error?.details;
  }
}

export async function api(method, path, body) {
  const headers = {};
  if (method !== 'GET') {
    headers['x-csrf-token'] = session.current?.csrfToken ?? '';
    headers['idempotency-key'] = crypto.randomUUID();
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  const text = await res.text();
  const data = text ? JSON.parse(text) : undefined;
  if (res.status === 401) location.assign(`/?next=${encodeURIComponent(location.pathname + location.search)}`);
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

export const query = (params) => {
  const q = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ''));
  return q.size ? `?${q}` : '';
};

/** Loads `fn()` now and whenever `deps` change; `reload()` loads again. */
export function useLoad(fn, deps = []) {
  const [state, setState] = useState({ loading: true });
  const load = useCallback(() => {
    setState((s) => ({ ...s, loading: true }));
    fn().then(
      (data) => setState({ data }),
      (error) => setState({ error }),
    );
  }, deps);
  useEffect(load, [load]);
  return { ...state, reload: load };
}

/**
 * A list with one status at a time (buttons, the first is the default or `?status=`) and a cursor
 * that starts over when the status changes; `next(cursor)` opens the following page.
 */
export function useStatusPages(label, statuses) {
  const [status, setStatus] = useState(new URLSearchParams(location.search).get('status') ?? statuses[0]);
  const [cursor, setCursor] = useState(undefined);
  const choose = (s) => {
    setCursor(undefined);
    setStatus(s);
  };
  const tabs = html`<div class="toolbar" role="group" aria-label=${label}>
    ${statuses.map((s) => html`<button type="button" aria-pressed=${s === status} onClick=${() => choose(s)}>${s}</button>`)}
  </div>`;
  return { status, cursor, tabs, next: setCursor };
}

/** Runs an action, showing its error (the envelope's code and message) until the next try. */
export function useAction() {
  const [state, setState] = useState({});
  const run = async (fn) => {
    setState({ busy: true });
    try {
      const result = await fn();
      setState({ done: true });
      return result;
    } catch (error) {
      setState({ error });
      return undefined;
    }
  };
  return { ...state, run };
}

/** What is handed over once (a one-time password, a token's secret): copied now, never shown again. */
export function ShownOnce({ shown }) {
  return html`<div class="secrets" role="alert" data-shown-once=${shown.kind}>
    <p>${shown.what}. Copy it now: it is not shown again.${shown.kind === 'password' ? ' It is good for one sign-in, where its person chooses their own password.' : ''}</p>
    <p><code class="secret">${shown.secret}</code></p>
  </div>`;
}

export const ErrorNote = ({ error }) => (error ? html`<p class="error" role="alert"><code>${error.code ?? 'ERROR'}</code> ${error.message}</p>` : null);

/** What `useLoad` loaded, given to `children` (`undefined` too: a loader may have nothing to load); "Loading…" until then. */
export function Loaded({ state, children }) {
  if (state.error) return html`<${ErrorNote} error=${state.error} />`;
  if (state.loading && state.data === undefined) return html`<p class="muted">Loading…</p>`;
  return children(state.data);
}

/**
 * A KYC document reference as the operator sent it: a link only when it is an https URL (opened
 * without handing over this page), text otherwise (`s3://…`, a file name, anything else).
 */
export function Reference({ value }) {
  let url;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:') return html`<code>${value}</code>`;
  return html`<a href=${url.href} target="_blank" rel="noopener noreferrer"><code>${value}</code></a>`;
}

// The operators' names, read once per page load (every role may list operators).
let operatorNames;
function useOperatorNames() {
  operatorNames ??= api('GET', '/admin/operators').then(
    (page) => new Map(page.data.map((o) => [o.id, o.name])),
    () => new Map(),
  );
  const [names, setNames] = useState(undefined);
  useEffect(() => {
    operatorNames.then(setNames);
  }, []);
  return names;
}

/**
 * A player's (or a withdrawal's) operator and brand by name, with the brand's environment: an
 * operator's production brand bears its name, its sandbox brand the name and `(sandbox)`. The ids
 * stay in the tooltip; shown as ids until the names are known.
 */
export function OperatorBrand({ player }) {
  const name = useOperatorNames()?.get(player.operatorId);
  const brand =
    name === undefined ? `${player.brandId} (${player.environment})` : player.environment === 'sandbox' ? `${name} (sandbox)` : `${name} (production)`;
  return html`<span class="owner" title=${`${player.operatorId} / ${player.brandId}`}>${name ?? player.operatorId} / ${brand}</span>`;
}

export const time = (iso) => (iso ? `${new Date(iso).toLocaleString('en-GB', { dateStyle: 'short', timeStyle: 'medium', timeZone: 'UTC' })} UTC` : '—');

const ZONE_NAMES = { 'America/Sao_Paulo': 'Brasília' };
/** A time in a brand's time zone (Brasília for br-spa), with the UTC time on hover. */
export function ZonedTime({ iso, zone }) {
  if (!iso) return html`<span>—</span>`;
  const local = new Date(iso).toLocaleString('en-GB', { dateStyle: 'short', timeStyle: 'short', timeZone: zone });
  return html`<time datetime=${iso} title=${time(iso)}>${local} ${ZONE_NAMES[zone] ?? zone}</time>`;
}

/** How long ago, in the largest whole unit (days, hours, minutes). */
export function age(iso, now = Date.now()) {
  const minutes = Math.max(0, Math.floor((now - new Date(iso).getTime()) / 60_000));
  if (minutes >= 2 * 24 * 60) return `${Math.floor(minutes / (24 * 60))} days`;
  if (minutes >= 120) return `${Math.floor(minutes / 60)} h`;
  return `${minutes} min`;
}
export const money = (amount, currency) => `${amount} ${currency ?? ''}`.trim();
/** How the audit log and approvals name the signed-in person. */
export const me = () => `user:${session.current?.user.email}`;
export const may = (...roles) => roles.includes(session.current?.user.role) || session.current?.user.role === 'admin';
