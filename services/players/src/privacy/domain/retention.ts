// How long each category is kept for a player (contracts' PERSONAL_DATA_CATEGORIES; docs/privacy.md):
// what a deletion request can anonymise now (what no duty keeps) and what it must refuse, naming the
// duty and the date it ends, and what the retention sweep anonymises.
import { PERSONAL_DATA_CATEGORIES, PERSONAL_DATA_CATEGORY_NAMES, type PersonalDataCategoryName } from '@bo/contracts';
export { retentionSentence } from '@bo/contracts';

const category = (name: PersonalDataCategoryName) => PERSONAL_DATA_CATEGORIES[name] as (typeof PERSONAL_DATA_CATEGORIES)[PersonalDataCategoryName];

/** The categories kept while the account is open and for years after it closed. */
export const RELATIONSHIP_CATEGORIES = PERSONAL_DATA_CATEGORY_NAMES.filter((c) => category(c).retention.kind === 'relationship');
/** The categories kept for months from each datum's collection. */
export const COLLECTION_CATEGORIES = PERSONAL_DATA_CATEGORY_NAMES.filter((c) => category(c).retention.kind === 'collection');
/** The categories kept only by consent: a deletion request anonymises them at once. */
export const CONSENT_CATEGORIES = PERSONAL_DATA_CATEGORY_NAMES.filter((c) => category(c).retention.kind === 'consent');

const addYears = (d: Date, years: number) => {
  const out = new Date(d);
  out.setUTCFullYear(out.getUTCFullYear() + years);
  return out;
};
const addMonths = (d: Date, months: number) => {
  const out = new Date(d);
  out.setUTCMonth(out.getUTCMonth() + months);
  return out;
};
const day = (d: Date) => d.toISOString().slice(0, 10);

const RELATIONSHIP_YEARS = Math.max(...RELATIONSHIP_CATEGORIES.map((c) => (category(c).retention as { years: number }).years));

/** An account closed before this has outlived every relationship duty by `now`. */
export function closedLongEnoughBefore(now: Date): Date {
  return addYears(now, -RELATIONSHIP_YEARS);
}

/** Data collected before this was collected long enough ago to go (a collection category). */
export function collectedBefore(name: PersonalDataCategoryName, now: Date): Date {
  const r = category(name).retention;
  if (r.kind !== 'collection') throw new Error(`${name} is not kept from collection`);
  return addMonths(now, -r.months);
}

/** When a category is kept until for this player (a date), or null when it waits for the account to close. */
export function keptUntil(name: PersonalDataCategoryName, closedAt: Date | null, newestCollection: Date | null): string | null {
  const r = category(name).retention;
  if (r.kind === 'relationship') return closedAt === null ? null : day(addYears(closedAt, r.years));
  if (r.kind === 'collection') return newestCollection === null ? null : day(addMonths(newestCollection, r.months));
  return null;
}

export interface DeletionPlan {
  /** Anonymised now. */
  anonymised: PersonalDataCategoryName[];
  /** Kept by a duty, each anonymised when it ends (the retention sweep). */
  kept: { category: PersonalDataCategoryName; duty: string; dutyUrl: string; keptUntil: string | null }[];
}

/**
 * A deletion request (LGPD art. 18, VI; art. 16, I): what only consent keeps goes now, and what a
 * collection duty no longer keeps; the rest is refused, naming its duty and when it ends.
 * `youngestConnection`: when the newest connection datum still inside its months was collected (null: none).
 */
export function deletionPlan(closedAt: Date | null, youngestConnection: Date | null): DeletionPlan {
  const kept: DeletionPlan['kept'] = [];
  for (const name of RELATIONSHIP_CATEGORIES) {
    const r = category(name).retention as { duty: { cite: string; url: string } };
    kept.push({ category: name, duty: r.duty.cite, dutyUrl: r.duty.url, keptUntil: keptUntil(name, closedAt, null) });
  }
  for (const name of COLLECTION_CATEGORIES) {
    if (youngestConnection === null) continue;
    const r = category(name).retention as { duty: { cite: string; url: string } };
    kept.push({ category: name, duty: r.duty.cite, dutyUrl: r.duty.url, keptUntil: keptUntil(name, null, youngestConnection) });
  }
  return { anonymised: [...CONSENT_CATEGORIES, ...COLLECTION_CATEGORIES], kept };
}
