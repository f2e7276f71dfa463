-- A lease picks, leases and opens each job's history entry in one statement, as before, but inside
-- a function whose plan is made once per connection and kept (plan_cache_mode = force_generic_plan).
-- As a prepared statement its LIMIT is a parameter, which a generic plan must guess at (a tenth of
-- the rows), so PostgreSQL judged the generic plan dear and planned each call again with its values:
-- about 0.5 ms of the server's CPU per call, a sixth of its work at 500 jobs/s, where each call
-- leases a job or two. The plan kept is the same walk of jobs_pending in order, stopping after the
-- jobs it takes; ANALYZE (store/postgres/PlannerStatistics) still makes it plan again.
--
-- The picked jobs are those of the queue that are due, of the types given (NULL: any type), none
-- while the queue is paused or has limits (a limited queue leases through its own statements). The
-- check names the queue again instead of joining on jobs.queue, so it is a one-time filter and the
-- index walk keeps its order. The n-th picked row takes the n-th of the lease-id digests given.
CREATE FUNCTION lease_jobs(
    p_queue text, p_now timestamptz, p_types text[], p_limit integer, p_digests bytea[],
    p_worker_id text, p_expires_at timestamptz)
  RETURNS SETOF jobs
  LANGUAGE plpgsql
  SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
  RETURN QUERY
  WITH picked AS MATERIALIZED (
    SELECT id FROM jobs
    WHERE state = 'PENDING' AND queue = p_queue AND run_at <= p_now
      AND (p_types IS NULL OR type = ANY (p_types))
      AND NOT EXISTS (SELECT 1 FROM queues WHERE name = p_queue AND (paused_at IS NOT NULL
        OR max_running IS NOT NULL OR max_running_per_key IS NOT NULL
        OR rate_starts IS NOT NULL OR rate_per_key_starts IS NOT NULL))
    ORDER BY priority DESC, run_at, id LIMIT p_limit FOR UPDATE SKIP LOCKED),
  numbered AS (SELECT id, row_number() OVER () AS n FROM picked),
  leased AS (
    UPDATE jobs SET state = 'RUNNING', attempts = attempts + 1, lease_token = lease_token + 1,
      lease_worker_id = p_worker_id, lease_expires_at = p_expires_at,
      lease_id_sha256 = p_digests[numbered.n], updated_at = p_now
    FROM numbered WHERE jobs.id = numbered.id
    RETURNING jobs.*),
  started AS (
    INSERT INTO attempts
      (job_id, attempt, worker_id, fencing_token, leased_at, outcome, lease_id_sha256)
    SELECT id, attempts, lease_worker_id, lease_token, p_now, 'RUNNING', lease_id_sha256
    FROM leased)
  SELECT * FROM leased;
END
$$;
