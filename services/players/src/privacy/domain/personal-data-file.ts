// The answer to an access or portability request (LGPD arts. 18, II and V; 19): every personal datum
// every service holds about the player, by category, each with its purpose, legal basis and the end
// of its retention, as one JSON document (machine-readable, the same for both). A category the law
// keeps from the player (AML: no tipping-off) is left out whatever it holds, and `notShown` names the
// law for every such category, whether or not anything is held: its presence says nothing.
import { PERSONAL_DATA_CATEGORIES, PERSONAL_DATA_CATEGORY_NAMES, type PersonalDataCategoryName, type PersonalDataExport } from '@bo/contracts';
import { keptUntil, retentionSentence } from './retention.ts';

export const PERSONAL_DATA_FILE_FORMAT = 'bo.personal-data/1';

export interface PersonalDataFileInput {
  requestId: string;
  playerId: string;
  operatorId: string;
  brandId: string;
  exports: PersonalDataExport[];
  closedAt: Date | null;
  newestConnection: Date | null;
  now: Date;
}

export function personalDataFile(i: PersonalDataFileInput): { file: unknown; records: number } {
  let records = 0;
  const categories = [];
  const notShown = [];
  for (const name of PERSONAL_DATA_CATEGORY_NAMES) {
    const c = PERSONAL_DATA_CATEGORIES[name] as (typeof PERSONAL_DATA_CATEGORIES)[PersonalDataCategoryName];
    if (c.shownToPlayer !== true) {
      notShown.push({ category: name, title: c.title, law: c.shownToPlayer.cite, url: c.shownToPlayer.url });
      continue;
    }
    const tables = i.exports.flatMap((e) =>
      e.tables.filter((t) => t.category === name && t.rows.length > 0).map((t) => ({ table: t.table, fieldsOfOtherCategories: t.columns, rows: t.rows })),
    );
    records += tables.reduce((n, t) => n + t.rows.length, 0);
    categories.push({
      category: name,
      title: c.title,
      purpose: c.purpose,
      legalBasis: { basis: c.legalBasis.basis, law: c.legalBasis.cite, url: c.legalBasis.url },
      retention: retentionSentence(name),
      keptUntil: keptUntil(name, i.closedAt, i.newestConnection),
      tables,
    });
  }
  return {
    file: {
      format: PERSONAL_DATA_FILE_FORMAT,
      requestId: i.requestId,
      playerId: i.playerId,
      controller: { operatorId: i.operatorId, brandId: i.brandId },
      generatedAt: i.now.toISOString(),
      categories,
      notShown,
    },
    records,
  };
}
