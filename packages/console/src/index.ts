// The team console: a Fastify plugin with its pages and assets, mounted by the gateway on the admin
// port; accounts and sessions behind the ConsoleAccounts port; the session cookie and CSRF rule,
// which the admin API applies too.
export { consoleRoutes, type ConsoleOptions } from './console-routes.ts';
export type { ConsoleAccounts, ConsoleIdentity, ConsoleSignIn } from './console-accounts.ts';
export { checkCsrf, sessionTokenOf } from './session-cookie.ts';
