// The console's shell: who is signed in, the navigation their role uses, sign-out, and the page of
// the path. A page the role may not use still opens; the admin API refuses it and the page says so.
// While the account's setup is pending (a one-time password to replace, TOTP the role requires),
// only the setup page opens, without the navigation: the admin API refuses everything else.
// Compliance and admin see the notice of br-spa rules turned off, or asked to be (notices.js).
import { render } from 'preact';
import { html, session, api } from './kit.js';
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
import { ComplianceNotices } from './notices.js';

const PAGES = [
  { path: '/kyc', title: 'KYC queue', page: KycPage, roles: ['compliance', 'support'] },
  { path: '/withdrawals', title: 'Withdrawals', page: WithdrawalsPage, roles: ['finance', 'compliance', 'support'] },
  { path: '/players', title: 'Players', page: PlayersPage, roles: ['compliance', 'finance', 'support'] },
  { path: '/operators', title: 'Operators', page: OperatorsPage, roles: ['compliance', 'finance', 'support'] },
  { path: '/webhooks', title: 'Webhook deliveries', page: WebhooksPage, roles: ['support', 'finance'] },
  { path: '/aml', title: 'AML cases', page: AmlPage, roles: ['compliance'] },
  { path: '/reports', title: 'Regulator files', page: ReportsPage, roles: ['compliance', 'finance'] },
  { path: '/impediments', title: 'Impediments', page: ImpedimentsPage, roles: ['compliance'] },
  { path: '/audit', title: 'Audit log', page: AuditPage, roles: ['compliance', 'finance', 'support'] },
  { path: '/ledger', title: 'Ledger', page: LedgerPage, roles: ['finance'] },
  { path: '/team', title: 'Team', page: TeamPage, roles: [] },
  // Game providers, their keys, operators and games: admin only (docs/providers.md).
  { path: '/providers', title: 'Providers', page: ProvidersPage, roles: [] },
  { path: '/account', title: 'Account', page: AccountPage, roles: ['compliance', 'finance', 'support'] },
];

const SETUP = { path: '/setup', title: 'Set up your account', page: SetupPage, roles: [] };

function Shell({ user }) {
  const settingUp = user.setupRequired.length > 0;
  const current = settingUp || location.pathname === SETUP.path ? SETUP : (PAGES.find((p) => p.path === location.pathname) ?? PAGES[0]);
  const mine = settingUp ? [] : PAGES.filter((p) => user.role === 'admin' || p.roles.includes(user.role));
  const signOut = async () => {
    await api('DELETE', '/console/session').catch(() => undefined);
    location.assign('/');
  };
  document.title = `${current.title} · Back-office console`;
  return html`<header>
      <nav aria-label="Console">${mine.map((p) => html`<a href=${p.path} aria-current=${p === current ? 'page' : undefined}>${p.title}</a>`)}</nav>
      <span class="who"><a href="/account">${user.email}</a> · <strong>${user.role}</strong> <button type="button" class="link" onClick=${signOut}>Sign out</button></span>
    </header>
    <main>${!settingUp && (user.role === 'admin' || user.role === 'compliance') ? html`<${ComplianceNotices} />` : null}<h1>${current.title}</h1><${current.page} /></main>`;
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
