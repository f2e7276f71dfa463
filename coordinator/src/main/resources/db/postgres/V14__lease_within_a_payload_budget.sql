-- The lease of V13 with a payload budget (store/AnswerBudget): it takes the ready jobs in order, as
-- before, and keeps each next one only while the payloads of those before it add up to less than
-- p_max_bytes, so one answer stays under the 4 MiB a gRPC client reads by default. The first job is
-- always kept. The picked rows past the budget stay locked until the commit and are left as they
-- are. octet_length reads a long payload's size from its TOAST pointer, not the bytes.
--
-- A new function beside the old, which coordinators of the versions before this one still call
-- while they share the schema with newer ones.
CREATE FUNCTION lease_jobs(
    p_queue text, p_now timestamptz, p_types text[], p_limit integer, p_digests bytea[],
    p_worker_id text, p_expires_at timestamptz, p_max_bytes bigint)
  RETURNS SETOF jobs
  LANGUAGE plpgsql
  SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
  RETURN QUERY
  WITH picked AS MATERIALIZED (
    SELECT id, octet_length(payload) AS bytes FROM jobs
    WHERE state = 'PENDING' AND queue = p_queue AND run_at <= p_now
      AND (p_types IS NULL OR type = ANY (p_types))
      AND NOT EXISTS (SELECT 1 FROM queues WHERE name = p_queue AND (paused_at IS NOT NULL
        OR max_running IS NOT NULL OR max_running_per_key IS NOT NULL
        OR rate_starts IS NOT NULL OR rate_per_key_starts IS NOT NULL))
    ORDER BY priority DESC, run_at, id LIMIT p_limit FOR UPDATE SKIP LOCKED),
  numbered AS (
    SELECT id, row_number() OVER w AS n, sum(bytes) OVER w - bytes AS bytes_before
    FROM picked WINDOW w AS (ROWS UNBOUNDED PRECEDING)),
  kept AS (SELECT id, n FROM numbered WHERE bytes_before < p_max_bytes),
  leased AS (
    UPDATE jobs SET state = 'RUNNING', attempts = attempts + 1, lease_token = lease_token + 1,
      lease_worker_id = p_worker_id, lease_expires_at = p_expires_at,
      lease_id_sha256 = p_digests[kept.n], updated_at = p_now
    FROM kept WHERE jobs.id = kept.id
    RETURNING jobs.*),
  started AS (
    INSERT INTO attempts
      (job_id, attempt, worker_id, fencing_token, leased_at, outcome, lease_id_sha256)
    SELECT id, attempts, lease_worker_id, lease_token, p_now, 'RUNNING', lease_id_sha256
    FROM leased)
  SELECT * FROM leased;
END
$$;
