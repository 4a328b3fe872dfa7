// What the simulations share around their own protocol's play: the sessions played by a few workers
// at once (native and connectors), and a connector run's closing checks (each player's wallet as
// the run's own book says it must be, and the ledger verified).
import type { AdminSide } from './admin-side.ts';
import { fromCents, toCents } from './money.ts';
import type { OperatorSide } from './operator-side.ts';

/** Plays sessions 0..sessions-1, at most `concurrency` at a time (at least one). */
export async function playSessions(sessions: number, concurrency: number, play: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < sessions) await play(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, sessions)) }, worker));
}

export interface ClosingChecks {
  balanceMismatches: string[];
  ledger: { verified: true; ok: boolean; mismatches: number };
  /** The run's problems so far, then the ledger's and each balance that differs. */
  problems: string[];
}

/** `expected`: each player's balance in cents as the run kept it; `problems`: what the run found so far. */
export async function closingChecks(operator: OperatorSide, admin: AdminSide, expected: Map<string, bigint>, problems: string[]): Promise<ClosingChecks> {
  const balanceMismatches: string[] = [];
  for (const [player, cents] of expected) {
    const { available } = await operator.wallet(player);
    if (toCents(available) !== cents) balanceMismatches.push(`${player}: wallet ${available}, expected ${fromCents(cents)}`);
  }
  const v = await admin.verifyLedger();
  const ledgerProblems = v.ok ? [] : [`ledger verify: ${JSON.stringify(v.mismatches).slice(0, 500)}`];
  return {
    balanceMismatches,
    ledger: { verified: true, ok: v.ok, mismatches: v.mismatches.length },
    problems: [...problems, ...ledgerProblems, ...balanceMismatches.map((m) => `balance ${m}`)],
  };
}
