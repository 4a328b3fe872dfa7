// Pick, never type, an id (issue #61): searchable pickers of a brand, an operator, a player (by name,
// CPF, e-mail or externalId) and a provider. Each shows names; the id is on hover and in the chosen
// line; a form reads the chosen id from the hidden input named `name`. Typing narrows the choices
// (the brands, operators and providers of the lists read once; players asked of the admin API's
// search as one types), and only a choice from the list is taken.
import { useEffect, useState } from 'preact/hooks';
import { html, api, query, useBrands, brandTitle, label, say } from './kit.js';

const MAX_SHOWN = 8;
const norm = (s) =>
  String(s ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/**
 * A combobox: a search box, the matching choices (each a button), and the hidden input the form reads.
 * `options`: [{ id, title, detail }]; `search(text)`: the choices for a text (async) instead.
 */
export function Picker({ name, label: fieldLabel, options, search, lookup, value, onChange, placeholder, required }) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [found, setFound] = useState([]);
  const [chosen, setChosen] = useState(undefined);
  useEffect(() => {
    if (!value) setChosen(undefined);
    else if (options) setChosen(options.find((o) => o.id === value));
    else if (lookup && chosen?.id !== value) {
      // A value given by a link (`?playerId=`): shown by its name once found, by its id if it is not.
      let live = true;
      const byId = { id: value, title: value };
      lookup(value).then(
        (o) => live && setChosen(o ?? byId),
        () => live && setChosen(byId),
      );
      return () => {
        live = false;
      };
    }
  }, [value, options]);
  useEffect(() => {
    if (!search || text.trim().length < 3) return;
    let live = true;
    const timer = setTimeout(() => {
      search(text.trim()).then(
        (list) => live && setFound(list),
        () => live && setFound([]),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text]);
  const words = norm(text).split(/\s+/).filter(Boolean);
  const shown = (search ? found : (options ?? []).filter((o) => words.every((w) => norm(`${o.title} ${o.detail ?? ''} ${o.id}`).includes(w)))).slice(
    0,
    MAX_SHOWN,
  );
  const choose = (o) => {
    setChosen(o);
    setText('');
    setOpen(false);
    onChange?.(o?.id ?? '', o);
  };
  return html`<div class="picker" data-picker=${name}>
    <label>${fieldLabel}
      ${
        chosen
          ? html`<span class="chosen" title=${chosen.id} data-chosen=${chosen.id}>${chosen.title}${chosen.detail ? html` <small>${chosen.detail}</small>` : null}
              <button type="button" class="link-dark" onClick=${() => choose(undefined)} aria-label=${say('Trocar', 'Change')}>${say('trocar', 'change')}</button></span>`
          : html`<input type="search" role="combobox" aria-expanded=${open && shown.length > 0} autocomplete="off" value=${text}
              placeholder=${placeholder ?? say('Digite para buscar', 'Type to search')} required=${required && !chosen}
              onInput=${(e) => {
                setText(e.currentTarget.value);
                setOpen(true);
              }} onFocus=${() => setOpen(true)} />`
      }
    </label>
    <input type="hidden" name=${name} value=${chosen?.id ?? ''} />
    ${
      !chosen && open && shown.length > 0
        ? html`<ul class="choices" role="listbox" aria-label=${fieldLabel}>${shown.map(
            (o) =>
              html`<li role="option"><button type="button" data-choice=${o.id} title=${o.id} onClick=${() => choose(o)}>${o.title}${
                o.detail ? html` <small>${o.detail}</small>` : null
              }</button></li>`,
          )}</ul>`
        : null
    }
    ${!chosen && open && text.trim() && shown.length === 0 ? html`<p class="muted">${say('Nada encontrado.', 'Nothing found.')}</p>` : null}
  </div>`;
}

/** A brand of ours, by its operator's name and its environment (only `environment`'s, when given). */
export function BrandPicker({ name = 'brandId', environment, value, onChange, required, label: fieldLabel }) {
  const brands = useBrands();
  const options = (brands ?? [])
    .filter((b) => !environment || b.environment === environment)
    .map((b) => ({ id: b.id, title: brandTitle(b), detail: label(b.environment) }));
  return html`<${Picker} name=${name} label=${fieldLabel ?? say('Marca', 'Brand')} options=${options} value=${value} onChange=${onChange} required=${required}
    placeholder=${say('Nome do operador', "Operator's name")} />`;
}

let operatorList;
/** An operator, by name. */
export function OperatorPicker({ name = 'operatorId', value, onChange, required, label: fieldLabel }) {
  const [operators, setOperators] = useState([]);
  useEffect(() => {
    operatorList ??= api('GET', '/admin/operators').then(
      (p) => p.data,
      () => [],
    );
    operatorList.then(setOperators);
  }, []);
  const options = operators.map((o) => ({ id: o.id, title: o.name, detail: label(o.status === 'active' ? 'ativo' : 'suspenso') }));
  return html`<${Picker} name=${name} label=${fieldLabel ?? say('Operador', 'Operator')} options=${options} value=${value} onChange=${onChange} required=${required} />`;
}

/**
 * A player of `environment` (both when absent), found by name, CPF, e-mail or externalId as one types;
 * a `value` given (a link's `?playerId=`) is shown by the player's name.
 */
export function PlayerPicker({ name = 'playerId', environment, value, onChange, required, label: fieldLabel }) {
  const search = (q) =>
    api('GET', `/admin/players${query({ q, environment })}`).then((page) =>
      page.data.map((p) => ({ id: p.id, title: p.name, detail: `${p.email} · ${label(p.environment)}` })),
    );
  const lookup = (id) => search(id).then((list) => list.find((o) => o.id === id));
  return html`<${Picker} name=${name} label=${fieldLabel ?? say('Apostador', 'Player')} search=${search} lookup=${lookup} value=${value} onChange=${onChange} required=${required}
    placeholder=${say('Nome, CPF ou e-mail', 'Name, CPF or e-mail')} />`;
}

/** A game provider, by name. */
export function ProviderPicker({ providers, name = 'providerId', value, onChange, required, label: fieldLabel }) {
  const options = (providers ?? []).map((p) => ({
    id: p.id,
    title: p.name,
    detail: `${label(p.kind)} · ${label(p.status === 'enabled' ? 'ativo' : 'suspenso')}`,
  }));
  return html`<${Picker} name=${name} label=${fieldLabel ?? say('Provedor', 'Provider')} options=${options} value=${value} onChange=${onChange} required=${required} />`;
}
