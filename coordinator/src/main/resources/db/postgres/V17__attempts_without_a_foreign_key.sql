-- A job's attempts are still deleted with the job, by a trigger once per DELETE statement instead
-- of the foreign key's cascade. The foreign key checked every attempts row a lease inserted on its
-- own (a query and a key share lock on the job, per row): in EXPLAIN ANALYZE 0.32 ms of a 44-job
-- lease's 1.5 ms, and under load the lease's execution fell from 28-31 to 24-25 µs per job without
-- it (docs/benchmarks.md, "PostgreSQL: a lease without a foreign-key check"). Every attempts row is
-- written for a job the same transaction has just locked and changed, except a stale worker's
-- rejected report, which takes the job's key share lock itself (store/jdbc/AttemptRows), as the
-- foreign key's check did, so it is never written for a job being deleted or gone. A coordinator
-- older than this migration still writes that row without the lock: while it runs beside newer
-- ones, a rejection racing the job's deletion can leave a row no deletion reaches.
--
-- The constraint goes first: dropping it takes the strongest lock on jobs, which this transaction
-- then holds before it creates the trigger (the other order upgrades a weaker lock it holds).
ALTER TABLE attempts DROP CONSTRAINT attempts_job_id_fkey;

-- The attempts of the deleted jobs found by their index whatever the plan kept: an array of ids
-- compared with = ANY walks attempts_job for each, where a join with the transition table could be
-- planned once, on this connection's first and largest deletion, as a scan of all attempts. The
-- function finds attempts in the schema it was made in, whatever the search path of the session
-- that deletes.
CREATE FUNCTION delete_attempts_of_deleted_jobs() RETURNS trigger
  LANGUAGE plpgsql
  SET search_path FROM CURRENT
AS $$
BEGIN
  DELETE FROM attempts WHERE job_id = ANY (ARRAY(SELECT id FROM deleted_jobs));
  RETURN NULL;
END
$$;

CREATE TRIGGER jobs_deleted_with_their_attempts AFTER DELETE ON jobs
  REFERENCING OLD TABLE AS deleted_jobs
  FOR EACH STATEMENT EXECUTE FUNCTION delete_attempts_of_deleted_jobs();
