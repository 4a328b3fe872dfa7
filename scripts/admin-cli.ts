// `npm run admin -- <command>`: the team's CLI over the admin API (ADMIN_URL, ADMIN_TOKEN; both
// default to what `npm start` uses locally). Prints the JSON answer; exits 1 on an error answer.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const ADMIN_URL = process.env.ADMIN_URL ?? `http://127.0.0.1:${process.env.ADMIN_PORT ?? '3001'}`;
const tokenFile = path.join(root, '.data', 'admin-token');
const ADMIN_TOKEN = process.env.ADMIN_TOKEN ?? (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : '');

type Args = { _: string[]; [flag: string]: string | string[] };
/** Flags that take no value (`--csv`, `--show-password`): the word after them stays an argument. */
// (`--file` takes a value: `reports sigap-file --file FILE_ID`; the yearly report's own file is `--raw`.)
const SWITCHES = new Set(['csv', 'show-password', 'disabled', 'overdue', 'ended', 'raw']);
function parse(argv: string[]): Args {
  const out: Args = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a!.startsWith('--') && SWITCHES.has(a!.slice(2))) out[a!.slice(2)] = '';
    else if (a!.startsWith('--')) {
      out[a!.slice(2)] = argv[i + 1] ?? '';
      i++;
    } else out._.push(a!);
  }
  return out;
}
const nullable = (v: string | undefined) => (v === undefined || v === 'none' || v === 'null' ? null : v);
const need = (v: string | undefined, what: string) => {
  if (!v) throw new Error(`missing ${what}`);
  return v;
};

/** A compliance profile change from its flags: the profile, its reason, and only the settings given. */
function complianceChange(a: Args, profile: string): Record<string, unknown> {
  return {
    profile,
    reason: need(a.reason as string, '--reason'),
    ...(a['time-zone'] !== undefined ? { timeZone: String(a['time-zone']) } : {}),
    ...(a['cooling-off-hours'] !== undefined ? { coolingOffHours: Number(a['cooling-off-hours']) } : {}),
    ...(a['reality-check-minutes'] !== undefined ? { realityCheckMinutes: Number(a['reality-check-minutes']) } : {}),
  };
}

/** A provider's settings from its flags, only those given (`none` clears the launch URL or the allow-list). */
function providerSettings(a: Args): Record<string, unknown> {
  const list = (v: string) => (nullable(v) === null ? [] : v.split(',').map((s) => s.trim()));
  return {
    ...(a['launch-url'] !== undefined ? { launchUrl: nullable(a['launch-url'] as string) } : {}),
    ...(a['launch-timeout-ms'] !== undefined ? { launchTimeoutMs: Number(a['launch-timeout-ms']) } : {}),
    ...(a['allowed-ips'] !== undefined ? { allowedIps: list(a['allowed-ips'] as string) } : {}),
    ...(a['open-round-limit-minutes'] !== undefined ? { openRoundLimitMinutes: Number(a['open-round-limit-minutes']) } : {}),
  };
}

interface Command {
  usage: string;
  run(a: Args): { method: string; path: string; body?: unknown };
}
const q = (params: Record<string, string | undefined>) => {
  const s = new URLSearchParams(Object.entries(params).filter(([, v]) => v) as [string, string][]).toString();
  return s ? `?${s}` : '';
};

