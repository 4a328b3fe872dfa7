// A case's amount (issue #61): the total of the distinct deposits and withdrawals its evidence names
// (each once, though several rules name it), as its COS totals them (domain/cos.ts). Kept on the case
// as evidence is added (the watch) and, for the cases before, by migration 0013: the queue sorts by it.

/** The SQL expression of the amount of the case whose id is `caseId` (a column or a placeholder). */
export const caseAmountSql = (caseId: string): string => `(
  select coalesce(sum(x.amount), 0) from (
    select distinct on (e->>'id') (e->>'amount')::numeric amount
    from compliance.case_evidence ce, jsonb_array_elements(coalesce(ce.facts->'events', '[]'::jsonb)) e
    where ce.case_id = ${caseId} and e->>'amount' is not null and e->>'id' is not null
    order by e->>'id'
  ) x)`;
