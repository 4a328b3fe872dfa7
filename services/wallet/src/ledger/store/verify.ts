// Recomputes every balance from the ledger (admin `verifyLedger`, run by the tests after every
// money test). Reads one snapshot so concurrent postings cannot show up as false mismatches.
import type { LedgerVerification } from '@bo/contracts';
import { compareMoney, onlyRow, formatMoney, type Sql } from '@bo/service-kit';
import { counterDrift, usageDrift } from '../../rg/index.ts';

/** Reads only: run again whole when its connection is lost. */
const READ_ONLY = { idempotent: true };

export async function verifyLedger(sql: Sql): Promise<LedgerVerification> {
  return sql.transaction(async (tx) => {
    await tx.query('set transaction isolation level repeatable read, read only');
    const mismatches: LedgerVerification['mismatches'] = [];

    // Player accounts: the locked running balance must equal the sum of their entries. Clearing
    // accounts (append-only, docs/money.md): the rolled-up stored balance must equal the sum of
    // the entries below the roll-up's watermark, and the derived balance (stored + entries not
    // rolled up yet, as wallet.account_balances reads it) the sum of all their entries.
    const balances = await tx.query<{
      id: string;
      kind: string;
      available: string;
      derived: string;
      held: string;
      entries_sum: string;
      rolled_sum: string;
      open_holds: string;
    }>(
      `select a.id, a.kind, a.available, b.available as derived, a.held,
         coalesce((select sum(e.amount) from wallet.ledger_entries e where e.account_id = a.id), 0) as entries_sum,
         coalesce((select sum(e.amount) from wallet.ledger_entries e, wallet.clearing_rollup r
                   where e.account_id = a.id and e.posted_xid < r.through_xid), 0) as rolled_sum,
         coalesce((select sum(h.amount) from wallet.holds h where h.account_id = a.id and h.status = 'open'), 0) as open_holds
       from wallet.accounts a join wallet.account_balances b on b.id = a.id order by a.id`,
    );
    for (const a of balances) {
      if (a.kind === 'player') {
        if (compareMoney(a.available, a.entries_sum) !== 0)
          mismatches.push({ accountId: a.id, check: 'available', stored: formatMoney(a.available), computed: formatMoney(a.entries_sum) });
      } else {
        if (compareMoney(a.available, a.rolled_sum) !== 0)
          mismatches.push({ accountId: a.id, check: 'rolledUp', stored: formatMoney(a.available), computed: formatMoney(a.rolled_sum) });
        if (compareMoney(a.derived, a.entries_sum) !== 0)
          mismatches.push({ accountId: a.id, check: 'derived', stored: formatMoney(a.derived), computed: formatMoney(a.entries_sum) });
      }
      if (compareMoney(a.held, a.open_holds) !== 0)
        mismatches.push({ accountId: a.id, check: 'held', stored: formatMoney(a.held), computed: formatMoney(a.open_holds) });
    }

    // Player entries are sequenced with a balance after; clearing entries are appended without
    // (those written before clearing became append-only keep their sequence, all rolled up).
    const misfiled = await tx.query<{ account_id: string; id: string }>(
      `select e.account_id, e.id from wallet.ledger_entries e join wallet.accounts a on a.id = e.account_id, wallet.clearing_rollup r
       where case when a.kind = 'player' then e.account_seq is null else e.account_seq is not null and e.posted_xid >= r.through_xid end`,
    );
    for (const m of misfiled) mismatches.push({ accountId: m.account_id, check: `sequence:${m.id}`, stored: 'wrong kind of entry', computed: '' });

    // Each entry's balance_after must be the running sum of its account's entries, in sequence.
    const chain = await tx.query<{ account_id: string; id: string; balance_after: string; running: string }>(
      `select account_id, id, balance_after, running from (
         select account_id, id, balance_after, sum(amount) over (partition by account_id order by account_seq) as running,
                account_seq, row_number() over (partition by account_id order by account_seq) as n
         from wallet.ledger_entries where account_seq is not null) s
       where balance_after <> running or account_seq <> n`,
    );
    for (const c of chain)
      mismatches.push({ accountId: c.account_id, check: `balanceAfter:${c.id}`, stored: formatMoney(c.balance_after), computed: formatMoney(c.running) });

    // Real-money game rounds (the games module's table, same schema and service): each round's
    // BET and WIN entries are its own and move exactly −amount and +payout on the player, and no
    // BET or WIN transaction exists without its round.
    const rounds = await tx.query<{ account_id: string | null; id: string; posted: string; expected: string }>(
      `select coalesce(b.account_id, w.account_id) as account_id, r.id,
              coalesce(b.amount, 0) + coalesce(w.amount, 0) as posted, r.payout - r.amount as expected
       from wallet.game_rounds r
       left join wallet.ledger_entries b on b.id = r.bet_entry_id
       left join wallet.ledger_entries w on w.id = r.win_entry_id
       where (r.bet_entry_id is not null or r.win_entry_id is not null)
         and (b.id is null or b.type <> 'BET' or b.reference_id <> r.id or b.amount <> -r.amount
              or (r.payout > 0) <> (w.id is not null)
              or (w.id is not null and (w.type <> 'WIN' or w.reference_id <> r.id or w.amount <> r.payout or w.account_id <> b.account_id)))`,
    );
    for (const r of rounds)
      mismatches.push({ accountId: r.account_id ?? '', check: `round:${r.id}`, stored: formatMoney(r.posted), computed: formatMoney(r.expected) });
    const orphans = await tx.query<{ account_id: string; reference_id: string; total: string }>(
      `select e.account_id, t.reference_id, sum(e.amount) as total
       from wallet.ledger_transactions t join wallet.ledger_entries e on e.transaction_id = t.id
       join wallet.accounts a on a.id = e.account_id and a.kind = 'player'
       where t.type in ('BET', 'WIN') and t.source not like 'provider:%' and not exists (select 1 from wallet.game_rounds r where r.id = t.reference_id)
       group by e.account_id, t.reference_id`,
    );
    for (const o of orphans) mismatches.push({ accountId: o.account_id, check: `round:${o.reference_id}`, stored: formatMoney(o.total), computed: '0.00' });

    // Providers' transactions (the providers module's table): each one that moved money has its own
    // ledger transaction, sourced `provider:<providerId>:<transactionId>`, moving exactly what the row
    // says on the player's account; and no provider ledger transaction exists without its row.
    const provider = await tx.query<{ account_id: string | null; id: string; posted: string; expected: string }>(
      `select e.account_id, p.id, coalesce(e.amount, 0) as posted, p.moved as expected
       from wallet.provider_transactions p
       left join wallet.ledger_entries e on e.id = p.entry_id
       left join wallet.ledger_transactions t on t.id = e.transaction_id
       where p.entry_id is not null
         and (e.id is null or e.amount <> p.moved or t.source <> 'provider:' || p.provider_id || ':' || p.transaction_id
              or e.account_id <> 'acct:player:' || p.brand_id || ':' || p.player_id || ':' || p.currency)
       union all
       select e.account_id, t.source, e.amount, 0
       from wallet.ledger_transactions t join wallet.ledger_entries e on e.transaction_id = t.id and e.account_seq is not null
       where t.source like 'provider:%' and not exists (select 1 from wallet.provider_transactions p where p.entry_id = e.id)`,
    );
    for (const p of provider)
      mismatches.push({ accountId: p.account_id ?? '', check: `provider:${p.id}`, stored: formatMoney(p.posted), computed: formatMoney(p.expected) });

    // Issue #59 item 1: each provider transaction's ledger type is its kind's (a win of a round the
    // provider funded and free rounds' winnings: FREE_BET_WIN; a promotional credit: PROMO_CREDIT; a
    // jackpot win: JACKPOT_WIN), its other side is the brand's clearing account with the provider,
    // and a free bet moved nothing (no ledger transaction).
    const kinds = await tx.query<{ account_id: string; id: string; stored: string; computed: string }>(
      `select * from (
       select 'acct:player:' || p.brand_id || ':' || p.player_id || ':' || p.currency as account_id, p.id,
              t.type || ' ' || coalesce(c.account_id, '-') as stored,
              (case when p.kind = 'bet' then 'BET'
                    when p.kind = 'win' then case when r.funding = 'provider' then 'FREE_BET_WIN' else 'WIN' end
                    when p.kind = 'rollback' then 'ROLLBACK'
                    when p.kind = 'correction' then 'CORRECTION'
                    when p.kind = 'promo_credit' then case when p.promotion_type = 'free_round_winnings' then 'FREE_BET_WIN' else 'PROMO_CREDIT' end
                    when p.kind = 'jackpot_win' then 'JACKPOT_WIN' else '?' end)
              || ' acct:provider_clearing:' || p.brand_id || ':' || p.provider_id || ':' || p.currency as computed
         from wallet.provider_transactions p
         join wallet.ledger_entries e on e.id = p.entry_id
         join wallet.ledger_transactions t on t.id = e.transaction_id
         left join wallet.ledger_entries c on c.transaction_id = t.id and c.id <> e.id
         left join wallet.provider_rounds r on r.provider_id = p.provider_id and r.round_id = p.round_id and p.kind = 'win'
        where p.repays is null
       union all
       select 'acct:player:' || p.brand_id || ':' || p.player_id || ':' || p.currency, p.id, p.moved::text || ' ' || coalesce(p.entry_id, '-'), '0.00 -'
         from wallet.provider_transactions p where p.kind = 'free_bet' and (p.moved <> 0 or p.entry_id is not null or not p.provider_funded)
       ) k where stored is distinct from computed`,
    );
    for (const k of kinds) mismatches.push({ accountId: k.account_id, check: `providerKind:${k.id}`, stored: k.stored, computed: k.computed });

    // A player's debt to a provider (providers' store/debts.ts) must be what corrections could not
    // take (requested − moved) less what repayments took.
    const debts = await tx.query<{ account_id: string; provider_id: string; stored: string; computed: string }>(
      `with c as (select provider_id, brand_id, player_id, currency,
                         sum(case when repays is null then moved - requested else moved end) as owed
                  from wallet.provider_transactions
                  where kind = 'correction' and (repays is not null or moved > requested) and brand_id is not null
                  group by 1, 2, 3, 4)
       select 'acct:player:' || coalesce(d.brand_id, c.brand_id) || ':' || coalesce(d.player_id, c.player_id) || ':' || coalesce(d.currency, c.currency) as account_id,
              coalesce(d.provider_id, c.provider_id) as provider_id, coalesce(d.owed, 0) as stored, coalesce(c.owed, 0) as computed
       from wallet.provider_debts d
       full join c on c.provider_id = d.provider_id and c.brand_id = d.brand_id and c.player_id = d.player_id and c.currency = d.currency
       where coalesce(d.owed, 0) <> coalesce(c.owed, 0)`,
    );
    for (const d of debts)
      mismatches.push({ accountId: d.account_id, check: `providerDebt:${d.provider_id}`, stored: formatMoney(d.stored), computed: formatMoney(d.computed) });
    // Unclaimed funds of accounts closed after an impediment hit (the unclaimed module's tables, issue
    // #46 item 4): each hold took exactly its amount off its player's account; each brand's
    // unclaimed-funds account holds exactly its balances still held, and its fund-transfer account
    // exactly what was transferred to FIES and FUNCAP and not yet paid to them (issue #60: each paid half
    // took exactly its amount off it).
    const unclaimed = await tx.query<{ account_id: string; check: string; stored: string; computed: string }>(
      `select h.account_id, 'unclaimedHold:' || h.id as "check", coalesce(e.amount, 0)::text as stored, (-h.amount)::text as computed
         from wallet.unclaimed_holds h
         left join wallet.ledger_entries e on e.transaction_id = h.hold_transaction_id and e.account_id = h.account_id
        where e.id is null or e.amount <> -h.amount
       union all
       select id, 'unclaimed', available::text, held::text from (
         select b.id, b.available, coalesce((select sum(h.amount) from wallet.unclaimed_holds h
                                             where h.brand_id = b.brand_id and h.currency = b.currency and h.status = 'held'), 0) as held
           from wallet.account_balances b where b.kind = 'unclaimed_impeded') u where available <> held
       union all
       select id, 'fundTransfers', available::text, owed::text from (
         select b.id, b.available,
                coalesce((select sum(f.amount) from wallet.fund_transfers f where f.brand_id = b.brand_id and f.currency = b.currency), 0)
                - coalesce((select sum(p.amount) from wallet.fund_payouts p where p.brand_id = b.brand_id and p.currency = b.currency), 0) as owed
           from wallet.account_balances b where b.kind = 'fund_transfer_payable') f where available <> owed
       union all
       select 'acct:fund_transfer_payable:' || p.brand_id || ':' || p.currency, 'fundPayout:' || p.id, coalesce(e.amount, 0)::text, (-p.amount)::text
         from wallet.fund_payouts p
         left join wallet.ledger_entries e on e.transaction_id = p.transaction_id and e.account_id = 'acct:fund_transfer_payable:' || p.brand_id || ':' || p.currency
        where e.id is null or e.amount <> -p.amount`,
    );
    for (const u of unclaimed) mismatches.push({ accountId: u.account_id, check: u.check, stored: formatMoney(u.stored), computed: formatMoney(u.computed) });

    // Integrity holds on sports prizes (the integrity module's tables, issue #60 item 3): each held win
    // moved exactly its amount from the brand's clearing account with the provider to the brand's
    // integrity-hold account, and its provider transaction row moved nothing on the player; each
    // brand's integrity-hold account holds exactly the wins of holds still held; each decision moved
    // exactly the hold's wins off it, to the player (released) or to the forfeited-prizes account,
    // which holds exactly what was forfeited; and no INTEGRITY_* transaction exists without its record.
    const integrity = await tx.query<{ account_id: string; check: string; stored: string; computed: string }>(
      `select * from (
       select 'acct:integrity_hold:' || p.brand_id || ':' || p.currency as account_id, 'integrityHeldWin:' || w.provider_transaction_id as "check",
              coalesce((select sum(e.amount) from wallet.ledger_entries e where e.transaction_id = w.hold_transaction_id
                          and e.account_id = 'acct:integrity_hold:' || p.brand_id || ':' || p.currency), 0)::text
              || ' ' || coalesce((select sum(e.amount) from wallet.ledger_entries e where e.transaction_id = w.hold_transaction_id
                          and e.account_id = 'acct:provider_clearing:' || p.brand_id || ':' || p.provider_id || ':' || p.currency), 0)::text
              || ' ' || p.moved::text || ' ' || coalesce(p.entry_id, '-') as stored,
              w.amount::text || ' ' || (-w.amount)::text || ' 0.00 -' as computed
         from wallet.integrity_held_wins w
         join wallet.provider_transactions p on p.provider_id = w.provider_id and p.transaction_id = w.transaction_id
       union all
       select id, 'integrityHeld', available::text, held::text from (
         select b.id, b.available, coalesce((select sum(w.amount) from wallet.integrity_held_wins w join wallet.integrity_holds h on h.id = w.hold_id
                                             where h.brand_id = b.brand_id and h.currency = b.currency and h.status = 'held'), 0) as held
           from wallet.account_balances b where b.kind = 'integrity_hold') u where available <> held
       union all
       select id, 'integrityForfeited', available::text, forfeited::text from (
         select b.id, b.available, coalesce((select sum(w.amount) from wallet.integrity_held_wins w join wallet.integrity_holds h on h.id = w.hold_id
                                             where h.brand_id = b.brand_id and h.currency = b.currency and h.status = 'forfeited'), 0) as forfeited
           from wallet.account_balances b where b.kind = 'integrity_forfeited') f where available <> forfeited
       union all
       select case when h.status = 'released' then 'acct:player:' || h.brand_id || ':' || h.player_id || ':' || h.currency
                   else 'acct:integrity_forfeited:' || h.brand_id || ':' || h.currency end, 'integrityDecision:' || h.id,
              coalesce((select sum(e.amount) from wallet.ledger_entries e where e.transaction_id = h.decision_transaction_id
                          and e.account_id = case when h.status = 'released' then 'acct:player:' || h.brand_id || ':' || h.player_id || ':' || h.currency
                                                  else 'acct:integrity_forfeited:' || h.brand_id || ':' || h.currency end), 0)::text,
              coalesce((select sum(w.amount) from wallet.integrity_held_wins w where w.hold_id = h.id), 0)::text
         from wallet.integrity_holds h where h.status <> 'held'
       union all
       select '', 'integrityOrphan:' || t.id, t.type, '-'
         from wallet.ledger_transactions t
        where t.type in ('INTEGRITY_HOLD', 'INTEGRITY_RELEASE', 'INTEGRITY_FORFEIT')
          and not exists (select 1 from wallet.integrity_held_wins w where w.hold_transaction_id = t.id)
          and not exists (select 1 from wallet.integrity_holds h where h.decision_transaction_id = t.id)
       ) i where stored is distinct from computed`,
    );
    for (const i of integrity) {
      const money = /^-?[0-9.]+$/;
      mismatches.push({
        accountId: i.account_id,
        check: i.check,
        stored: money.test(i.stored) ? formatMoney(i.stored) : i.stored,
        computed: money.test(i.computed) ? formatMoney(i.computed) : i.computed,
      });
    }

    // Responsible-gaming usage (the rg module's store/usage.ts) must be what the rounds staked and lost, hour by hour.
    for (const d of await usageDrift(tx)) {
      mismatches.push({ accountId: d.account_id, check: `rgUsage:${new Date(d.hour).toISOString()}`, stored: d.stored, computed: d.computed });
    }
    // And the counters a round is checked against (rg's store/counters.ts) must be that usage over their periods.
    for (const d of await counterDrift(tx))
      mismatches.push({ accountId: d.account_id, check: `rgCounters:${d.period}`, stored: d.stored, computed: d.computed });

    const unbalanced = await tx.query<{ transaction_id: string; total: string }>(
      'select transaction_id, sum(amount) as total from wallet.ledger_entries group by transaction_id having sum(amount) <> 0',
    );
    // Sum of every account's (derived) balance, and of every entry: both must be zero.
    const { total, entries } = onlyRow(
      await tx.query<{ total: string; entries: string }>(
        `select (select coalesce(sum(available), 0) from wallet.account_balances) as total,
              (select coalesce(sum(amount), 0) from wallet.ledger_entries) as entries`,
      ),
    );
    if (compareMoney(entries, 0) !== 0) mismatches.push({ accountId: '', check: 'sumOfAllEntries', stored: formatMoney(entries), computed: '0.00' });
    const sumOfAllBalances = formatMoney(total);
    return {
      ok: mismatches.length === 0 && unbalanced.length === 0 && compareMoney(total, 0) === 0,
      accounts: balances.length,
      mismatches,
      unbalancedTransactions: unbalanced.map((u) => ({ transactionId: u.transaction_id, sum: formatMoney(u.total) })),
      sumOfAllBalances,
    };
  }, READ_ONLY);
}
