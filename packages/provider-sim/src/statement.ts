// Issue #59 item 2: the provider's daily statement, as an aggregator sends one, with planted
// differences: the provider reads its transactions of the day with us (GET /provider/v1/transactions,
// paged), writes them as its CSV (its own names, amounts in cents, unsigned, `;`), then leaves one of
// ours out, adds one we never had, changes one amount and one status. Our team sets the provider's
// mapping and uploads it on the admin API; the differences reconciliation finds must be exactly these.
import type { AdminSide } from './admin-side.ts';
import type { ProviderClient } from './provider-client.ts';
import { providerId } from './player-session.ts';

export const SIM_STATEMENT_MAPPING = {
  format: 'csv',
  delimiter: ';',
  fields: { transactionId: 'txn', kind: 'type', amount: 'amount_cents', currency: 'currency', status: 'state', playerId: 'player', roundId: 'round' },
  kinds: { BET: 'bet', WIN: 'win', REFUND: 'rollback', ADJUSTMENT: 'correction', FREEBET: 'free_bet', PROMO: 'promo_credit', JACKPOT: 'jackpot_win' },
  statuses: { SETTLED: 'ok', CANCELLED: 'rolled_back' },
  amountUnit: 'cents',
  sign: 'absolute',
  timeZone: 'America/Sao_Paulo',
} as const;

const TYPE: Record<string, string> = {
  bet: 'BET',
  win: 'WIN',
  rollback: 'REFUND',
  correction: 'ADJUSTMENT',
  free_bet: 'FREEBET',
  promo_credit: 'PROMO',
  jackpot_win: 'JACKPOT',
};

export interface PlantedDifferences {
  ours_only: string[];
  theirs_only: string[];
  amount_differs: string[];
  status_differs: string[];
}

export interface StatementCheck {
  date: string;
  lines: number;
  planted: PlantedDifferences;
  found: PlantedDifferences;
  matched: number;
  /** The differences found are exactly the planted ones. */
  exact: boolean;
}

const cents = (amount: string) => {
  const [units, frac = '00'] = amount.replace('-', '').split('.');
  return String(BigInt(units!) * 100n + BigInt(frac.padEnd(2, '0').slice(0, 2)));
};

/** The provider's day (in São Paulo) of its transactions with us, read back through its API. */
async function transactionsOfDay(client: ProviderClient, date: string): Promise<any[]> {
  const from = new Date(`${date}T03:00:00.000Z`).toISOString();
  const to = new Date(new Date(from).getTime() + 86_400_000).toISOString();
  const all: any[] = [];
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams({ from, to, limit: '500', ...(cursor ? { cursor } : {}) });
    const r = await client.get(`/transactions?${q}`);
    if (r.status !== 200) throw new Error(`GET /transactions: ${r.status} ${JSON.stringify(r.body)}`);
    all.push(...r.body.data);
    cursor = r.body.nextCursor;
  } while (cursor);
  return all;
}

/** Writes the day's statement with one difference of each kind planted, uploads it, and checks what reconciliation found. */
export async function reconcilePlantedStatement(
  admin: AdminSide,
  client: ProviderClient,
  providerIdOfUs: string,
  date: string,
  environment: string,
): Promise<StatementCheck> {
  const ours = (await transactionsOfDay(client, date)).filter((t) => t.kind !== 'rollback' || t.betTransactionId);
  const candidates = ours.filter((t) => t.status === 'ok' && t.kind !== 'rollback');
  if (candidates.length < 3) throw new Error(`the day has ${candidates.length} transactions to plant differences in; 3 are needed`);
  const [dropped, amount, status] = [candidates[0]!, candidates[1]!, candidates[2]!];
  const planted: PlantedDifferences = {
    ours_only: [dropped.transactionId],
    theirs_only: [providerId('theirs-only')],
    amount_differs: [amount.transactionId],
    status_differs: [status.transactionId],
  };
  const lines = ours
    .filter((t) => t.transactionId !== dropped.transactionId)
    .map((t) => ({
      txn: t.transactionId,
      type: TYPE[t.kind],
      amount_cents: t.transactionId === amount.transactionId ? String(BigInt(cents(t.requested)) + 100n) : cents(t.requested),
      currency: t.currency,
      state: t.transactionId === status.transactionId || t.status !== 'ok' ? 'CANCELLED' : 'SETTLED',
      player: t.playerId,
      round: t.roundId,
    }));
  lines.push({ txn: planted.theirs_only[0]!, type: 'WIN', amount_cents: '1234', currency: 'BRL', state: 'SETTLED', player: '', round: 'r-unknown' });
  const header = ['txn', 'type', 'amount_cents', 'currency', 'state', 'player', 'round'] as const;
  const csv = [header.join(';'), ...lines.map((l) => header.map((h) => l[h]).join(';'))].join('\n');
  await admin.call('PUT', `/admin/providers/${providerIdOfUs}/statement-mapping`, SIM_STATEMENT_MAPPING, 200);
  const r = await admin.call('POST', `/admin/providers/${providerIdOfUs}/statements`, { date, environment, content: csv }, 200);
  const found: PlantedDifferences = { ours_only: [], theirs_only: [], amount_differs: [], status_differs: [] };
  for (const d of r.differences as Array<{ category: keyof PlantedDifferences; transactionId: string }>) found[d.category].push(d.transactionId);
  const same = (a: string[], b: string[]) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);
  const exact = (Object.keys(planted) as Array<keyof PlantedDifferences>).every((k) => same(planted[k], found[k]));
  return { date, lines: lines.length, planted, found, matched: r.day.matched, exact };
}
