// The check of a kept daily file, made when it is made and again on every read of it: it ties
// when (1) each account's opening plus the day's movements is its closing and the kept ledger
// part equals the ledger now (domain/daily-file.ts), (2) the kept line items add up, per account,
// to the ledger part's figures (deposits to its deposits, withdrawals to its withdrawals, round
// stakes with providers' bets to its bets, payouts with providers' wins to its wins, providers'
// rollbacks, corrections and provider-funded credits (free-bet wins, promotional credits, jackpot
// wins: issue #59 item 1) to its other movements; no movement of another type without items), (3)
// every deposit listed is confirmed and every withdrawal paid in payments' records, and (4) each
// part still holds as many lines as when it was made. The result is kept on the file (`ties`,
// `problems`, `checked_at`) for the list.
import type { DailyFileCheck } from '@bo/contracts';
import { Money, formatMoney, isoTime } from '@bo/service-kit';
import { tieProblems } from '../domain/daily-file.ts';
import { keepCheck, lineSums, unfinishedMoneyLines, type FileRow } from '../store/daily-files.ts';
import { countsOf, ledgerOf, type MakerDeps } from './daily-file-maker.ts';

const ZERO = () => ({
  deposits: '0.00',
  withdrawals: '0.00',
  stakes: '0.00',
  payouts: '0.00',
  providerBets: '0.00',
  providerWins: '0.00',
  providerRollbacks: '0.00',
  providerCorrections: '0.00',
  providerFreeBetWins: '0.00',
  providerPromoCredits: '0.00',
  providerJackpotWins: '0.00',
});
type Totals = ReturnType<typeof ZERO>;
const PROVIDER_TOTAL: Record<string, keyof Totals> = {
  bet: 'providerBets',
  win: 'providerWins',
  rollback: 'providerRollbacks',
  correction: 'providerCorrections',
  // A free bet moves nothing (its line's moved is 0.00): no figure of the ledger holds it.
  free_bet_win: 'providerFreeBetWins',
  promo_credit: 'providerPromoCredits',
  jackpot_win: 'providerJackpotWins',
};
const same = (a: string, b: string) => new Money(a).comparedTo(b) === 0;
const neg = (a: string) => formatMoney(new Money(0).minus(a));
/** At most this many ids named in one problem. */
const NAMED = 10;

export async function checkFile(deps: MakerDeps, row: FileRow): Promise<{ problems: string[]; lineTotals: DailyFileCheck['lineTotals'] }> {
  const problems = tieProblems(row.accounts, await ledgerOf(deps, row.brand_id, row.from, row.to));
  const lineTotals = ZERO();
  if (!row.lines_made_at) return { problems: [...problems, 'the line items are not made yet'], lineTotals };

  const sums = await lineSums(deps.sql, row.brand_id, row.date);
  const key = (playerId: string, currency: string) => `${playerId}/${currency}`;
  const byAccount = new Map<string, Totals>();
  const add = (a: string, b: string) => formatMoney(new Money(a).plus(b));
  for (const s of sums) {
    const k = key(s.player_id, s.currency);
    const acc = byAccount.get(k) ?? ZERO();
    if (s.part === 'deposits') acc.deposits = add(acc.deposits, s.amount);
    if (s.part === 'withdrawals') acc.withdrawals = add(acc.withdrawals, s.amount);
    if (s.part === 'rounds') {
      acc.stakes = add(acc.stakes, s.amount);
      acc.payouts = add(acc.payouts, s.payout);
    }
    const provider = s.part === 'provider_transactions' && s.kind ? PROVIDER_TOTAL[s.kind] : undefined;
    if (provider) acc[provider] = add(acc[provider], s.amount);
    byAccount.set(k, acc);
    if (s.malformed > 0) problems.push(`${k}: ${s.malformed} ${s.part} line(s) without a valid amount`);
  }
  for (const acc of byAccount.values()) for (const f of Object.keys(lineTotals) as Array<keyof Totals>) lineTotals[f] = add(lineTotals[f], acc[f]);
  const accounts = new Set<string>();
  for (const a of row.accounts) {
    const k = key(a.playerId, a.currency);
    accounts.add(k);
    const items = byAccount.get(k) ?? ZERO();
    // Providers' rollbacks, corrections and provider-funded credits are the ledger's only other movements
    // (ROLLBACK, CORRECTION, FREE_BET_WIN, PROMO_CREDIT, JACKPOT_WIN).
    const others = [items.providerFreeBetWins, items.providerPromoCredits, items.providerJackpotWins].reduce(
      add,
      add(items.providerRollbacks, items.providerCorrections),
    );
    const pairs: Array<[string, string, string]> = [
      ['deposits', items.deposits, a.deposits],
      ['withdrawals', neg(items.withdrawals), a.withdrawals],
      ['bets', add(neg(items.stakes), items.providerBets), a.bets],
      ['wins', add(items.payouts, items.providerWins), a.wins],
    ];
    for (const [figure, fromItems, fromLedger] of pairs) {
      if (!same(fromItems, fromLedger)) problems.push(`${k}: the ${figure} line items add up to ${fromItems}, the ledger part says ${fromLedger}`);
    }
    if (!same(a.other, others))
      problems.push(
        same(others, '0.00')
          ? `${k}: other movements of ${a.other} have no line items`
          : `${k}: the providers' rollbacks, corrections and provider-funded credits add up to ${others}, the ledger part's other movements say ${a.other}`,
      );
  }
  for (const k of byAccount.keys()) if (!accounts.has(k)) problems.push(`${k}: line items for an account the ledger part does not have`);

  const unfinished = await unfinishedMoneyLines(deps.sql, row.brand_id, row.date, NAMED + 1);
  for (const u of unfinished.slice(0, NAMED)) {
    problems.push(
      u.status === null
        ? `${u.part} ${u.ref}: in the ledger, no record in payments`
        : `${u.part} ${u.ref}: in the ledger, ${u.status} in payments (${u.part === 'deposits' ? 'confirmed' : 'paid'} expected)`,
    );
  }
  if (unfinished.length > NAMED) problems.push('and more deposits or withdrawals not confirmed or paid in payments');

  if (row.counts) {
    const now = await countsOf(deps, row);
    for (const part of Object.keys(now) as Array<keyof typeof now>) {
      // A file made before providers' lines were listed has no count of them: none were kept.
      const made = row.counts[part] ?? 0;
      if (now[part] !== made) problems.push(`${part}: ${made} lines when made, ${now[part]} kept now`);
    }
  }
  return { problems, lineTotals };
}

/** Checks the file and keeps what the check found on it. */
export async function checkAndKeep(deps: MakerDeps, row: FileRow, now: Date): Promise<{ problems: string[]; lineTotals: DailyFileCheck['lineTotals'] }> {
  const result = await checkFile(deps, row);
  await keepCheck(deps.sql, row.brand_id, row.date, result.problems, now);
  row.ties = result.problems.length === 0;
  row.problems = result.problems;
  row.checked_at = now;
  return result;
}

export const summaryOf = (row: FileRow) => ({
  brandId: row.brand_id,
  operatorId: row.operator_id,
  environment: row.environment ?? null,
  date: row.date,
  timeZone: row.time_zone,
  timeZoneSource: row.time_zone_source,
  from: isoTime(row.from),
  to: isoTime(row.to),
  madeAt: isoTime(row.generated_at),
  counts: row.counts,
  ties: row.ties,
  checkedAt: row.checked_at ? isoTime(row.checked_at) : null,
});
