// A provider's day for our team (GET /admin/providers/{id}/daily-report): per brand and currency,
// its bets, wins, rollbacks and corrections from the provider transactions of the day, and beside
// them the day's entries of the brand's clearing account with the provider as the ledger has them.
// Each provider transaction that moved money is one ledger transaction whose clearing entry is the
// opposite of the player's, so the clearing account's net for the day is the provider's GGR: the
// report ties when both agree, per brand. Each brand's day is its own calendar day in its time zone
// (its operator's compliance profile: Brasília for br-spa), as every other report of a brand's day
// (issue #61; it was the UTC day before).
import type { ProviderDayBrand } from '@bo/contracts';
import { formatMoney, isoTime, Money, type SqlRunner } from '@bo/service-kit';

/** The brands (with their operators) this provider's transactions touched around `date`: within a day either side of its UTC day, so every zone's day is covered. */
export async function brandsAroundDay(sql: SqlRunner, providerId: string, date: string): Promise<Array<{ brandId: string; operatorId: string }>> {
  const rows = await sql.query<{ brand_id: string; operator_id: string }>(
    `select distinct r.brand_id, r.operator_id
     from wallet.provider_transactions t
     join wallet.provider_rounds r on r.provider_id = t.provider_id and r.round_id = t.round_id
     where t.provider_id = ? and t.created_at >= (?::date - 1)::timestamp at time zone 'UTC' and t.created_at < (?::date + 2)::timestamp at time zone 'UTC'
     order by r.brand_id`,
    [providerId, date, date],
  );
  return rows.map((r) => ({ brandId: r.brand_id, operatorId: r.operator_id }));
}

/** `date`'s bounds in `timeZone` (Postgres' zone rules: a day of 23 or 25 hours across a DST change). */
export async function zonedDayBounds(sql: SqlRunner, date: string, timeZone: string): Promise<{ from: string; to: string }> {
  const rows = await sql.query<{ from: string | Date; to: string | Date }>(
    `select (?::date)::timestamp at time zone ?::text as "from", (?::date + 1)::timestamp at time zone ?::text as "to"`,
    [date, timeZone, date, timeZone],
  );
  return { from: isoTime(rows[0]!.from), to: isoTime(rows[0]!.to) };
}

interface TransactionSums {
  brand_id: string;
  currency: string;
  kind: 'bet' | 'win' | 'rollback' | 'correction' | 'free_bet' | 'promo_credit' | 'jackpot_win';
  n: number;
  moved: string;
}

interface LedgerSums {
  brand_id: string;
  currency: string;
  net: string;
  entries: number;
}

const KINDS = {
  bet: 'bets',
  win: 'wins',
  rollback: 'rollbacks',
  correction: 'corrections',
  free_bet: 'freeBets',
  promo_credit: 'credits',
  jackpot_win: 'credits',
} as const;

/** One brand's figures of the provider over [from, to): that brand's day, in its zone. */
export type BrandDayFigures = Omit<ProviderDayBrand, 'timeZone' | 'from' | 'to'>;

export async function providerDay(sql: SqlRunner, providerId: string, from: Date | string, to: Date | string, brandId?: string): Promise<BrandDayFigures[]> {
  // Transactions that moved nothing (a lost round's win of 0.00, a rollback of a bet never received) are counted too.
  const sums = await sql.query<TransactionSums>(
    `select brand_id, currency, kind, count(*)::int as n, coalesce(sum(moved), 0)::text as moved
     from wallet.provider_transactions
     where provider_id = ? and created_at >= ? and created_at < ? and not never_received and (?::text is null or brand_id = ?)
     group by brand_id, currency, kind`,
    [providerId, from, to, brandId ?? null, brandId ?? null],
  );
  // The clearing accounts of this provider (acct:provider_clearing:<brand>:<provider>:<currency>), on the entries' (account, time) index.
  const ledger = await sql.query<LedgerSums>(
    `select a.brand_id, a.currency, coalesce(sum(e.amount), 0)::text as net, count(e.id)::int as entries
     from wallet.accounts a
     join wallet.ledger_entries e on e.account_id = a.id and e.created_at >= ? and e.created_at < ?
     where a.kind = 'provider_clearing' and a.id = 'acct:provider_clearing:' || a.brand_id || ':' || ?::text || ':' || a.currency
       and (?::text is null or a.brand_id = ?)
     group by a.brand_id, a.currency`,
    [from, to, providerId, brandId ?? null, brandId ?? null],
  );
  const key = (b: string, c: string) => `${b}/${c}`;
  const brands = new Map<string, BrandDayFigures>();
  const brandOf = (brandId: string, currency: string) => {
    const k = key(brandId, currency);
    let b = brands.get(k);
    if (!b) {
      const zero = () => ({ count: 0, amount: '0.00' });
      b = {
        brandId,
        currency,
        bets: zero(),
        wins: zero(),
        rollbacks: zero(),
        corrections: zero(),
        freeBets: zero(),
        credits: zero(),
        ggr: '0.00',
        ledgerNet: '0.00',
        ledgerEntries: 0,
        ties: true,
      };
      brands.set(k, b);
    }
    return b;
  };
  for (const s of sums) {
    const b = brandOf(s.brand_id, s.currency);
    const into = KINDS[s.kind];
    // A promotional credit and a jackpot win both land in `credits` (issue #59 item 1).
    const was = b[into] ?? { count: 0, amount: '0.00' };
    b[into] = { count: was.count + s.n, amount: formatMoney(new Money(was.amount).plus(s.moved)) };
  }
  for (const l of ledger) {
    const b = brandOf(l.brand_id, l.currency);
    b.ledgerNet = formatMoney(l.net);
    b.ledgerEntries = l.entries;
  }
  for (const b of brands.values()) {
    // What players lost to the provider: the opposite of what moved on their side.
    b.ggr = formatMoney(
      new Money(0)
        .minus(b.bets.amount)
        .minus(b.wins.amount)
        .minus(b.rollbacks.amount)
        .minus(b.corrections.amount)
        .minus(b.credits?.amount ?? 0),
    );
    b.ties = new Money(b.ggr).comparedTo(b.ledgerNet) === 0;
  }
  return [...brands.values()].sort((x, y) => key(x.brandId, x.currency).localeCompare(key(y.brandId, y.currency)));
}

/**
 * The provider's clearing accounts now, one per brand and currency (issue #61): each balance is what
 * the brand owes the provider (positive) or is owed (negative), read from wallet.account_balances
 * (rolled up plus the entries not rolled up yet), with the brand's environment as its transactions say.
 */
export async function clearingBalances(
  sql: SqlRunner,
  providerId: string,
): Promise<Array<{ brandId: string; environment: 'sandbox' | 'production'; currency: string; balance: string }>> {
  const rows = await sql.query<{ brand_id: string; currency: string; available: string; environment: 'sandbox' | 'production' | null }>(
    `select b.brand_id, b.currency, b.available::text as available,
       (select t.environment from wallet.provider_transactions t where t.provider_id = ?::text and t.brand_id = b.brand_id limit 1) as environment
     from wallet.account_balances b
     where b.kind = 'provider_clearing' and b.id = 'acct:provider_clearing:' || b.brand_id || ':' || ?::text || ':' || b.currency
     order by b.brand_id, b.currency`,
    [providerId, providerId],
  );
  return rows.map((r) => ({ brandId: r.brand_id, environment: r.environment ?? 'production', currency: r.currency, balance: formatMoney(r.available) }));
}
