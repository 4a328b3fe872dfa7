// What every console page shares: htm bound to Preact, the admin API client (session cookie, CSRF
// token and an Idempotency-Key on every change), a loader hook, and small views. The words and the
// formatters are language.js's (re-exported here for the pages); the session is session.js's.
import { h } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { session } from './session.js';
import { DEFAULT_ZONE, brandName, day, label, say, time, utcTime } from './language.js';

export const html = htm.bind(h);
export { session };

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
  // Only the latest load's answer is shown: an earlier, slower one (a filter changed meanwhile) is dropped.
  const latest = useRef(0);
  // A reload asked for by an older render (an action that finished after the filter changed) loads what is shown now.
  const current = useRef(fn);
  current.current = fn;
  const load = useCallback(() => {
    const mine = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    current.current().then(
      (data) => mine === latest.current && setState({ data }),
      (error) => mine === latest.current && setState({ error }),
    );
  }, deps);
  useEffect(load, [load]);
  return { ...state, reload: load };
}

/**
 * A list with one status at a time (buttons, the first is the default or `?status=`) and a cursor
 * that starts over when the status changes; `next(cursor)` opens the following page.
 */
export function useStatusPages(groupLabel, statuses) {
  const [status, setStatus] = useState(new URLSearchParams(location.search).get('status') ?? statuses[0]);
  const [cursor, setCursor] = useState(undefined);
  const choose = (s) => {
    setCursor(undefined);
    setStatus(s);
  };
  // Each status in the person's language; the code stays on the button for scripts (data-status).
  const tabs = html`<div class="toolbar" role="group" aria-label=${groupLabel}>
    ${statuses.map((s) => html`<button type="button" aria-pressed=${s === status} data-status=${s} onClick=${() => choose(s)}>${label(s)}</button>`)}
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
    <p>${shown.what}. ${say('Copie agora: não é mostrado de novo.', 'Copy it now: it is not shown again.')}${
      shown.kind === 'password'
        ? say(' Vale para um login, no qual a pessoa escolhe a própria senha.', ' It is good for one sign-in, where its person chooses their own password.')
        : ''
    }</p>
    <p><code class="secret">${shown.secret}</code></p>
  </div>`;
}

/**
 * An explanation as a person reads it (issue #61): no API path or docs file name in it (the API's
 * messages name them for developers), and each ISO time in the default zone, the UTC time on hover.
 */
export function plain(text) {
  if (!text) return text;
  const cleaned = String(text)
    .replace(/\s*\((?:POST|PUT|GET|DELETE|PATCH) \/[^)]*\)/g, '')
    .replace(/\s*\([^)]*(?:docs\/|\.md\b)[^)]*\)/g, '')
    .replace(/\s*\b(?:POST|PUT|GET|DELETE|PATCH) \/\S+/g, '');
  const parts = cleaned.split(/(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)/);
  return parts.length === 1 ? cleaned : parts.map((p, i) => (i % 2 === 1 ? html`<${ZonedTime} iso=${p} />` : p));
}

/**
 * A refusal: its code and message, and what each field was refused for in the rules' own words (as the
 * API wrote them), after the field's name when the form names it (`fieldLabel(path)`).
 */
/**
 * What a rule or a marker saw (evidence-words.js): its sentence in the person's language, a list's own
 * entry quoted as written; or, for a record whose figures cannot be read, the service's sentence marked
 * as English and as written.
 */
export const SawWords = ({ words }) =>
  words.verbatim !== undefined
    ? html`<q data-verbatim lang="en" title=${say('como o serviço o escreveu', 'as the service wrote it')}>${words.verbatim}</q>`
    : html`<span data-saw>${words.text}${words.quoted ? html`: <q data-verbatim>${words.quoted}</q>` : null}</span>`;

