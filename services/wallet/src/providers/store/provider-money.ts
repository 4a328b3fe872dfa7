// Issue #59 items 2 and 3 (docs/money.md, "Reconciliation with a provider", "What the brand owes a
// provider"): the provider's revenue shares (a row per change: the history), its month per brand
// and currency from its transactions beside the brand's clearing account entries, its transactions
// as it reads them (by id, round, time), and its daily statements matched to our transactions.
// Plain SQL; a provider's transactions are read brand by brand on (brand_id, created_at, id), the
// brands found from the provider's clearing accounts. Statements and differences are records, never
// deleted: a part uploaded again, a day reconciled again, marks the earlier rows superseded.
import type { Environment, ProviderRevenueShare, ProviderStatementMapping, ReconciliationDay, ReconciliationDifference } from '@bo/contracts';
import { formatMoney, isoTime, Money, type SqlRunner } from '@bo/service-kit';
import type { StatementLine } from '../domain/statements.ts';

// ---- revenue shares ----

const SHARE_FIELDS = `id, provider_id as "providerId", to_char(effective_from, 'YYYY-MM') as "effectiveFrom", share_percent::text as "sharePercent",
  reason, set_by as "setBy", created_at as "createdAt"`;
const asShare = (r: ProviderRevenueShare): ProviderRevenueShare => ({ ...r, createdAt: isoTime(r.createdAt) });

export async function insertRevenueShare(
  sql: SqlRunner,
  s: { id: string; providerId: string; effectiveFrom: string; sharePercent: string; reason: string; setBy: string },
): Promise<ProviderRevenueShare> {
  const [row] = await sql.query<ProviderRevenueShare>(
    `insert into wallet.provider_revenue_shares (id, provider_id, effective_from, share_percent, reason, set_by)
     values (?, ?, (? || '-01')::date, ?::numeric, ?, ?) returning ${SHARE_FIELDS}`,
    [s.id, s.providerId, s.effectiveFrom, s.sharePercent, s.reason, s.setBy],
  );
  return asShare(row!);
}

export async function revenueShares(sql: SqlRunner, providerId: string): Promise<ProviderRevenueShare[]> {
  const rows = await sql.query<ProviderRevenueShare>(
    `select ${SHARE_FIELDS} from wallet.provider_revenue_shares where provider_id = ? order by effective_from desc, created_at desc`,
    [providerId],
  );
  return rows.map(asShare);
}

/** The share in force for a month: the latest change set for it or an earlier month. */
export async function shareOfMonth(sql: SqlRunner, providerId: string, month: string): Promise<string | null> {
  const [row] = await sql.query<{ share: string }>(
    `select share_percent::text as share from wallet.provider_revenue_shares
     where provider_id = ? and effective_from <= (? || '-01')::date order by effective_from desc, created_at desc limit 1`,
    [providerId, month],
  );
  return row ? formatMoney(row.share) : null;
}

// ---- the month ----

/** The provider's clearing accounts (brand, currency) with an operator of the brand that launched its games. */
export async function providerBrands(sql: SqlRunner, providerId: string): Promise<Array<{ brandId: string; currency: string; operatorId: string | null }>> {
  return sql.query(
    `select a.brand_id as "brandId", a.currency,
            (select s.operator_id from wallet.provider_sessions s where s.provider_id = ?::text and s.brand_id = a.brand_id limit 1) as "operatorId"
     from wallet.accounts a
     where a.kind = 'provider_clearing' and a.id = 'acct:provider_clearing:' || a.brand_id || ':' || ?::text || ':' || a.currency
     order by a.brand_id, a.currency`,
    [providerId, providerId],
  );
}

export async function zonedMonthBounds(sql: SqlRunner, month: string, timeZone: string): Promise<{ from: string; to: string }> {
  const [row] = await sql.query<{ from: Date; to: Date }>(
    `select ((? || '-01')::date)::timestamp at time zone ?::text as "from",
            (((? || '-01')::date) + interval '1 month')::timestamp at time zone ?::text as "to"`,
    [month, timeZone, month, timeZone],
  );
  return { from: isoTime(row!.from), to: isoTime(row!.to) };
}

type Figure = { count: number; amount: string };
export interface MonthFigures {
  bets: Figure;
  wins: Figure;
  rollbacks: Figure;
  corrections: Figure;
  freeBets: Figure;
  freeBetWins: Figure;
  promoCredits: Figure;
  jackpotContributions: Figure;
  jackpotWins: Figure;
  ledgerNet: string;
  ledgerEntries: number;
}

