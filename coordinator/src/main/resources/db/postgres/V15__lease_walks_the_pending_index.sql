-- The lease walks jobs_pending in order whatever the planner statistics say. Its generic plan
-- (V13) was made from the statistics of the last ANALYZE, and a table analyzed while no job was
-- pending (a fresh installation, a queue drained, autovacuum's analyze at a quiet moment) made
-- reading the queue's jobs by jobs_queue_state and sorting them look as cheap as the walk: a lease
-- that takes 25 then read and sorted every pending job of the queue, and every version of them the
-- index still held. The store's own analyzes (store/postgres/PlannerStatistics) kept that plan away
-- by running whenever a tenth of the table had changed, each a pause of its own for every
-- connection; without them, at 500 jobs/s, a lease read 2,700 buffers against 27 for the walk
-- (docs/benchmarks.md). Sorting turned off in the function leaves the walk, the one plan that needs
-- no sort, at any estimate. The lease of V13, which coordinators of older versions still call while
-- they share the schema with newer ones, gets the same.
ALTER FUNCTION lease_jobs(text, timestamptz, text[], integer, bytea[], text, timestamptz, bigint)
  SET enable_sort = off;
ALTER FUNCTION lease_jobs(text, timestamptz, text[], integer, bytea[], text, timestamptz)
  SET enable_sort = off;
