// What the review queue shows beside each withdrawal before anyone clicks (docs/console.md): whether
// the AML payout hold would refuse its payout now, and whether four eyes applies to it (its approver
// may not pay it). Read for display only: the decision itself checks both again, in its transaction.
import { amlMessages, complianceProfileMessages, type AmlHold, type OperatorCompliance } from '@bo/contracts';
import { compareMoney, type ServiceDeps } from '@bo/service-kit';
import { visibleStatus, type WithdrawalRow } from '../domain/withdrawals.ts';
import { fourEyesOf } from '../store/withdrawal-store.ts';

export interface ReviewFlags {
  /** true: a payout is refused now (403 AML_REVIEW_REQUIRED); null: compliance could not be asked just now. */
  heldForAmlReview: boolean | null;
  /** Whether whoever approved it must leave the payout to another person (the operator's four-eyes threshold). */
  fourEyes: boolean;
}

const DECIDABLE = new Set(['under_review', 'approved']);

/** The flags of each row, by id: one question per operator and per player waiting, not per row. */
export async function reviewFlagsOf(deps: Pick<ServiceDeps, 'sql' | 'call'>, rows: WithdrawalRow[]): Promise<Map<string, ReviewFlags>> {
  const operators = [...new Set(rows.map((r) => r.operatorId))];
  const thresholds = new Map(await Promise.all(operators.map(async (id) => [id, (await fourEyesOf(deps.sql, id)).minAmount] as const)));
  const profiles = new Map(
    await Promise.all(
      operators.map(
        async (id) =>
          [
            id,
            await deps.call<OperatorCompliance>(complianceProfileMessages.get.subject, { operatorId: id }).then(
              (c) => c.profile,
              () => null,
            ),
          ] as const,
      ),
    ),
  );
  const holds = new Map<string, Promise<boolean | null>>();
  const holdOf = (r: WithdrawalRow): Promise<boolean | null> => {
    const profile = profiles.get(r.operatorId);
    if (profile === 'off' || !DECIDABLE.has(visibleStatus(r.status))) return Promise.resolve(false);
    if (profile === null) return Promise.resolve(null);
    const key = `${r.brandId}/${r.playerId}`;
    let held = holds.get(key);
    if (!held) {
      held = deps.call<AmlHold>(amlMessages.holdCheck.subject, { brandId: r.brandId, playerId: r.playerId }).then(
        (h) => h.held,
        () => null,
      );
      holds.set(key, held);
    }
    return held;
  };
  const flags = await Promise.all(
    rows.map(async (r) => [r.id, { heldForAmlReview: await holdOf(r), fourEyes: compareMoney(r.amount, thresholds.get(r.operatorId) ?? '0') >= 0 }] as const),
  );
  return new Map(flags);
}
