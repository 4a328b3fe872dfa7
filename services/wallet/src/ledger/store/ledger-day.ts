// wallet.ledgerDay (the daily regulator file, services/compliance): each player account of a brand
// over [from, to): its balance before `from` and before `to` (the balance after its last entry
// then), and the signed sum of its entries in between by type. One statement on the entries'
// (account, time) index; paged by player and currency when the caller gives a limit (a brand's
// accounts in one answer would pass the NATS payload limit past a few thousand).
import type { LedgerDayAccount } from '@bo/contracts';
import { formatMoney, type SqlRunner } from '@bo/service-kit';

interface Row {
  player_id: string;
  currency: string;
  opening: string;
  closing: string;
  deposits: string;
  withdrawals: string;
  bets: string;
  wins: string;
  other: string;
  entries: number;
}

const ACCOUNTS_AFTER = `and (a.player_id, a.currency) > (?, ?)`;

export async function ledgerDay(
  sql: SqlRunner,
  brandId: string,
  from: string,
  to: string,
  page?: { after?: { playerId: string; currency: string }; limit: number },
): Promise<LedgerDayAccount[]> {
  const rows = await sql.query<Row>(
    `select a.player_id, a.currency,
       coalesce((select x.balance_after from wallet.ledger_entries x where x.account_id = a.id and x.created_at < ?::timestamptz order by x.account_seq desc limit 1), 0)::text as opening,
       coalesce((select x.balance_after from wallet.ledger_entries x where x.account_id = a.id and x.created_at < ?::timestamptz order by x.account_seq desc limit 1), 0)::text as closing,
       coalesce(sum(e.amount) filter (where e.type = 'DEPOSIT'), 0)::text as deposits,
       coalesce(sum(e.amount) filter (where e.type = 'WITHDRAWAL'), 0)::text as withdrawals,
       coalesce(sum(e.amount) filter (where e.type = 'BET'), 0)::text as bets,
       coalesce(sum(e.amount) filter (where e.type = 'WIN'), 0)::text as wins,
       coalesce(sum(e.amount) filter (where e.type not in ('DEPOSIT', 'WITHDRAWAL', 'BET', 'WIN')), 0)::text as other,
       count(e.id)::int as entries
     from wallet.accounts a
     left join wallet.ledger_entries e on e.account_id = a.id and e.created_at >= ?::timestamptz and e.created_at < ?::timestamptz
     where a.kind = 'player' and a.brand_id = ? and a.created_at < ?::timestamptz ${page ? ACCOUNTS_AFTER : ''}
     group by a.id, a.player_id, a.currency
     order by a.player_id, a.currency${page ? ' limit ?' : ''}`,
    [from, to, from, to, brandId, to, ...(page ? [page.after?.playerId ?? '', page.after?.currency ?? '', page.limit] : [])],
  );
  return rows.map((r) => ({
    playerId: r.player_id,
    currency: r.currency,
    opening: formatMoney(r.opening),
    deposits: formatMoney(r.deposits),
    withdrawals: formatMoney(r.withdrawals),
    bets: formatMoney(r.bets),
    wins: formatMoney(r.wins),
    other: formatMoney(r.other),
    closing: formatMoney(r.closing),
    entries: r.entries,
  }));
}