const COMMANDS: Record<string, Command> = {
  'operators create': {
    usage: '--name NAME [--currency BRL] [--rate-limit 600]',
    run: (a) => ({
      method: 'POST',
      path: '/admin/operators',
      body: {
        name: need(a.name as string, '--name'),
        ...(a.currency ? { currency: a.currency } : {}),
        ...(a['rate-limit'] ? { rateLimitPerMinute: Number(a['rate-limit']) } : {}),
      },
    }),
  },
  'operators list': { usage: '', run: () => ({ method: 'GET', path: '/admin/operators' }) },
  // A one-time password is printed only with --show-password: hand it over from the console's Team
  // page instead (shown once there, never left in a terminal's scroll-back or a CI log).
  'users create': {
    usage: '--email EMAIL --role compliance|finance|support|admin [--show-password]',
    run: (a) => ({ method: 'POST', path: '/admin/users', body: { email: need(a.email as string, '--email'), role: need(a.role as string, '--role') } }),
  },
  'users list': { usage: '', run: () => ({ method: 'GET', path: '/admin/users' }) },
  'users disable': { usage: 'USER_ID', run: (a) => ({ method: 'POST', path: `/admin/users/${need(a._[2], 'USER_ID')}/disable` }) },
  // A new one-time password for a person who forgot theirs (printed only with --show-password); their sessions end.
  'users reset-password': {
    usage: 'USER_ID [--show-password]',
    run: (a) => ({ method: 'POST', path: `/admin/users/${need(a._[2], 'USER_ID')}/reset-password` }),
  },
  // Issue #69: a second admin confirms a person's power before their first decision.
  'users confirm': { usage: 'USER_ID', run: (a) => ({ method: 'POST', path: `/admin/users/${need(a._[2], 'USER_ID')}/confirm` }) },
  'users reset-second-factor': {
    usage: 'USER_ID',
    run: (a) => ({ method: 'POST', path: `/admin/users/${need(a._[2], 'USER_ID')}/reset-second-factor` }),
  },
  // A service token (one role, no person, no decision). A personal token is made only by its own
  // person, on the console's Account page (issue #56): nobody makes one for someone else.
  'tokens create': {
    usage: '--name NAME --role compliance|finance|support|admin (a service token; personal tokens are made by their people on the console Account page)',
    run: (a) => {
      if (a.user !== undefined) throw new Error("--user is gone: a personal token is made by its own person, on the console's Account page (issue #56)");
      return { method: 'POST', path: '/admin/tokens', body: { name: need(a.name as string, '--name'), role: need(a.role as string, '--role') } };
    },
  },
  'tokens list': { usage: '', run: () => ({ method: 'GET', path: '/admin/tokens' }) },
  'tokens revoke': { usage: 'TOKEN_ID', run: (a) => ({ method: 'POST', path: `/admin/tokens/${need(a._[2], 'TOKEN_ID')}/revoke` }) },
  'operators get': { usage: 'OPERATOR_ID', run: (a) => ({ method: 'GET', path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}` }) },
  'operators suspend': { usage: 'OPERATOR_ID', run: (a) => ({ method: 'POST', path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/suspend` }) },
  'operators resume': { usage: 'OPERATOR_ID', run: (a) => ({ method: 'POST', path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/resume` }) },
  'operators allowed-ips': {
    usage: 'OPERATOR_ID IP[,CIDR...] | none',
    run: (a) => ({
      method: 'PUT',
      path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/allowed-ips`,
      body: { ips: nullable(a._[3]) ? a._[3]!.split(',').map((s) => s.trim()) : [] },
    }),
  },
  'operators rate-limit': {
    usage: 'OPERATOR_ID PER_MINUTE',
    run: (a) => ({
      method: 'PUT',
      path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/rate-limit`,
      body: { perMinute: Number(need(a._[3], 'PER_MINUTE')) },
    }),
  },
  'operators webhook': {
    usage: 'OPERATOR_ID sandbox|production URL|none',
    run: (a) => ({
      method: 'PUT',
      path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/webhooks/${need(a._[3], 'ENVIRONMENT')}`,
      body: { url: nullable(a._[4]) },
    }),
  },
  'operators four-eyes': {
    usage: 'OPERATOR_ID [MIN_AMOUNT] (withdrawals from this amount are paid by someone other than their approver; 0.00: all; without an amount, shows it)',
    run: (a) =>
      a._[3]
        ? { method: 'PUT', path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/four-eyes`, body: { minAmount: a._[3] } }
        : { method: 'GET', path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/four-eyes` },
  },
  'operators auto-approval': {
    usage:
      'OPERATOR_ID [BELOW_AMOUNT|off] (br-spa withdrawals below this amount are approved and paid without a person, still after the AML and impediment checks; off: a person decides every one, the default; without an amount, shows it)',
    run: (a) =>
      a._[3]
        ? { method: 'PUT', path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/auto-approval`, body: { belowAmount: a._[3] === 'off' ? null : a._[3] } }
        : { method: 'GET', path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/auto-approval` },
  },
  // A change of the profile is a person's decision with its reason; turning br-spa off is requested
  // by one person (compliance-request) and confirmed by another (compliance-confirm; issue #56).
  'operators compliance': {
    usage:
      'OPERATOR_ID [off|br-spa --reason TEXT] [--time-zone TZ] [--cooling-off-hours N] [--reality-check-minutes N] (without a profile, shows it; br-spa to off: compliance-request)',
    run: (a) =>
      a._[3]
        ? { method: 'PUT', path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/compliance`, body: complianceChange(a, a._[3]) }
        : { method: 'GET', path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/compliance` },
  },
  'operators compliance-request': {
    usage:
      'OPERATOR_ID --reason TEXT [--time-zone TZ] [--cooling-off-hours N] [--reality-check-minutes N] (asks to turn the br-spa rules off; another person confirms)',
    run: (a) => ({ method: 'POST', path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/compliance/changes`, body: complianceChange(a, 'off') }),
  },
  'operators compliance-confirm': {
    usage: 'OPERATOR_ID CHANGE_ID --reason TEXT (never the person who requested it)',
    run: (a) => ({
      method: 'POST',
      path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/compliance/changes/${need(a._[3], 'CHANGE_ID')}/confirm`,
      body: { reason: need(a.reason as string, '--reason') },
    }),
  },
  'operators compliance-cancel': {
    usage: 'OPERATOR_ID CHANGE_ID --reason TEXT',
    run: (a) => ({
      method: 'POST',
      path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/compliance/changes/${need(a._[3], 'CHANGE_ID')}/cancel`,
      body: { reason: need(a.reason as string, '--reason') },
    }),
  },
  'operators compliance-changes': {
    usage: '[--operator OPERATOR_ID] [--status pending|confirmed|cancelled|expired]',
    run: (a) => ({ method: 'GET', path: `/admin/compliance-changes${q({ operatorId: a.operator as string, status: a.status as string })}` }),
  },
  'operators rotate-webhook-secret': {
    usage: 'OPERATOR_ID sandbox|production [--overlap SECONDS] (default 86400; the new secret is printed once)',
    run: (a) => ({
      method: 'POST',
      path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/webhooks/${need(a._[3], 'ENVIRONMENT')}/rotate-secret`,
      body: a.overlap !== undefined ? { overlapSeconds: Number(a.overlap) } : {},
    }),
  },
  'operators credentials': {
    usage: 'OPERATOR_ID (its keys: prefix, environment, status, expiry; never a secret)',
    run: (a) => ({ method: 'GET', path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/credentials` }),
  },
  'operators rotate-key': {
    usage:
      'OPERATOR_ID --environment sandbox|production [--overlap-minutes N] (0..10080, default 1440: the keys in use stop then; the new key and secret are printed once)',
    run: (a) => ({
      method: 'POST',
      path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/credentials/${need(a.environment as string, '--environment')}/rotate`,
      body: a['overlap-minutes'] !== undefined ? { overlapMinutes: Number(a['overlap-minutes']) } : {},
    }),
  },
  'operators revoke-key': {
    usage: 'OPERATOR_ID CREDENTIAL_ID (refused at once by every gateway)',
    run: (a) => ({
      method: 'POST',
      path: `/admin/operators/${need(a._[2], 'OPERATOR_ID')}/credentials/${need(a._[3], 'CREDENTIAL_ID')}/revoke`,
    }),
  },
  'players status': {
    usage: 'PLAYER_ID STATUS  (not a status a self-exclusion, a sanctions freeze or an impediment holds: 409 STANDING_HAS_OWN_FLOW names its flow)',
    run: (a) => ({ method: 'POST', path: `/admin/players/${need(a._[2], 'PLAYER_ID')}/status`, body: { status: need(a._[3], 'STATUS') } }),
  },
  'players limits': {
    usage: 'PLAYER_ID --daily AMOUNT|none --self-excluded-until ISO|none',
    run: (a) => ({
      method: 'PUT',
      path: `/admin/players/${need(a._[2], 'PLAYER_ID')}/limits`,
      body: { dailyDepositLimit: nullable(a.daily as string), selfExcludedUntil: nullable(a['self-excluded-until'] as string) },
    }),
  },
  'players kyc': {
    usage: 'PLAYER_ID STATUS [--reason TEXT]',
    run: (a) => ({
      method: 'POST',
      path: `/admin/players/${need(a._[2], 'PLAYER_ID')}/kyc/decision`,
      body: { status: need(a._[3], 'STATUS'), ...(a.reason ? { reason: a.reason } : {}) },
    }),
  },
  'players find': { usage: 'ID|EXTERNAL_ID|CPF|EMAIL', run: (a) => ({ method: 'GET', path: `/admin/players${q({ q: need(a._[2], 'QUERY') })}` }) },
  'players show': { usage: 'PLAYER_ID', run: (a) => ({ method: 'GET', path: `/admin/players/${need(a._[2], 'PLAYER_ID')}` }) },
  'kyc queue': {
    usage: '[--status em_analise|pendente|documento_solicitado] [--limit 20] [--cursor C]',
    run: (a) => ({ method: 'GET', path: `/admin/kyc-queue${q({ status: a.status as string, limit: a.limit as string, cursor: a.cursor as string })}` }),
  },
  'withdrawals queue': {
    usage: '[--status under_review] [--order created|payout_due] [--limit 50] [--cursor C]',
    run: (a) => ({
      method: 'GET',
      path: `/admin/withdrawals${q({ status: (a.status as string) ?? 'under_review', order: a.order as string, limit: a.limit as string, cursor: a.cursor as string })}`,
    }),
  },
  'withdrawals decide': {
    usage: 'WITHDRAWAL_ID approve|reject|pay [--reason "why"] (a rejection says why)',
    run: (a) => ({
      method: 'POST',
      path: `/admin/withdrawals/${need(a._[2], 'WITHDRAWAL_ID')}/decision`,
      body: { decision: need(a._[3], 'DECISION'), ...(a.reason ? { reason: String(a.reason) } : {}) },
    }),
  },
  'webhooks deliveries': {
    usage: '--event EVENT_ID | --operator OPERATOR_ID',
    run: (a) => ({ method: 'GET', path: `/admin/webhook-deliveries${q({ eventId: a.event as string, operatorId: a.operator as string })}` }),
  },
  'webhooks redeliver': { usage: 'EVENT_ID', run: (a) => ({ method: 'POST', path: `/admin/webhook-deliveries/${need(a._[2], 'EVENT_ID')}/redeliver` }) },
  'ledger verify': { usage: '', run: () => ({ method: 'GET', path: '/admin/ledger/verify' }) },
  // AML (compliance role; docs/aml.md).
  'aml cases': {
    usage: '[--player PLAYER_ID] [--status open|under_review|reported|dismissed] [--limit 50] [--cursor C]',
    run: (a) => ({
      method: 'GET',
      path: `/admin/aml/cases${q({ playerId: a.player as string, status: a.status as string, limit: a.limit as string, cursor: a.cursor as string })}`,
    }),
  },
  'aml case': { usage: 'CASE_ID', run: (a) => ({ method: 'GET', path: `/admin/aml/cases/${need(a._[2], 'CASE_ID')}` }) },
  'aml decide': {
    usage: 'CASE_ID under_review|reported|dismissed --reason TEXT [--receipt SISCOAF_RECEIPT]',
    run: (a) => ({
      method: 'POST',
      path: `/admin/aml/cases/${need(a._[2], 'CASE_ID')}/decision`,
      body: { status: need(a._[3], 'STATUS'), reason: need(a.reason as string, '--reason'), ...(a.receipt ? { receipt: a.receipt } : {}) },
    }),
  },
  'aml cos': {
    usage: '--case CASE_ID [--csv]  (prints the CSV with --csv; the JSON record otherwise)',
    run: (a) => ({ method: 'GET', path: `/admin/aml/cases/${need(a.case as string, '--case')}/cos` }),
  },
  'aml no-occurrence': {
    usage: 'BRAND_ID --year YYYY',
    run: (a) => ({ method: 'GET', path: `/admin/aml/brands/${need(a._[2], 'BRAND_ID')}/no-occurrence${q({ year: need(a.year as string, '--year') })}` }),
  },
  'reports daily': {
    usage: 'BRAND_ID --date YYYY-MM-DD [--time-zone America/Sao_Paulo]',
    run: (a) => ({
      method: 'GET',
      path: `/admin/reports/daily${q({ brandId: need(a._[2], 'BRAND_ID'), date: need(a.date as string, '--date'), timeZone: a['time-zone'] as string })}`,
    }),
  },
  // The kept daily regulator files (compliance and finance; docs/aml.md).
  'reports daily-files': {
    usage: '[--brand BRAND_ID] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--limit 50] [--cursor C]',
    run: (a) => ({
      method: 'GET',
      path: `/admin/reports/daily/files${q({ brandId: a.brand as string, from: a.from as string, to: a.to as string, limit: a.limit as string, cursor: a.cursor as string })}`,
    }),
  },
  'reports daily-file': {
    usage:
      '--brand BRAND_ID --date YYYY-MM-DD [--format csv --part bettors|accounts|deposits|withdrawals|rounds|status_changes]  (prints the file as downloaded: JSON, or one part as CSV)',
    run: (a) => {
      const csv = a.format === 'csv';
      const part = csv
        ? need(a.part as string, '--part (format csv gives one part: bettors, accounts, deposits, withdrawals, rounds, status_changes)')
        : undefined;
      return {
        method: 'GET',
        path: `/admin/reports/daily/files/${encodeURIComponent(need(a.brand as string, '--brand'))}/${need(a.date as string, '--date')}/download${q({ format: csv ? 'csv' : 'json', part })}`,
      };
    },
  },
  // SIGAP files (compliance and finance read; compliance sends; docs/aml.md, "SIGAP files").
  'reports sigap-files': {
    usage: '[--brand BRAND_ID] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--status made|sending|pending|accepted|rejected|failed] [--limit 50] [--cursor C]',
    run: (a) => ({
      method: 'GET',
      path: `/admin/reports/sigap/files${q({ brandId: a.brand as string, from: a.from as string, to: a.to as string, status: a.status as string, limit: a.limit as string, cursor: a.cursor as string })}`,
    }),
  },
  'reports sigap-day': {
    usage: "--brand BRAND_ID --date YYYY-MM-DD  (the day's SIGAP files, made first if the day is over and its daily file ties)",
    run: (a) => ({
      method: 'GET',
      path: `/admin/reports/sigap/files/${encodeURIComponent(need(a.brand as string, '--brand'))}/${need(a.date as string, '--date')}`,
    }),
  },
  'reports sigap-submit': {
    usage: "--brand BRAND_ID --date YYYY-MM-DD  (sends the day's files not sent or not delivered; asks about those pending)",
    run: (a) => ({
      method: 'POST',
      path: `/admin/reports/sigap/files/${encodeURIComponent(need(a.brand as string, '--brand'))}/${need(a.date as string, '--date')}/submit`,
    }),
  },
  'reports sigap-resend': {
    usage:
      '--brand BRAND_ID --date YYYY-MM-DD --type bettors|wallets|online_games|sports_bets|legal_destinations --correction TEXT  (a rejected type, made again and sent)',
    run: (a) => ({
      method: 'POST',
      path: `/admin/reports/sigap/files/${encodeURIComponent(need(a.brand as string, '--brand'))}/${need(a.date as string, '--date')}/resend`,
      body: { fileType: need(a.type as string, '--type'), correction: need(a.correction as string, '--correction') },
    }),
  },
  'reports sigap-file': {
    usage: '--brand BRAND_ID --date YYYY-MM-DD --file FILE_ID  (prints the file exactly as sent)',
    run: (a) => ({
      method: 'GET',
      path: `/admin/reports/sigap/files/${encodeURIComponent(need(a.brand as string, '--brand'))}/${need(a.date as string, '--date')}/${encodeURIComponent(need(a.file as string, '--file'))}/download`,
    }),
  },
  'aml risk': { usage: 'PLAYER_ID', run: (a) => ({ method: 'GET', path: `/admin/aml/players/${need(a._[2], 'PLAYER_ID')}/risk` }) },
  'aml rules': { usage: 'BRAND_ID', run: (a) => ({ method: 'GET', path: `/admin/aml/brands/${need(a._[2], 'BRAND_ID')}/rules` }) },
  'aml set-rules': {
    usage: 'BRAND_ID --json \'{"inAndOutHours":48,...}\' (every threshold; see aml rules)',
    run: (a) => ({ method: 'PUT', path: `/admin/aml/brands/${need(a._[2], 'BRAND_ID')}/rules`, body: JSON.parse(need(a.json as string, '--json')) }),
  },
  // AML beyond the players (compliance role; issue #46, docs/aml.md): the COS deadline, the yearly
  // report to the SPA, the risk register of team members, partners and suppliers.
  'aml report-decision': {
    usage: 'CASE_ID --reason TEXT (a case under review, not by its reviewer: its COS is then due by the end of the next business day)',
    run: (a) => ({
      method: 'POST',
      path: `/admin/aml/cases/${need(a._[2], 'CASE_ID')}/report-decision`,
      body: { reason: need(a.reason as string, '--reason') },
    }),
  },
  'aml cos-due': {
    usage: '[--overdue] [--limit 50] [--cursor C] (cases decided for reporting whose COS is not filed, each with cos.dueAt and cos.secondsLeft)',
    run: (a) => ({
      method: 'GET',
      path: `/admin/aml/cases${q({ cos: 'overdue' in a ? 'overdue' : 'awaiting', order: 'oldest', limit: a.limit as string, cursor: a.cursor as string })}`,
    }),
  },
  'aml annual-reports': {
    usage: '--year YYYY (every operator: due dates, state, versions kept)',
    run: (a) => ({ method: 'GET', path: `/admin/aml/annual-reports${q({ year: need(a.year as string, '--year') })}` }),
  },
  'aml annual-report': {
    usage: 'OPERATOR_ID --year YYYY [--version N] [--raw]  (prints the kept file itself with --raw; its state, hash check and figures otherwise)',
    run: (a) => ({
      method: 'GET',
      path: `/admin/aml/operators/${need(a._[2], 'OPERATOR_ID')}/annual-reports/${need(a.year as string, '--year')}${q({ version: a.version as string })}`,
    }),
  },
  'aml make-annual-report': {
    usage: 'OPERATOR_ID --year YYYY (a year that is over; a new version each time, kept with its SHA-256)',
    run: (a) => ({
      method: 'POST',
      path: `/admin/aml/operators/${need(a._[2], 'OPERATOR_ID')}/annual-reports`,
      body: { year: Number(need(a.year as string, '--year')) },
    }),
  },
  'aml subjects': {
    usage: '[--kind team_member|partner|supplier] [--operator OPERATOR_ID|none] [--rating low|medium|high] [--overdue] [--ended] [--limit 50] [--cursor C]',
    run: (a) => ({
      method: 'GET',
      path: `/admin/aml/risk-subjects${q({
        kind: a.kind as string,
        operatorId: a.operator as string,
        rating: a.rating as string,
        reviewDue: 'overdue' in a ? 'overdue' : undefined,
        status: 'ended' in a ? 'ended' : undefined,
        limit: a.limit as string,
        cursor: a.cursor as string,
      })}`,
    }),
  },
  'aml subject': { usage: 'SUBJECT_ID', run: (a) => ({ method: 'GET', path: `/admin/aml/risk-subjects/${need(a._[2], 'SUBJECT_ID')}` }) },
  'aml add-subject': {
    usage:
      '--kind team_member|partner|supplier --name NAME [--document CPF_OR_CNPJ] [--team-member USER_ID] [--operator OPERATOR_ID] --rating low|medium|high --rationale TEXT',
    run: (a) => ({
      method: 'POST',
      path: '/admin/aml/risk-subjects',
      body: {
        kind: need(a.kind as string, '--kind'),
        name: need(a.name as string, '--name'),
        ...(a.document ? { document: a.document } : {}),
        ...(a['team-member'] ? { teamMemberId: a['team-member'] } : {}),
        ...(a.operator ? { operatorId: a.operator } : {}),
        rating: need(a.rating as string, '--rating'),
        rationale: need(a.rationale as string, '--rationale'),
      },
    }),
  },
  'aml rate-subject': {
    usage: 'SUBJECT_ID --rating low|medium|high --rationale TEXT (a review: the next review date follows from the rating)',
    run: (a) => ({
      method: 'POST',
      path: `/admin/aml/risk-subjects/${need(a._[2], 'SUBJECT_ID')}/ratings`,
      body: { rating: need(a.rating as string, '--rating'), rationale: need(a.rationale as string, '--rationale') },
    }),
  },
  'aml end-subject': {
    usage: 'SUBJECT_ID --reason TEXT (the relationship ended; the subject and its ratings are kept)',
    run: (a) => ({
      method: 'POST',
      path: `/admin/aml/risk-subjects/${need(a._[2], 'SUBJECT_ID')}/end`,
      body: { reason: need(a.reason as string, '--reason') },
    }),
  },
  // Our internal impediments registry (compliance role; Lei 14.790/2023 art. 26, docs/eligibility.md).
  'impediments list': {
    usage: '[--cpf CPF] [--limit 50] [--cursor C]',
    run: (a) => ({ method: 'GET', path: `/admin/impediments${q({ cpf: a.cpf as string, limit: a.limit as string, cursor: a.cursor as string })}` }),
  },
  'impediments add': {
    usage:
      'CPF --category operator_staff|regulator|system_access|athlete|referee|coach|sports_official|sports_agent|gambling_disorder|court_or_administrative_order|relative --note TEXT (restricts its production br-spa players at once)',
    run: (a) => ({
      method: 'POST',
      path: '/admin/impediments',
      body: { cpf: need(a._[2], 'CPF'), category: need(a.category as string, '--category'), note: need(a.note as string, '--note') },
    }),
  },
  'impediments remove': {
    usage: 'CPF (a player already restricted stays restricted)',
    run: (a) => ({ method: 'DELETE', path: `/admin/impediments/${encodeURIComponent(need(a._[2], 'CPF'))}` }),
  },
  // Game providers and their wallet API (admin role; docs/providers.md, "Our team's side").
  'providers create': {
    usage:
      '--name NAME --kind casino|sportsbook [--protocol native|hub88] [--launch-url URL] [--launch-timeout-ms 3000] [--allowed-ips IP[,CIDR...]] [--open-round-limit-minutes 60]',
    run: (a) => ({
      method: 'POST',
      path: '/admin/providers',
      body: {
        name: need(a.name as string, '--name'),
        kind: need(a.kind as string, '--kind'),
        ...(a.protocol !== undefined ? { protocol: a.protocol } : {}),
        ...providerSettings(a),
      },
    }),
  },
  'providers list': { usage: '', run: () => ({ method: 'GET', path: '/admin/providers' }) },
  'providers show': { usage: 'PROVIDER_ID', run: (a) => ({ method: 'GET', path: `/admin/providers/${need(a._[2], 'PROVIDER_ID')}` }) },
  'providers update': {
    usage: 'PROVIDER_ID [--launch-url URL|none] [--launch-timeout-ms N] [--allowed-ips IP[,CIDR...]|none] [--open-round-limit-minutes N]',
    run: (a) => ({ method: 'PUT', path: `/admin/providers/${need(a._[2], 'PROVIDER_ID')}`, body: providerSettings(a) }),
  },
  'providers disable': {
    usage: 'PROVIDER_ID (no new bets; its wins and rollbacks still settle)',
    run: (a) => ({ method: 'PUT', path: `/admin/providers/${need(a._[2], 'PROVIDER_ID')}`, body: { status: 'disabled' } }),
  },
  'providers enable': {
    usage: 'PROVIDER_ID',
    run: (a) => ({ method: 'PUT', path: `/admin/providers/${need(a._[2], 'PROVIDER_ID')}`, body: { status: 'enabled' } }),
  },
  'providers enable-operator': {
    usage: "PROVIDER_ID OPERATOR_ID (the provider's games are offered to the operator)",
    run: (a) => ({
      method: 'PUT',
      path: `/admin/providers/${need(a._[2], 'PROVIDER_ID')}/operators/${need(a._[3], 'OPERATOR_ID')}`,
      body: { enabled: true },
    }),
  },
  'providers disable-operator': {
    usage: 'PROVIDER_ID OPERATOR_ID',
    run: (a) => ({
      method: 'PUT',
      path: `/admin/providers/${need(a._[2], 'PROVIDER_ID')}/operators/${need(a._[3], 'OPERATOR_ID')}`,
      body: { enabled: false },
    }),
  },
  'providers keys issue': {
    usage:
      "PROVIDER_ID --environment sandbox|production [--overlap-minutes N] (the key and secret are printed once; with an overlap, the environment's keys in use stop then: a rotation)",
    run: (a) => ({
      method: 'POST',
      path: `/admin/providers/${need(a._[3], 'PROVIDER_ID')}/credentials`,
      body: {
        environment: need(a.environment as string, '--environment'),
        ...(a['overlap-minutes'] !== undefined ? { overlapMinutes: Number(a['overlap-minutes']) } : {}),
      },
    }),
  },
  'providers keys list': {
    usage: 'PROVIDER_ID (prefixes and states, never a secret)',
    run: (a) => ({ method: 'GET', path: `/admin/providers/${need(a._[3], 'PROVIDER_ID')}/credentials` }),
  },
  'providers keys revoke': {
    usage: 'PROVIDER_ID CREDENTIAL_ID (refused at once by every gateway)',
    run: (a) => ({
      method: 'POST',
      path: `/admin/providers/${need(a._[3], 'PROVIDER_ID')}/credentials/${need(a._[4], 'CREDENTIAL_ID')}/revoke`,
    }),
  },
  'providers games put': {
    usage: 'PROVIDER_ID GAME_CODE --name NAME --category CATEGORY [--disabled] (adds the game or changes it)',
    run: (a) => ({
      method: 'PUT',
      path: `/admin/providers/${need(a._[3], 'PROVIDER_ID')}/games/${encodeURIComponent(need(a._[4], 'GAME_CODE'))}`,
      body: { name: need(a.name as string, '--name'), category: need(a.category as string, '--category'), enabled: !('disabled' in a) },
    }),
  },
  'providers games list': {
    usage: 'PROVIDER_ID',
    run: (a) => ({ method: 'GET', path: `/admin/providers/${need(a._[3], 'PROVIDER_ID')}/games` }),
  },
  'providers open-rounds': {
    usage: "PROVIDER_ID (casino rounds left open past the provider's limit, oldest first)",
    run: (a) => ({ method: 'GET', path: `/admin/providers/${need(a._[2], 'PROVIDER_ID')}/open-rounds` }),
  },
  'providers debts': {
    usage: "PROVIDER_ID (players who owe the provider: corrections' debits their balance did not cover)",
    run: (a) => ({ method: 'GET', path: `/admin/providers/${need(a._[2], 'PROVIDER_ID')}/debts` }),
  },
  // A connector's provider (docs/connectors.md): settings, keys and game list per environment.
  'providers connector show': {
    usage: 'PROVIDER_ID (per environment: the endpoint URL to hand the aggregator, settings, keys, health)',
    run: (a) => ({ method: 'GET', path: `/admin/providers/${need(a._[3], 'PROVIDER_ID')}/connector` }),
  },
  'providers connector set': {
    usage:
      'PROVIDER_ID --environment sandbox|production ((--operator-id N | --casino-key KEY) --api-base-url URL [--lobby-url URL] | --frame-url URL) [--lang pt] (Hub88: --operator-id; Evolution: --casino-key; Betsy: --frame-url)',
    run: (a) => ({
      method: 'PUT',
      path: `/admin/providers/${need(a._[3], 'PROVIDER_ID')}/connector/${need(a.environment as string, '--environment')}`,
      body:
        // Betsy: the page its frame starts in (docs/connectors-betsy.md).
        a['frame-url'] !== undefined
          ? { settings: { frameUrl: a['frame-url'], ...(a.lang !== undefined ? { lang: a.lang } : {}) } }
          : {
              settings: {
                ...(a['casino-key'] !== undefined
                  ? { casinoKey: a['casino-key'] }
                  : { operatorId: Number(need(a['operator-id'] as string, '--operator-id or --casino-key')) }),
                apiBaseUrl: need(a['api-base-url'] as string, '--api-base-url'),
                ...(a.lang !== undefined ? { lang: a.lang } : {}),
                ...(a['lobby-url'] !== undefined ? { lobbyUrl: a['lobby-url'] } : {}),
              },
            },
    }),
  },
  'providers connector secret': {
    usage:
      'PROVIDER_ID --environment E --name authToken|casinoToken|partnerSecret --value-file FILE [--overlap-minutes N] (a token or key they gave us, sealed; never printed back)',
    run: (a) => ({
      method: 'POST',
      path: `/admin/providers/${need(a._[3], 'PROVIDER_ID')}/connector/${need(a.environment as string, '--environment')}/secrets`,
      body: {
        name: need(a.name as string, '--name'),
        value: readFileSync(need(a['value-file'] as string, '--value-file'), 'utf8').trim(),
        ...(a['overlap-minutes'] !== undefined ? { overlapMinutes: Number(a['overlap-minutes']) } : {}),
      },
    }),
  },
  'providers connector their-key': {
    usage: 'PROVIDER_ID --environment E --public-key-file FILE.pem [--overlap-minutes N] (their key in use keeps verifying that long; 0: at once)',
    run: (a) => ({
      method: 'POST',
      path: `/admin/providers/${need(a._[3], 'PROVIDER_ID')}/connector/${need(a.environment as string, '--environment')}/their-keys`,
      body: {
        publicKey: readFileSync(need(a['public-key-file'] as string, '--public-key-file'), 'utf8'),
        ...(a['overlap-minutes'] !== undefined ? { overlapMinutes: Number(a['overlap-minutes']) } : {}),
      },
    }),
  },
  'providers connector our-key': {
    usage: 'PROVIDER_ID --environment E [--overlap-minutes N] (a new key pair of ours: its public key printed, to hand over; it signs once the overlap ends)',
    run: (a) => ({
      method: 'POST',
      path: `/admin/providers/${need(a._[3], 'PROVIDER_ID')}/connector/${need(a.environment as string, '--environment')}/our-keys`,
      body: a['overlap-minutes'] !== undefined ? { overlapMinutes: Number(a['overlap-minutes']) } : {},
    }),
  },
  'providers connector revoke-key': {
    usage: 'PROVIDER_ID KEY_ID --environment E (a key ck_… or a secret cs_…: theirs stops verifying, ours stops signing, at once)',
    run: (a) => ({
      method: 'POST',
      path: `/admin/providers/${need(a._[3], 'PROVIDER_ID')}/connector/${need(a.environment as string, '--environment')}/keys/${need(a._[4], 'KEY_ID')}/revoke`,
    }),
  },
  'providers connector sync-games': {
    usage: "PROVIDER_ID --environment E (the aggregator's game list into our catalogue)",
    run: (a) => ({
      method: 'POST',
      path: `/admin/providers/${need(a._[3], 'PROVIDER_ID')}/connector/${need(a.environment as string, '--environment')}/sync-games`,
    }),
  },
  audit: {
    usage: '[--target operator:ID] [--limit 50]',
    run: (a) => ({ method: 'GET', path: `/admin/audit${q({ target: a.target as string, limit: a.limit as string })}` }),
  },
};

