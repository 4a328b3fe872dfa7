-- Once, after every gateway runs 1.4.0 (issue #43; docs/runbook.md, "Retire the gateway's schema"):
-- the gateway keeps no data and no longer opens the database, so its schema `gateway` holds only
-- its migration history (and, where a gateway older than 1.3.0 never ran its migration Gateway0009,
-- its idempotency store of before: answers kept 24 h at most, long expired). Refuses while a table of before
-- the operators service is still there (operators, keys, team, audit log): the operators service's
-- migration MoveFromGateway moves those rows into its schema first. No other schema is touched.
do $retire$
declare
  left_over text;
begin
  select string_agg(tablename, ', ' order by tablename) into left_over
    from pg_tables
   where schemaname = 'gateway' and tablename not in ('schema_migrations', 'idempotency_keys');
  if left_over is not null then
    raise exception 'schema gateway still holds %: start the operators service (its migration MoveFromGateway moves them) first', left_over;
  end if;
  drop schema if exists gateway cascade;
end $retire$;
