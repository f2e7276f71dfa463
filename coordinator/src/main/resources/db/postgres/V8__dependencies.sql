-- Job dependencies (depends_on). A WAITING job waits for the jobs named in job_dependencies; its
-- unmet_dependencies counts those that have not SUCCEEDED yet, and on_dependency_failure says what
-- becomes of it when one ends FAILED or CANCELLED (NULL: the job has no dependencies).
-- has_dependents marks a job that some other job depends on: a completion of a job without it
-- stays the one-statement hot path, one with it takes the transaction that releases its
-- dependents. Constant defaults: adding the columns rewrites no row.
ALTER TABLE jobs ADD COLUMN has_dependents boolean NOT NULL DEFAULT false;
ALTER TABLE jobs ADD COLUMN unmet_dependencies integer NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN on_dependency_failure text
  CHECK (on_dependency_failure IN ('CANCEL', 'DEAD_LETTER'));
-- The new state. NOT VALID: every existing row passes the old, narrower check, so no scan.
ALTER TABLE jobs DROP CONSTRAINT jobs_state_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_state_check
  CHECK (state IN ('PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'WAITING')) NOT VALID;
-- Deleting a dependent deletes its edges; a dependency may be deleted (retention) and its edges
-- stay, read as "gone".
CREATE TABLE job_dependencies (
  job_id bigint NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  depends_on_id bigint NOT NULL,
  PRIMARY KEY (job_id, depends_on_id)
);
CREATE INDEX job_dependencies_depends_on ON job_dependencies (depends_on_id);