/** The commands whose answer carries a one-time password: printed only when asked (--show-password). */
const PASSWORD_ANSWERS = new Set(['users create', 'users reset-password']);
function withheld(name: string, args: Args, answer: unknown): unknown {
  if (!PASSWORD_ANSWERS.has(name) || 'show-password' in args || typeof answer !== 'object' || answer === null || !('password' in answer)) return answer;
  return {
    ...answer,
    password: '(not printed: it is shown once; issue another from the console Team page (Reset password), or rerun with --show-password to print it here)',
  };
}

/**
 * X-Admin-Actor (outside production, ADMIN_TOKEN's stand-in; ignored with a person's token and in
 * production): ADMIN_ACTOR as given (the API refuses one that is not a label), else the login name
 * when it is a label (letters, digits, `.`, `_`, `-`), else `cli`. Never an e-mail: a label names no team member.
 */
function standInLabel(): string {
  if (process.env.ADMIN_ACTOR) return process.env.ADMIN_ACTOR;
  const user = process.env.USER ?? '';
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(user) ? user : 'cli';
}

function help(): void {
  console.log(`Usage: npm run admin -- <command> [args]   (ADMIN_URL=${ADMIN_URL})\n`);
  for (const [name, c] of Object.entries(COMMANDS)) console.log(`  ${name} ${c.usage}`);
}

