-- A job's attempts are still deleted with the job, by a trigger once per DELETE statement instead
-- of the foreign key's cascade. The foreign key checked every inserted attempts row on its own
-- (a query and a key share lock on the job, per row): 0.32 ms of a 44-job lease's 1.5 ms, about a
-- fifth of what each lease costs the server under load (docs/benchmarks.md, "PostgreSQL: a lease
-- without a foreign-key check"). Every attempts row is written for a job the same statement or
-- transaction has just locked and changed; the one written for a job it has not, a stale worker's
-- rejected report, locks the job's key itself (store/jdbc/AttemptRows), as the foreign key did, so
-- it is never written for a job being deleted. The function finds attempts in the schema it was
-- made in, whatever the search path of the session that deletes.
CREATE FUNCTION delete_attempts_of_deleted_jobs() RETURNS trigger
  LANGUAGE plpgsql
  SET search_path FROM CURRENT
AS $$
BEGIN
  DELETE FROM attempts WHERE job_id IN (SELECT id FROM deleted_jobs);
  RETURN NULL;
END
$$;

CREATE TRIGGER jobs_deleted_with_their_attempts AFTER DELETE ON jobs
  REFERENCING OLD TABLE AS deleted_jobs
  FOR EACH STATEMENT EXECUTE FUNCTION delete_attempts_of_deleted_jobs();

ALTER TABLE attempts DROP CONSTRAINT attempts_job_id_fkey;
