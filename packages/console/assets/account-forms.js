// The forms of a person's own account, shared by the first sign-in's setup page and the Account
// page: choosing a new password (the current one required; the server judges the new one: at least
// 12 characters, not the e-mail, not a common password) and turning on TOTP (a secret to add to an
// authenticator app, then a first code to confirm it).
import { useState } from 'preact/hooks';
import qrcode from 'qrcode-generator';
import { html, api, useAction, ErrorNote, say } from './kit.js';

/**
 * The `otpauth:` URI as a QR code to scan, drawn here (an SVG path of the dark modules): the secret
 * goes to no image service, and the page's CSP (no `data:` images) stays as it is.
 */
export function QrCode({ text, label }) {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  let d = '';
  for (let row = 0; row < n; row++) for (let col = 0; col < n; col++) if (qr.isDark(row, col)) d += `M${col + 4} ${row + 4}h1v1h-1z`;
  return html`<svg class="qr" role="img" aria-label=${label} viewBox=${`0 0 ${n + 8} ${n + 8}`} shape-rendering="crispEdges">
    <rect width="100%" height="100%" fill="#fff" /><path d=${d} fill="#000" />
  </svg>`;
}

/** `currentLabel` undefined: the first sign-in's setup, which does not ask the one-time password again. */
export function PasswordForm({ currentLabel, onDone }) {
  const change = useAction();
  const [mismatch, setMismatch] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const mismatched = f.newPassword.value !== f.repeatPassword.value;
    setMismatch(mismatched);
    if (mismatched) return;
    const current = currentLabel ? { currentPassword: f.currentPassword.value } : {};
    if (await change.run(() => api('POST', '/console/password', { ...current, newPassword: f.newPassword.value }))) {
      f.reset();
      onDone();
    }
  };
  return html`<form onSubmit=${submit} aria-label="Change password">
    ${
      currentLabel
        ? html`<label for="current-password">${currentLabel}</label>
    <input id="current-password" name="currentPassword" type="password" autocomplete="current-password" required />`
        : null
    }
    <label for="new-password">${say('Nova senha (ao menos 12 caracteres, não o seu e-mail, não uma senha comum)', 'New password (at least 12 characters, not your e-mail, not a common password)')}</label>
    <input id="new-password" name="newPassword" type="password" autocomplete="new-password" minlength="12" required />
    <label for="repeat-password">${say('Repita a nova senha', 'New password again')}</label>
    <input id="repeat-password" name="repeatPassword" type="password" autocomplete="new-password" minlength="12" required />
    <div><button type="submit" disabled=${change.busy}>${say('Trocar a senha', 'Change password')}</button></div>
    ${mismatch ? html`<p class="error" role="alert">${say('As duas novas senhas diferem.', 'The two new passwords differ.')}</p>` : null}
    <${ErrorNote} error=${change.error} fieldLabel=${(path) => (path === '/currentPassword' ? currentLabel : say('Nova senha', 'New password'))} />
  </form>`;
}

export function SecondFactorSetup({ onDone }) {
  const [setup, setSetup] = useState(undefined);
  const start = useAction();
  const confirm = useAction();
  const begin = async () => setSetup(await start.run(() => api('POST', '/console/second-factor')));
  const finish = async (e) => {
    e.preventDefault();
    if (await confirm.run(() => api('POST', '/console/second-factor/confirm', { code: e.currentTarget.code.value.trim() }))) {
      setSetup(undefined);
      onDone();
    }
  };
  if (!setup)
    return html`<button type="button" onClick=${begin} disabled=${start.busy}>${say('Configurar o login em duas etapas', 'Set up two-factor sign-in')}</button><${ErrorNote} error=${start.error} />`;
  return html`<section class="card">
    <p>${say(
      'Adicione esta conta ao seu app autenticador (Google Authenticator, 1Password, Aegis…): leia o código, abra o link no celular ou digite a chave.',
      'Add this account to your authenticator app (Google Authenticator, 1Password, Aegis…): scan the code, open the link on your phone, or type the key.',
    )}</p>
    <${QrCode} text=${setup.uri} label=${say('QR code da chave do autenticador', 'QR code of the authenticator key')} />
    <p>${say('Chave', 'Key')}: <code id="totp-secret">${setup.secret}</code></p>
    <p><a href=${setup.uri}>${say('Abrir em um app autenticador', 'Open in an authenticator app')}</a></p>
    <form class="inline" onSubmit=${finish} aria-label="Confirm two-factor">
      <label>${say('Código do app', 'Code from the app')} <input name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required /></label>
      <button type="submit" disabled=${confirm.busy}>${say('Ligar', 'Turn on')}</button><${ErrorNote} error=${confirm.error} />
    </form>
  </section>`;
}