const FIGURES = {
  bets: [`kind = 'bet' and not never_received`, 'moved'],
  wins: [`kind = 'win' and not provider_funded`, 'moved'],
  rollbacks: [`kind = 'rollback'`, 'moved'],
  corrections: [`kind = 'correction'`, 'moved'],
  freeBets: [`kind = 'free_bet' and rolled_back_by is null`, '-requested'],
  freeBetWins: [`(kind = 'win' and provider_funded) or (kind = 'promo_credit' and promotion_type = 'free_round_winnings')`, 'moved'],
  promoCredits: [`kind = 'promo_credit' and promotion_type <> 'free_round_winnings'`, 'moved'],
  jackpotContributions: [`kind = 'bet' and jackpot_contribution is not null and rolled_back_by is null`, 'jackpot_contribution'],
  jackpotWins: [`kind = 'jackpot_win'`, 'moved'],
} as const;
type FigureName = keyof typeof FIGURES;

/** A brand's and currency's figures of the provider over [from, to), and its clearing account's entries over the same span. */
export async function monthFigures(sql: SqlRunner, providerId: string, brandId: string, currency: string, from: string, to: string): Promise<MonthFigures> {
  const names = Object.keys(FIGURES) as FigureName[];
  const select = names
    .map(
      (n) =>
        `count(*) filter (where ${FIGURES[n][0]})::int as "${n}Count", coalesce(sum(${FIGURES[n][1]}) filter (where ${FIGURES[n][0]}), 0)::text as "${n}Amount"`,
    )
    .join(',\n            ');
  const [row] = await sql.query<Record<string, string | number>>(
    `select ${select},
            (select coalesce(sum(e.amount), 0)::text from wallet.ledger_entries e
              where e.account_id = 'acct:provider_clearing:' || ?::text || ':' || ?::text || ':' || ?::text and e.created_at >= ?::timestamptz and e.created_at < ?::timestamptz) as "ledgerNet",
            (select count(*)::int from wallet.ledger_entries e
              where e.account_id = 'acct:provider_clearing:' || ?::text || ':' || ?::text || ':' || ?::text and e.created_at >= ?::timestamptz and e.created_at < ?::timestamptz) as "ledgerEntries"
     from wallet.provider_transactions
     where brand_id = ? and created_at >= ?::timestamptz and created_at < ?::timestamptz and provider_id = ? and currency = ?`,
    [brandId, providerId, currency, from, to, brandId, providerId, currency, from, to, brandId, from, to, providerId, currency],
  );
  const out = { ledgerNet: formatMoney(String(row!.ledgerNet)), ledgerEntries: Number(row!.ledgerEntries) } as MonthFigures;
  for (const n of names) out[n] = { count: Number(row![`${n}Count`]), amount: formatMoney(String(row![`${n}Amount`])) };
  return out;
}

/** GGR, the share and what is due (ProviderMonthBrandSchema says how each is made). */
export function amountsDue(f: MonthFigures, sharePercent: string | null) {
  const ggr = new Money(0).minus(f.bets.amount).minus(f.wins.amount).minus(f.rollbacks.amount).minus(f.corrections.amount);
  const netGgr = ggr.minus(f.jackpotContributions.amount);
  const revenueShare = sharePercent !== null && netGgr.gt(0) ? netGgr.times(sharePercent).div(100).decimalPlaces(2, Money.ROUND_HALF_UP) : new Money(0);
  const credits = new Money(f.freeBetWins.amount).plus(f.promoCredits.amount).plus(f.jackpotWins.amount);
  const amountDue = revenueShare.plus(f.jackpotContributions.amount).minus(credits);
  return {
    ggr: formatMoney(ggr),
    netGgr: formatMoney(netGgr),
    sharePercent,
    revenueShare: formatMoney(revenueShare),
    providerFundedCredits: formatMoney(credits),
    amountDue: formatMoney(amountDue),
    ties: ggr.minus(credits).comparedTo(f.ledgerNet) === 0,
  };
}

// ---- the provider's reads of its transactions ----

export interface TransactionRecordRow {
  id: string;
  transactionId: string;
  kind: string;
  playerId: string;
  roundId: string;
  betTransactionId: string | null;
  currency: string;
  requested: string;
  moved: string;
  balance: string;
  status: 'ok' | 'rolled_back' | 'never_received';
  providerFunded: boolean;
  jackpotContribution: string | null;
  promotionType: string | null;
  campaignId: string | null;
  createdAt: string;
}

