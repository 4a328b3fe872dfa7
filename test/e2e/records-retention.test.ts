// Records are kept five years (SPA/MF Ordinance 1,143/2024, as read in docs/aml.md): players, KYC,
// deposits, withdrawals, the ledger, rounds, the audit log, AML cases and the regulator's files are
// never hard-deleted by any route or job. This reads every service's and package's source and
// lists each statement or ORM call that deletes rows: each must touch a table that is not a record
// (sessions, throttles, simulators' lists, delivery logs, the kit's stored answers and outbox) and
// is named below with why. A new deletion fails here until someone decides it is not a record.
import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** Tables rows may be deleted from, and why they are not records. */
const DELETABLE: Record<string, string> = {
  'operators.console_sessions': 'sign-in sessions of our team (the sign-ins themselves are in the audit log)',
  'operators.sign_in_throttle': 'failure counters for the sign-in backoff',
  'operators.team_member_confirmations':
    "the confirmations of a team member's current credential, ended by a password reset (issue #69): each confirmation and the reset that ends them stay in the audit log (adminConfirmUser, adminResetPassword)",
  'payments.simulated_pix_keys': "the PSP key-owner simulator's list (sandbox)",
  'players.simulated_impediments': "the SPA registry simulator's list (sandbox)",
  'players.internal_impediments': 'an entry of our internal impediments list (its removal is audited with the entry as it was)',
  'wallet.provider_operators': "a provider's games offered to an operator: our team's setting (each change is in the audit log)",
  'wallet.provider_connector_health':
    "a connector's hourly counts of answers by status, the provider page's health (the calls themselves are the provider transactions and the ledger)",
  'webhooks.attempts': "webhook delivery logs (not records: the events they carried are the domains')",
  'webhooks.deliveries': 'webhook delivery logs',
  'webhooks.events': 'webhook delivery copies of domain events',
  '<schema>.processed_requests': "stored idempotent answers, kept for their TTL (every service's schema)",
  '<schema>.outbox': "outbox rows already published to JetStream (every service's schema)",
  '<schema>.harm_pending':
    "compliance: a player's mark that their harm level is to be assessed again, taken by the assessment (the counts and every level stay: harm_days, harm_levels, harm_level_history)",
  '<schema>.harm_days':
    "compliance: a sandbox player's harm days (environment = 'sandbox' only), replaced by the sandbox's made-up history (PUT /sandbox/players/{id}/harm-markers); counts derived from the money's own records, which stay, and every level stays in harm_level_history",
};

/** ORM removals (`em.remove(row)`): the file and the entity, and why it is not a record. */
const ORM_REMOVALS: Record<string, string> = {
  'services/players/src/rg/store/limits.ts': 'a removed limit row (every change stays in players.rg_history)',
  'services/players/src/impediments/handlers/eligibility.ts':
    "the sandbox's removal from the simulated SPA registry (simulator.ts deletes the row of players.simulated_impediments, not a record)",
  'services/compliance/src/store/screening-entries.ts':
    "an entry of the screening simulator's list: our team's (its removal is audited) or an operator's own sandbox entry",
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (name === 'node_modules' || name === 'test' || name.startsWith('.')) return [];
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

const files = ['services', 'packages']
  .flatMap((d) => readdirSync(path.join(root, d)).map((w) => path.join(root, d, w, 'src')))
  .flatMap((src) => {
    try {
      return sources(src);
    } catch {
      return [];
    }
  });

t.ok(files.length > 100, `read the source of every service and package (${files.length} files)`);

/** The tables a source text deletes from (`schema.table`; a schema given by a variable is `<schema>`), and its ORM removals. */
function deletionsIn(text: string): string[] {
  const sql = [...text.matchAll(/\b(?:delete\s+from|truncate(?:\s+table)?)\s+("?\$\{[^}]+\}"?|"?\w+"?)\.(\w+)/gi)].map((m) => {
    const schema = m[1]!.includes('{') ? '<schema>' : m[1]!.replace(/"/g, '');
    return `${schema}.${m[2]}`;
  });
  const orm = [...text.matchAll(/\.(?:remove|nativeDelete|removeAndFlush)\(/g)].map(() => 'orm');
  return [...sql, ...orm];
}

t.same(
  deletionsIn(
    'a `delete from payments.deposits where` b `DELETE FROM "wallet".ledger_entries` c `delete from "\u0024{this.#o.schema}".outbox` d `truncate table players.players` e em.remove(row)',
  ),
  ['payments.deposits', 'wallet.ledger_entries', '<schema>.outbox', 'players.players', 'orm'],
  'the scan finds deletions however the table is written',
);

const deletions = files.flatMap((file) => {
  const rel = path.relative(root, file);
  return deletionsIn(readFileSync(file, 'utf8')).map((what) => ({ rel, what }));
});

t.same(
  deletions.filter((d) => (d.what === 'orm' ? !(d.rel in ORM_REMOVALS) : !(d.what in DELETABLE))).map((d) => `${d.rel}: ${d.what}`),
  [],
  'every deletion in the source touches a table that is not a record',
);
t.ok(
  deletions.some((d) => d.what === 'webhooks.events'),
  'the scan sees the deletions there are (the webhook-event retention)',
);
