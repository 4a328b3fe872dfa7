// A provider's day for our team (GET /admin/providers/{id}/daily-report): per brand and currency,
// its bets, wins, rollbacks and corrections from the provider transactions of the day, and beside
// them the day's entries of the brand's clearing account with the provider as the ledger has them.
// Each provider transaction that moved money is one ledger transaction whose clearing entry is the
// opposite of the player's, so the clearing account's net for the day is the provider's GGR: the
// report ties when both agree, per brand. A UTC day (providers invoice in UTC).
import type { ProviderDayBrand } from '@bo/contracts';
import { formatMoney, Money, type SqlRunner } from '@bo/service-kit';

interface TransactionSums {
  brand_id: string;
  currency: string;
  kind: 'bet' | 'win' | 'rollback' | 'correction';
  n: number;
  moved: string;
}

interface LedgerSums {
  brand_id: string;
  currency: string;
  net: string;
  entries: number;
}

const KINDS = { bet: 'bets', win: 'wins', rollback: 'rollbacks', correction: 'corrections' } as const;

export async function providerDay(sql: SqlRunner, providerId: string, from: Date, to: Date): Promise<ProviderDayBrand[]> {
  // Transactions that moved nothing (a lost round's win of 0.00, a rollback of a bet never received) are counted too.
  const sums = await sql.query<TransactionSums>(
    `select brand_id, currency, kind, count(*)::int as n, coalesce(sum(moved), 0)::text as moved
     from wallet.provider_transactions
     where provider_id = ? and created_at >= ? and created_at < ? and not never_received
     group by brand_id, currency, kind`,
    [providerId, from, to],
  );
  // The clearing accounts of this provider (acct:provider_clearing:<brand>:<provider>:<currency>), on the entries' (account, time) index.
  const ledger = await sql.query<LedgerSums>(
    `select a.brand_id, a.currency, coalesce(sum(e.amount), 0)::text as net, count(e.id)::int as entries
     from wallet.accounts a
     join wallet.ledger_entries e on e.account_id = a.id and e.created_at >= ? and e.created_at < ?
     where a.kind = 'provider_clearing' and a.id = 'acct:provider_clearing:' || a.brand_id || ':' || ?::text || ':' || a.currency
     group by a.brand_id, a.currency`,
    [from, to, providerId],
  );
  const key = (b: string, c: string) => `${b}/${c}`;
  const brands = new Map<string, ProviderDayBrand>();
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
        ggr: '0.00',
        ledgerNet: '0.00',
        ledgerEntries: 0,
        ties: true,
      };
      brands.set(k, b);
    }
    return b;
  };
  for (const s of sums) brandOf(s.brand_id, s.currency)[KINDS[s.kind]] = { count: s.n, amount: formatMoney(s.moved) };
  for (const l of ledger) {
    const b = brandOf(l.brand_id, l.currency);
    b.ledgerNet = formatMoney(l.net);
    b.ledgerEntries = l.entries;
  }
  for (const b of brands.values()) {
    // What players lost to the provider: the opposite of what moved on their side.
    b.ggr = formatMoney(new Money(0).minus(b.bets.amount).minus(b.wins.amount).minus(b.rollbacks.amount).minus(b.corrections.amount));
    b.ties = new Money(b.ggr).comparedTo(b.ledgerNet) === 0;
  }
  return [...brands.values()].sort((x, y) => key(x.brandId, x.currency).localeCompare(key(y.brandId, y.currency)));
}