const RECORD_FIELDS = `id, transaction_id as "transactionId", kind, player_id as "playerId", round_id as "roundId", bet_transaction_id as "betTransactionId",
  currency, requested::text, moved::text, balance_after::text as balance,
  case when never_received then 'never_received' when rolled_back_by is not null then 'rolled_back' else 'ok' end as status,
  provider_funded as "providerFunded", jackpot_contribution::text as "jackpotContribution", promotion_type as "promotionType",
  campaign_id as "campaignId", created_at as "createdAt"`;

const asRecord = (r: TransactionRecordRow): TransactionRecordRow => ({
  ...r,
  requested: formatMoney(r.requested),
  moved: formatMoney(r.moved),
  balance: formatMoney(r.balance),
  jackpotContribution: r.jackpotContribution === null ? null : formatMoney(r.jackpotContribution),
  createdAt: isoTime(r.createdAt),
});

/** A provider's transaction by its id in an environment; a repayment row of ours (its id with a space) is never one of its. */
export async function transactionRecord(sql: SqlRunner, providerId: string, environment: Environment, transactionId: string) {
  const [row] = await sql.query<TransactionRecordRow>(
    `select ${RECORD_FIELDS} from wallet.provider_transactions where provider_id = ? and transaction_id = ? and environment = ? and repays is null`,
    [providerId, transactionId, environment],
  );
  return row && asRecord(row);
}

export async function roundRecords(sql: SqlRunner, providerId: string, environment: Environment, roundId: string) {
  const rows = await sql.query<TransactionRecordRow>(
    `select ${RECORD_FIELDS} from wallet.provider_transactions where provider_id = ? and round_id = ? and environment = ? and repays is null
     order by created_at, id`,
    [providerId, roundId, environment],
  );
  return rows.map(asRecord);
}

/** [from, to), oldest first, after `after` (created_at, id), at most `limit` rows. */
export async function recordsBetween(
  sql: SqlRunner,
  providerId: string,
  environment: Environment,
  from: string,
  to: string,
  limit: number,
  after?: { at: string; id: string },
) {
  const brands = [...new Set((await providerBrands(sql, providerId)).map((b) => b.brandId))];
  const rows = await sql.query<TransactionRecordRow>(
    `select ${RECORD_FIELDS} from wallet.provider_transactions
     where brand_id = any(?::text[]) and created_at >= ?::timestamptz and created_at < ?::timestamptz and provider_id = ? and environment = ? and repays is null
       ${after ? 'and (created_at, id) > (?::timestamptz, ?)' : ''}
     order by created_at, id limit ?`,
    [brands, from, to, providerId, environment, ...(after ? [after.at, after.id] : []), limit],
  );
  return rows.map(asRecord);
}

// ---- daily statements and reconciliation ----

export async function putMapping(sql: SqlRunner, providerId: string, mapping: ProviderStatementMapping): Promise<ProviderStatementMapping | null> {
  const [before] = await sql.query<{ mapping: ProviderStatementMapping }>(
    'select mapping from wallet.provider_statement_mappings where provider_id = ? for update',
    [providerId],
  );
  await sql.query(
    `insert into wallet.provider_statement_mappings (provider_id, mapping) values (?, ?::jsonb)
     on conflict (provider_id) do update set mapping = excluded.mapping, updated_at = now()`,
    [providerId, JSON.stringify(mapping)],
  );
  return before?.mapping ?? null;
}

export async function mappingOf(sql: SqlRunner, providerId: string): Promise<ProviderStatementMapping | undefined> {
  const [row] = await sql.query<{ mapping: ProviderStatementMapping }>('select mapping from wallet.provider_statement_mappings where provider_id = ?', [
    providerId,
  ]);
  return row?.mapping;
}

