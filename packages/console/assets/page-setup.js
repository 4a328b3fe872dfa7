// The first thing a person does after signing in, when their account asks for it (the session's
// `setupRequired`), before any other page opens: choose their own password in place of the one-time
// one they were given, then turn on two-factor sign-in if their role requires it. Then on to the
// page they came for.
import { useState } from 'preact/hooks';
import { html, session, say } from './kit.js';
import { PasswordForm, SecondFactorSetup } from './account-forms.js';

/** Only a path of this console: never another origin. */
function nextPage() {
  const next = new URLSearchParams(location.search).get('next');
  return next && /^\/[a-z]/.test(next) && !next.startsWith('//') && !next.startsWith('/setup') ? next : '/account';
}

export function SetupPage() {
  const [steps, setSteps] = useState(session.current.user.setupRequired);
  const done = (step) => {
    const left = steps.filter((s) => s !== step);
    session.current.user.setupRequired = left;
    setSteps(left);
    if (left.length === 0) location.assign(nextPage());
  };
  if (steps.includes('password'))
    return html`<section class="card" id="setup-password">
      <h2>${say('Escolha sua senha', 'Choose your password')}</h2>
      <p>${say(
        `Você entrou com uma senha de uso único, que agora está gasta. Escolha a sua para continuar${steps.includes('secondFactor') ? '; depois configure o login em duas etapas' : ''}.`,
        `You signed in with a one-time password, which is now spent. Choose your own to continue${steps.includes('secondFactor') ? '; then set up two-factor sign-in' : ''}.`,
      )}</p>
      <${PasswordForm} onDone=${() => done('password')} />
    </section>`;
  if (steps.includes('secondFactor'))
    return html`<section class="card" id="setup-second-factor">
      <h2>${say('Configure o login em duas etapas', 'Set up two-factor sign-in')}</h2>
      <p>${say(
        'Sua função entra com um código de um app autenticador além da senha. Configure-o para continuar.',
        'Your role signs in with a code from an authenticator app as well as the password. Set it up to continue.',
      )}</p>
      <${SecondFactorSetup} onDone=${() => done('secondFactor')} />
    </section>`;
  return html`<p>${say('Sua conta está configurada.', 'Your account is set up.')} <a href=${nextPage()}>${say('Continuar', 'Continue')}</a></p>`;
}
