// Issue #59 item 2 (docs/connectors-hub88.md, "Reconciliation: the Transactions API"): Hub88's
// transaction items of a day read as the statement lines an upload produces. Exact: an amount is an
// Int64 × 100000 made cents by integer arithmetic, and one that is not a whole number of cents is
// not rounded but set apart (`odd`) to be listed as a difference. Hub88's items name no kind we rely
// on: a line takes the kind (and the sign) of our transaction with the same id; theirs only is
// `unknown`. TS_SUCCESS is `ok` (`rolled_back` when a rollback of Hub88's list refers to it);
// TS_DECLINED moved no money: `rolled_back` beside a transaction of ours, and no line at all when
// we have none (neither side moved money); another status is set apart as a difference.
import { HUB88_AMOUNT_SCALE, type Hub88TransactionItem, type ReconciliationDifference } from '@bo/contracts';
import type { StatementLine } from './statements.ts';

/** Our transaction of an id: its kind, and whether it asked a debit of the player (its sign). */
export interface OurTransaction {
  kind: string;
  debit: boolean;
}

/** An item that cannot be a line: its amount is not whole cents, or its status is not one we know. */
export interface OddItem {
  transactionId: string;
  what: 'amount' | 'status';
  theirs: NonNullable<ReconciliationDifference['theirs']>;
}

const UNITS_PER_CENT = HUB88_AMOUNT_SCALE / 100;

/** A Hub88 amount as a decimal string of its exact value (10.005 is "10.00500"), never rounded. */
export function hub88Exact(amount: number, negate: boolean): string {
  const sign = amount < 0 !== negate && amount !== 0 ? '-' : '';
  const a = Math.abs(amount);
  return `${sign}${Math.trunc(a / HUB88_AMOUNT_SCALE)}.${String(a % HUB88_AMOUNT_SCALE).padStart(5, '0')}`;
}

/** Whole cents of a Hub88 amount as our money, signed; undefined when it is not whole cents. */
export function hub88Cents(amount: number, negate: boolean): string | undefined {
  if (!Number.isSafeInteger(amount) || amount % UNITS_PER_CENT !== 0) return undefined;
  const cents = Math.abs(amount / UNITS_PER_CENT);
  const sign = amount < 0 !== negate && amount !== 0 ? '-' : '';
  return `${sign}${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** The whole cents of an amount that is not (toward zero): what `amount` holds beside `exactAmount`. */
function wholeCents(amount: number, negate: boolean): string {
  const truncated = Math.trunc(amount / UNITS_PER_CENT) * UNITS_PER_CENT;
  return hub88Cents(truncated, negate)!;
}

/** Hub88's times are ISO 8601 without a zone (UTC); one with a zone is read as written. */
export function hub88Time(s: string | null | undefined): Date | undefined {
  if (!s) return undefined;
  const d = new Date(/(Z|[+-][0-9]{2}:?[0-9]{2})$/.test(s) ? s : `${s}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** A time as Hub88's requests write it: UTC, to the second, no zone (2017-11-05T13:15:30). */
export const hub88TimeText = (d: Date) => d.toISOString().slice(0, 19);

export function hub88Lines(
  items: readonly Hub88TransactionItem[],
  ours: ReadonlyMap<string, OurTransaction>,
): { lines: StatementLine[]; odd: OddItem[]; declinedUnknown: number } {
  const kindOf = (id: string) => ours.get(id)?.kind ?? 'unknown';
  // Bets Hub88's own list says were rolled back: a successful rollback of ours refers to them.
  const rolledBack = new Set(
    items
      .filter((i) => i.status === 'TS_SUCCESS' && kindOf(i.transaction_uuid) === 'rollback' && i.reference_transaction_uuid)
      .map((i) => i.reference_transaction_uuid!),
  );
  const lines: StatementLine[] = [];
  const odd: OddItem[] = [];
  let declinedUnknown = 0;
  for (const i of items) {
    const our = ours.get(i.transaction_uuid);
    const kind = our?.kind ?? 'unknown';
    const negate = our?.debit ?? false;
    const currency = i.currency.toUpperCase();
    const base = { kind, currency: /^[A-Z]{3}$/.test(currency) ? currency : 'XXX', playerId: i.user ?? null, roundId: i.round ?? null };
    let status: StatementLine['status'];
    if (i.status === 'TS_SUCCESS') status = rolledBack.has(i.transaction_uuid) ? 'rolled_back' : 'ok';
    else if (i.status === 'TS_DECLINED') {
      if (!our) {
        declinedUnknown++;
        continue;
      }
      status = 'rolled_back';
    } else {
      const cents = hub88Cents(i.amount, negate);
      odd.push({
        transactionId: i.transaction_uuid,
        what: 'status',
        theirs: { ...base, amount: cents ?? wholeCents(i.amount, negate), ...(cents ? {} : { exactAmount: hub88Exact(i.amount, negate) }), status: i.status },
      });
      continue;
    }
    const amount = hub88Cents(i.amount, negate);
    if (amount === undefined) {
      odd.push({
        transactionId: i.transaction_uuid,
        what: 'amount',
        theirs: { ...base, amount: wholeCents(i.amount, negate), exactAmount: hub88Exact(i.amount, negate), status },
      });
      continue;
    }
    lines.push({ transactionId: i.transaction_uuid, ...base, amount, status, at: hub88Time(i.inserted_at)?.toISOString() ?? null });
  }
  return { lines, odd, declinedUnknown };
}