/** A part of a day's statement; the part uploaded before (if any) is kept, marked superseded by this one, and no longer read. */
export async function recordStatementPart(
  sql: SqlRunner,
  s: {
    id: string;
    providerId: string;
    environment: Environment;
    date: string;
    part: number;
    format: 'csv' | 'json';
    uploadedBy: string;
    lines: StatementLine[];
  },
): Promise<void> {
  // One statement: the earlier part (if any) marked superseded by the new one, kept with its lines (a
  // record), and the new part inserted (the table's unique index holds one current part per day and number).
  await sql.query(
    `with earlier as (
       update wallet.provider_statements set superseded_at = now(), superseded_by = ?
       where provider_id = ? and environment = ? and statement_date = ?::date and part = ? and superseded_at is null
       returning id)
     insert into wallet.provider_statements (id, provider_id, environment, statement_date, part, source, format, lines, uploaded_by)
     select ?, ?, ?, ?::date, ?, 'upload', ?, ?, ? where (select count(*) from earlier) >= 0`,
    [s.id, s.providerId, s.environment, s.date, s.part, s.id, s.providerId, s.environment, s.date, s.part, s.format, s.lines.length, s.uploadedBy],
  );
  const col = <K extends keyof StatementLine>(k: K) => s.lines.map((l) => l[k]);
  await sql.query(
    `insert into wallet.provider_statement_lines (statement_id, line, provider_id, environment, statement_date, transaction_id, kind, amount, currency, status, player_id, round_id, at)
     select ?, n, ?, ?, ?::date, t, k, a::numeric, c, st, p, r, at::timestamptz
     from unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[]) with ordinality as u(t, k, a, c, st, p, r, at, n)`,
    [
      s.id,
      s.providerId,
      s.environment,
      s.date,
      col('transactionId'),
      col('kind'),
      col('amount'),
      col('currency'),
      col('status'),
      col('playerId'),
      col('roundId'),
      col('at'),
    ],
  );
}

type Side = NonNullable<ReconciliationDifference['ours']>;

/**
 * Matches the day's statement lines (every current part) with our transactions of the provider's day (in
 * the mapping's zone) by transaction id, and keeps what it found. Amounts compare signed for the
 * player (ours: what the call asked); a bet we never received (a rollback came first) compares
 * only its status.
 */
export async function reconcileDay(
  sql: SqlRunner,
  providerId: string,
  environment: Environment,
  date: string,
  timeZone: string,
  at: Date,
): Promise<{ day: ReconciliationDay; differences: ReconciliationDifference[] }> {
  const [bounds] = await sql.query<{ from: Date; to: Date }>(
    `select (?::date)::timestamp at time zone ?::text as "from", (?::date + 1)::timestamp at time zone ?::text as "to"`,
    [date, timeZone, date, timeZone],
  );
  const brands = [...new Set((await providerBrands(sql, providerId)).map((b) => b.brandId))];
  const ours = await sql.query<Side & { transactionId: string; neverReceived: boolean }>(
    `select transaction_id as "transactionId", kind, requested::text as amount, currency,
            case when rolled_back_by is not null then 'rolled_back' else 'ok' end as status, player_id as "playerId", round_id as "roundId",
            never_received as "neverReceived"
     from wallet.provider_transactions
     where brand_id = any(?::text[]) and created_at >= ? and created_at < ? and provider_id = ? and environment = ? and repays is null`,
    [brands, bounds!.from, bounds!.to, providerId, environment],
  );
  const theirs = await sql.query<Side & { transactionId: string }>(
    `select l.transaction_id as "transactionId", l.kind, l.amount::text as amount, l.currency, l.status, l.player_id as "playerId", l.round_id as "roundId"
     from wallet.provider_statement_lines l join wallet.provider_statements s on s.id = l.statement_id and s.superseded_at is null
     where l.provider_id = ? and l.environment = ? and l.statement_date = ?::date order by l.statement_id, l.line`,
    [providerId, environment, date],
  );
  const side = (s: Side): Side => ({
    kind: s.kind,
    amount: formatMoney(s.amount),
    currency: s.currency,
    status: s.status,
    playerId: s.playerId ?? null,
    roundId: s.roundId ?? null,
  });
  const theirsById = new Map(theirs.map((l) => [l.transactionId, l]));
  const differences: ReconciliationDifference[] = [];
  let matched = 0;
  for (const o of ours) {
    const l = theirsById.get(o.transactionId);
    if (!l) {
      differences.push({ transactionId: o.transactionId, category: 'ours_only', fields: [], ours: side(o), theirs: null });
      continue;
    }
    theirsById.delete(o.transactionId);
    const fields: string[] = [];
    if (l.kind !== o.kind) fields.push('kind');
    if (!o.neverReceived && new Money(l.amount).comparedTo(o.amount) !== 0) fields.push('amount');
    if (l.currency !== o.currency) fields.push('currency');
    if (fields.length > 0) differences.push({ transactionId: o.transactionId, category: 'amount_differs', fields, ours: side(o), theirs: side(l) });
    else if (l.status !== o.status)
      differences.push({ transactionId: o.transactionId, category: 'status_differs', fields: ['status'], ours: side(o), theirs: side(l) });
    else matched++;
  }
  for (const l of theirsById.values()) differences.push({ transactionId: l.transactionId, category: 'theirs_only', fields: [], ours: null, theirs: side(l) });
  differences.sort((a, b) => (a.category === b.category ? a.transactionId.localeCompare(b.transactionId) : a.category.localeCompare(b.category)));
  const count = (c: ReconciliationDifference['category']) => differences.filter((d) => d.category === c).length;
  const day: ReconciliationDay = {
    providerId,
    environment,
    date,
    timeZone,
    matched,
    oursOnly: count('ours_only'),
    theirsOnly: count('theirs_only'),
    amountDiffers: count('amount_differs'),
    statusDiffers: count('status_differs'),
    ties: differences.length === 0,
    reconciledAt: at.toISOString(),
  };
  await sql.query(
    `insert into wallet.provider_reconciliations (provider_id, environment, statement_date, time_zone, matched, ours_only, theirs_only, amount_differs, status_differs, ties, reconciled_at)
     values (?, ?, ?::date, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (provider_id, environment, statement_date) do update set time_zone = excluded.time_zone, matched = excluded.matched,
       ours_only = excluded.ours_only, theirs_only = excluded.theirs_only, amount_differs = excluded.amount_differs,
       status_differs = excluded.status_differs, ties = excluded.ties, reconciled_at = excluded.reconciled_at`,
    [providerId, environment, date, timeZone, day.matched, day.oursOnly, day.theirsOnly, day.amountDiffers, day.statusDiffers, day.ties, at],
  );
  // What the day's reconciliation found before is kept, superseded by what it finds now.
  await sql.query(
    `update wallet.provider_reconciliation_differences set superseded_at = ?
     where provider_id = ? and environment = ? and statement_date = ?::date and superseded_at is null`,
    [at, providerId, environment, date],
  );
  if (differences.length > 0)
    await sql.query(
      `insert into wallet.provider_reconciliation_differences (provider_id, environment, statement_date, transaction_id, category, fields, ours, theirs)
       select ?, ?, ?::date, d->>'transactionId', d->>'category', array(select jsonb_array_elements_text(d->'fields')), d->'ours', d->'theirs'
       from jsonb_array_elements(?::jsonb) d`,
      [providerId, environment, date, JSON.stringify(differences)],
    );
  return { day, differences };
}

