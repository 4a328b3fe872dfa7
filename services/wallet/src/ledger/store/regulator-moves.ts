// wallet.regulator.moves (the daily regulator file, services/compliance): the money of a brand's
// player accounts over [from, to) entry by entry, as the ledger has it, so the file's line items
// fall on the same day as the ledger part's sums they must add up to: each DEPOSIT (a deposit
// credited), each WITHDRAWAL (a payout captured) and each real-money round by its BET entry (the
// round's WIN entry is posted in the same statement, at the same time). The times are the ledger
// entries' own: a round's row and payments' confirmation carry times of their own processes, a
// few milliseconds apart, which near midnight could fall on the other day. Paged by account and
// time on the entries' (account, time) index. A third-party provider's BET (reference ptx_…) is not
// a round of ours: the file lists it with the provider's other transactions, line by line
// (wallet.regulator.providerMoves, providers/store/regulator-lines.ts).
import type { WalletMove } from '@bo/contracts';
import { formatMoney, isoTime, type SqlRunner } from '@bo/service-kit';

interface Row {
  player_id: string;
  currency: string;
  entry_id: string;
  type: 'DEPOSIT' | 'WITHDRAWAL' | 'BET';
  amount: string;
  reference_id: string;
  created_at: string | Date;
  round_id: string | null;
  session_id: string | null;
  game_id: string | null;
  payout: string | null;
}

type Position = { playerId: string; currency: string; at: string; id: string };

export async function movesOfDay(
  sql: SqlRunner,
  q: { brandId: string; from: string; to: string; after?: Position; limit: number },
): Promise<{ data: WalletMove[]; next: Position | null }> {
  const after = q.after ?? { playerId: '', currency: '', at: '-infinity', id: '' };
  const rows = await sql.query<Row>(
    `select a.player_id, a.currency, e.id as entry_id, e.type, e.amount::text as amount, e.reference_id, e.created_at,
            r.id as round_id, r.session_id, s.game_id, r.payout::text as payout
     from wallet.accounts a
     join wallet.ledger_entries e on e.account_id = a.id and e.created_at >= ?::timestamptz and e.created_at < ?::timestamptz
                                  and e.type in ('DEPOSIT', 'WITHDRAWAL', 'BET') and not starts_with(e.reference_id, 'ptx_')
     left join wallet.game_rounds r on e.type = 'BET' and r.bet_entry_id = e.id
     left join wallet.game_sessions s on s.id = r.session_id
     where a.kind = 'player' and a.brand_id = ?
       and (a.player_id, a.currency, e.created_at, e.id) > (?, ?, ?::timestamptz, ?)
     order by a.player_id, a.currency, e.created_at, e.id
     limit ?`,
    [q.from, q.to, q.brandId, after.playerId, after.currency, after.at, after.id, q.limit],
  );
  const data = rows.map(
    (r): WalletMove => ({
      kind: r.type === 'DEPOSIT' ? 'deposit' : r.type === 'WITHDRAWAL' ? 'withdrawal' : 'round',
      // A BET entry without its round row cannot be (the round's statement writes both); its entry id then says which.
      reference: r.type === 'BET' ? (r.round_id ?? r.reference_id) : r.reference_id,
      playerId: r.player_id,
      currency: r.currency,
      amount: formatMoney(r.amount.startsWith('-') ? r.amount.slice(1) : r.amount),
      payout: r.type === 'BET' ? formatMoney(r.payout ?? '0') : null,
      gameId: r.game_id,
      sessionId: r.session_id,
      at: isoTime(r.created_at),
    }),
  );
  const last = rows.at(-1);
  return {
    data,
    next: rows.length === q.limit && last ? { playerId: last.player_id, currency: last.currency, at: isoTime(last.created_at), id: last.entry_id } : null,
  };
}
