// The console's shell: who is signed in, the navigation their role uses, sign-out, and the page of
// the path. A page the role may not use still opens; the admin API refuses it and the page says so.
// While the account's setup is pending (a one-time password to replace, TOTP the role requires),
// only the setup page opens, without the navigation: the admin API refuses everything else.
// Compliance and admin see the notice of br-spa rules turned off, or asked to be (notices.js).
import { render } from 'preact';
import { html, session, api, say, label } from './kit.js';
import { LANGUAGES, chooseLanguage, language } from './language.js';
import { KycPage } from './page-kyc.js';
import { WithdrawalsPage } from './page-withdrawals.js';
import { PlayersPage } from './page-players.js';
import { OperatorsPage } from './page-operators.js';
import { WebhooksPage } from './page-webhooks.js';
import { AuditPage } from './page-audit.js';
import { LedgerPage } from './page-ledger.js';
import { AccountPage } from './page-account.js';
import { AmlPage } from './page-aml.js';
import { ReportsPage } from './page-reports.js';
import { ImpedimentsPage } from './page-impediments.js';
import { SetupPage } from './page-setup.js';
import { TeamPage } from './page-team.js';
import { ProvidersPage } from './page-providers.js';
import { FundTransfersPage, UnclaimedPage } from './page-unclaimed.js';
import { IntegrityPage } from './page-integrity.js';
import { PrivacyPage } from './page-privacy.js';
import { HarmPage } from './page-harm.js';
import { ComplianceNotices } from './notices.js';

// Titles in the person's language (issue #61); the path stays the page's name.
// `regulator` (issue #69): the Ministry's inspectors read players, money, bets, the regulator files, the
// audit log, the AML and harm cases and the read log; every form on those pages is another role's.
const PAGES = [
  { path: '/kyc', title: () => say('Fila de KYC', 'KYC queue'), page: KycPage, roles: ['compliance', 'support', 'regulator'] },
  { path: '/withdrawals', title: () => say('Saques', 'Withdrawals'), page: WithdrawalsPage, roles: ['finance', 'compliance', 'support', 'regulator'] },
  { path: '/players', title: () => say('Apostadores', 'Players'), page: PlayersPage, roles: ['compliance', 'finance', 'support', 'regulator'] },
  { path: '/operators', title: () => say('Operadores', 'Operators'), page: OperatorsPage, roles: ['compliance', 'finance', 'support'] },
  { path: '/webhooks', title: () => say('Entregas de webhooks', 'Webhook deliveries'), page: WebhooksPage, roles: ['support', 'finance'] },
  { path: '/aml', title: () => say('Casos de PLD', 'AML cases'), page: AmlPage, roles: ['compliance', 'regulator'] },
  // Players at risk of harm: our team's cases and interactions (issue #68; docs/player-protection.md).
  { path: '/harm', title: () => say('Jogo responsável: casos', 'Players at risk'), page: HarmPage, roles: ['compliance', 'regulator'] },
  { path: '/reports', title: () => say('Arquivos regulatórios', 'Regulator files'), page: ReportsPage, roles: ['compliance', 'finance', 'regulator'] },
  { path: '/impediments', title: () => say('Impedimentos', 'Impediments'), page: ImpedimentsPage, roles: ['compliance', 'regulator'] },
  { path: '/audit', title: () => say('Registro de auditoria', 'Audit log'), page: AuditPage, roles: ['compliance', 'finance', 'support', 'regulator'] },
  { path: '/ledger', title: () => say('Razão', 'Ledger'), page: LedgerPage, roles: ['finance', 'regulator'] },
  { path: '/team', title: () => say('Equipe', 'Team'), page: TeamPage, roles: [] },
  // Game providers: finance reads their money (clearing balances, daily reports, debts, open rounds);
  // admins change them, their keys, operators and games (docs/providers.md, issue #61).
  { path: '/providers', title: () => say('Provedores', 'Providers'), page: ProvidersPage, roles: ['finance'] },
  // Unclaimed funds after an impediment hit and their transfers to FIES and FUNCAP (issue #61).
  { path: '/unclaimed', title: () => say('Saldos não reclamados', 'Unclaimed funds'), page: UnclaimedPage, roles: ['finance', 'compliance', 'regulator'] },
  {
    path: '/fund-transfers',
    title: () => say('Transferências aos fundos', 'Fund transfers'),
    page: FundTransfersPage,
    roles: ['finance', 'compliance', 'regulator'],
  },
  // Integrity holds on sports prizes and the suspicious-betting export (issue #60 item 3).
  { path: '/integrity', title: () => say('Retenções por integridade', 'Integrity holds'), page: IntegrityPage, roles: ['compliance', 'finance', 'regulator'] },
  // Players' data requests under the LGPD and who read personal data (issue #69; docs/privacy.md).
  { path: '/privacy', title: () => say('Privacidade', 'Privacy'), page: PrivacyPage, roles: ['compliance', 'regulator'] },
  { path: '/account', title: () => say('Conta', 'Account'), page: AccountPage, roles: ['compliance', 'finance', 'support'] },
];

const SETUP = { path: '/setup', title: () => say('Configure sua conta', 'Set up your account'), page: SetupPage, roles: [] };

/** The person's language, chosen here (kept for them in this browser). */
function LanguageSwitch() {
  return html`<label class="language">${say('Idioma', 'Language')} <select aria-label=${say('Idioma', 'Language')} onChange=${(e) => chooseLanguage(e.currentTarget.value)}>${LANGUAGES.map(
    ([code, name]) => html`<option value=${code} selected=${code === language()}>${name}</option>`,
  )}</select></label>`;
}

function Shell({ user }) {
  const settingUp = user.setupRequired.length > 0;
  const current = settingUp || location.pathname === SETUP.path ? SETUP : (PAGES.find((p) => p.path === location.pathname) ?? PAGES[0]);
  const mine = settingUp ? [] : PAGES.filter((p) => user.role === 'admin' || p.roles.includes(user.role));
  const signOut = async () => {
    await api('DELETE', '/console/session').catch(() => undefined);
    location.assign('/');
  };
  document.title = `${current.title()} · ${say('Console do back-office', 'Back-office console')}`;
  document.documentElement.lang = language() === 'pt' ? 'pt-BR' : 'en';
  return html`<header>
      <nav aria-label="Console">${mine.map((p) => html`<a href=${p.path} aria-current=${p === current ? 'page' : undefined}>${p.title()}</a>`)}</nav>
      <span class="who"><a href="/account">${user.email}</a> · <strong data-role=${user.role}>${label(user.role)}</strong> <${LanguageSwitch} /> <button type="button" class="link" onClick=${signOut}>${say('Sair', 'Sign out')}</button></span>
    </header>
    <main>${!settingUp && (user.role === 'admin' || user.role === 'compliance') ? html`<${ComplianceNotices} />` : null}<h1>${current.title()}</h1><${current.page} /></main>`;
}

// Signed out is an answer (`signedIn: false`), not an error: on to the sign-in page, nothing logged.
const res = await fetch('/console/session', { credentials: 'same-origin' });
const current = res.ok ? await res.json() : { signedIn: false };
if (!current.signedIn) location.assign(`/?next=${encodeURIComponent(location.pathname + location.search)}`);
else if (location.pathname !== SETUP.path && current.user.setupRequired.length > 0)
  location.assign(`${SETUP.path}?next=${encodeURIComponent(location.pathname + location.search)}`);
else {
  session.current = current;
  const root = document.getElementById('app');
  root.textContent = ''; // the "Loading…" placeholder: render() adds to what it finds
  render(html`<${Shell} user=${session.current.user} />`, root);
}