export const ErrorNote = ({ error, fieldLabel }) => {
  if (!error) return null;
  const issues = Array.isArray(error.details?.issues) ? error.details.issues.filter((i) => i?.message) : [];
  return html`<p class="error" role="alert"><code>${error.code ?? 'ERROR'}</code> ${plain(error.message)}${issues.map(
    (i) => html` ${fieldLabel ? `${fieldLabel(i.path)}: ` : ''}<q data-verbatim lang="en">${plain(i.message)}</q>.`,
  )}</p>`;
};

/** What `useLoad` loaded, given to `children` (`undefined` too: a loader may have nothing to load); "Loading…" until then. */
export function Loaded({ state, children }) {
  if (state.error) return html`<${ErrorNote} error=${state.error} />`;
  if (state.loading && state.data === undefined) return html`<p class="muted" data-loading>${say('Carregando…', 'Loading…')}</p>`;
  return children(state.data);
}

/**
 * A KYC document as the operator refers to it (we never hold the document): "open the document", a
 * link, when the reference is an https URL (opened without handing over this page); otherwise the
 * reference as text, said to be the operator's (`s3://…`, a file name, anything else).
 */
export function Reference({ value }) {
  let url;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:') return html`<span class="muted">${say('no arquivo do operador:', "in the operator's files:")}</span> <code>${value}</code>`;
  return html`<a href=${url.href} target="_blank" rel="noopener noreferrer" title=${value}>${say('abrir o documento', 'open the document')}</a>`;
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
 * A player's (or a withdrawal's) operator and brand by name: an operator's production brand bears its
 * name, its sandbox brand the name and `(Sandbox)`, with the sandbox mark. The ids stay in the tooltip;
 * "…" until the names are known.
 */
export function OperatorBrand({ player }) {
  const name = useOperatorNames()?.get(player.operatorId);
  // Until the names are in: a placeholder, never the ids (they stay in the tooltip).
  if (name === undefined) return html`<span class="owner" title=${`${player.operatorId} / ${player.brandId}`}>…</span>`;
  // The brand bears its operator's name: "Rio Bets", its sandbox brand marked Sandbox (said once, issue #70).
  return html`<span class="owner" title=${`${player.operatorId} / ${player.brandId}`}>${name}</span> <${EnvMark} environment=${player.environment} />`;
}

/** An operator by name, its id on hover (the id until the names are in, and for an operator not listed). */
export function OperatorName({ operatorId }) {
  const names = useOperatorNames();
  const name = names?.get(operatorId);
  return html`<span class="owner" title=${operatorId} data-operator-name=${operatorId}>${name ?? (names ? operatorId : '…')}</span>`;
}

/** A calendar day as an element: the locale's date, the ISO day kept in `datetime`. */
export const Day = ({ date }) => html`<time datetime=${date}>${day(date)}</time>`;

/** A time in a brand's time zone (Brasília for br-spa), with the UTC time on hover. */
export function ZonedTime({ iso, zone = DEFAULT_ZONE }) {
  if (!iso) return html`<span>—</span>`;
  return html`<time datetime=${iso} title=${utcTime(iso)}>${time(iso, zone)}</time>`;
}

// Each operator's time zone (its compliance profile), read once per page load and operator.
const zones = new Map();
/** The zone of an operator's brands, once known (the default until then). */
export function useZone(operatorId) {
  const [zone, setZone] = useState(operatorId ? zones.get(operatorId)?.value : undefined);
  useEffect(() => {
    if (!operatorId) return;
    let entry = zones.get(operatorId);
    if (!entry) {
      entry = {
        promise: api('GET', `/admin/operators/${encodeURIComponent(operatorId)}/compliance`).then(
          (c) => c.timeZone,
          () => DEFAULT_ZONE,
        ),
      };
      entry.promise.then((z) => {
        entry.value = z;
      });
      zones.set(operatorId, entry);
    }
    entry.promise.then(setZone);
  }, [operatorId]);
  return zone ?? DEFAULT_ZONE;
}