const DAY_FIELDS = `provider_id as "providerId", environment, to_char(statement_date, 'YYYY-MM-DD') as date, time_zone as "timeZone", matched,
  ours_only as "oursOnly", theirs_only as "theirsOnly", amount_differs as "amountDiffers", status_differs as "statusDiffers", ties, reconciled_at as "reconciledAt"`;

export async function reconciledDays(sql: SqlRunner, providerId: string, environment: Environment, from: string, to: string): Promise<ReconciliationDay[]> {
  const rows = await sql.query<ReconciliationDay>(
    `select ${DAY_FIELDS} from wallet.provider_reconciliations
     where provider_id = ? and environment = ? and statement_date between ?::date and ?::date order by statement_date desc`,
    [providerId, environment, from, to],
  );
  return rows.map((r) => ({ ...r, reconciledAt: isoTime(r.reconciledAt) }));
}

export async function reconciledDay(sql: SqlRunner, providerId: string, environment: Environment, date: string) {
  const [day] = await sql.query<ReconciliationDay>(
    `select ${DAY_FIELDS} from wallet.provider_reconciliations where provider_id = ? and environment = ? and statement_date = ?::date`,
    [providerId, environment, date],
  );
  if (!day) return undefined;
  const differences = await sql.query<ReconciliationDifference>(
    `select transaction_id as "transactionId", category, fields, ours, theirs from wallet.provider_reconciliation_differences
     where provider_id = ? and environment = ? and statement_date = ?::date and superseded_at is null order by category, transaction_id`,
    [providerId, environment, date],
  );
  return { day: { ...day, reconciledAt: isoTime(day.reconciledAt) }, differences };
}

/** Days of the last week (any provider, production) whose reconciliation does not tie: the alert's gauge. */
export async function untiedDays(sql: SqlRunner): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `select count(*)::int as n from wallet.provider_reconciliations where not ties and environment = 'production' and statement_date >= current_date - 7`,
  );
  return Number(row?.n ?? 0);
}

/** Holds the reconciliation of a provider's day for the caller's transaction (a part uploaded meanwhile waits for it). */
export async function lockStatementDay(tx: SqlRunner, providerId: string, environment: Environment, date: string): Promise<void> {
  await tx.query('select pg_advisory_xact_lock(hashtext(?))', [`provider-statement:${providerId}:${environment}:${date}`]);
}
