// The tenant check of a row found by its primary key. Written `(brand_id = ?) is true` so it is a
// filter on that row, never an index condition: a brand whose rows are not in the planner's
// statistics yet (a new brand, a table analysed before it) is estimated at one row, and the
// planner would then walk a brand-leading index (unique (brand_id, external_reference)) with the
// id as a filter, reading every row of the brand (seen: ~600 pages per confirm).
export const OF_BRAND = '(brand_id = ?) is true';