async function main(): Promise<number> {
  const args = parse(process.argv.slice(2));
  // The longest command name the words start with (`providers keys issue` before `providers keys`).
  const name = [args._.slice(0, 3).join(' '), args._.slice(0, 2).join(' '), args._[0]].find((n) => n && COMMANDS[n]);
  if (!name) {
    help();
    return args._.length ? 1 : 0;
  }
  if (!ADMIN_TOKEN) {
    console.error('Set ADMIN_TOKEN (or run npm start once, which keeps it in .data/admin-token).');
    return 1;
  }
  const { method, path: p, body } = COMMANDS[name]!.run(args);
  const res = await fetch(`${ADMIN_URL}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      'x-admin-actor': standInLabel(),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  // `reports daily-file`, `reports sigap-file`: the file itself, as downloaded, ready to save.
  if ((name === 'reports daily-file' || name === 'reports sigap-file') && res.ok) {
    process.stdout.write(text);
    return 0;
  }
  try {
    const parsed = JSON.parse(text);
    // `aml cos --csv`: the CSV itself, ready to save.
    if (name === 'aml cos' && res.ok && 'csv' in args) process.stdout.write(parsed.csv);
    // `aml annual-report --raw`: the kept file itself, byte for byte (its SHA-256 is the answer's `sha256`).
    else if (name === 'aml annual-report' && res.ok && 'raw' in args && parsed.file) process.stdout.write(parsed.file);
    else console.log(JSON.stringify(withheld(name, args, parsed), null, 2));
  } catch {
    console.log(text);
  }
  if (name === 'ledger verify' && res.ok && JSON.parse(text).ok === false) return 2;
  return res.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