/** A time in the zone of `operatorId`'s brands, the UTC time on hover. */
export function When({ iso, operatorId, zone }) {
  const known = useZone(zone ? undefined : operatorId);
  return html`<${ZonedTime} iso=${iso} zone=${zone ?? known} />`;
}

/**
 * Production apart from the sandbox (issue #61): the environment a list shows, production unless the
 * address says `environment=sandbox`, and the switch that changes it, always in view.
 */
export function useEnvironment() {
  const [environment, setEnvironment] = useState(new URLSearchParams(location.search).get('environment') === 'sandbox' ? 'sandbox' : 'production');
  const choose = (env) => {
    const params = new URLSearchParams(location.search);
    if (env === 'production') params.delete('environment');
    else params.set('environment', env);
    params.delete('cursor');
    history.replaceState(null, '', `${location.pathname}${params.size ? `?${params}` : ''}`);
    setEnvironment(env);
  };
  const toggle = html`<div class="env-switch" role="group" aria-label=${say('Ambiente', 'Environment')} data-environment=${environment}>
    ${['production', 'sandbox'].map(
      (env) => html`<button type="button" aria-pressed=${env === environment} data-env=${env} onClick=${() => choose(env)}>${label(env)}</button>`,
    )}
  </div>`;
  return { environment, toggle, choose };
}

/** A sandbox item, marked on its row wherever it is listed. */
export const EnvMark = ({ environment }) =>
  environment === 'sandbox'
    ? html`<span class="env-mark" data-env-mark="sandbox" title=${say('Dados de teste, sem dinheiro real', 'Test data, no real money')}>${label('sandbox')}</span>`
    : null;

/** How long ago, in the largest whole unit (days, hours, minutes). */
export function age(iso, now = Date.now()) {
  const minutes = Math.max(0, Math.floor((now - new Date(iso).getTime()) / 60_000));
  if (minutes >= 2 * 24 * 60) return `${Math.floor(minutes / (24 * 60))} ${say('dias', 'days')}`;
  if (minutes >= 120) return `${Math.floor(minutes / 60)} h`;
  return `${minutes} min`;
}

// Every operator's brands, read once per page load (everyone on the team may list them): names for
// brand ids, and the brand picker's choices.
let brandList;
export function useBrands() {
  brandList ??= api('GET', '/admin/brands').then(
    (page) => page.data,
    () => [],
  );
  const [brands, setBrands] = useState(undefined);
  useEffect(() => {
    brandList.then(setBrands);
  }, []);
  return brands;
}
/** A brand as people read it: its operator's name and its environment (the id on hover). */
export const brandTitle = (b) => brandName(b.operatorName, b.environment);
/** A brand id shown by its operator's name, a sandbox brand marked; an id that is no brand of ours is said to be so. */
export function BrandName({ brandId }) {
  const brands = useBrands();
  const b = brands?.find((x) => x.id === brandId);
  if (!brands) return html`<span class="owner" title=${brandId}>…</span>`;
  if (!b)
    return html`<span class="owner unknown" title=${brandId} data-unknown-brand>${say('Marca desconhecida', 'No brand of ours')} <code>${brandId}</code></span>`;
  return html`<span class="owner" title=${brandId} data-brand=${brandId}>${b.operatorName}</span>${b.environment === 'sandbox' ? html` <${EnvMark} environment=${b.environment} />` : null}`;
}
export {
  money,
  signedMoney,
  label,
  say,
  percent,
  count,
  decimalShown,
  decimalTyped,
  time,
  utcTime,
  day,
  monthName,
  zoneName,
  DEFAULT_ZONE,
  cpf,
  cnpj,
  brandName,
  phone,
  person,
  locale,
  language,
} from './language.js';
/** How the audit log and approvals name the signed-in person (compared with the API's, never shown: person() is). */
export const me = () => `user:${session.current?.user.email}`;
export const may = (...roles) => roles.includes(session.current?.user.role) || session.current?.user.role === 'admin';
