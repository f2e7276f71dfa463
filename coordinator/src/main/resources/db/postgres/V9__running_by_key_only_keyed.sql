-- Only RUNNING jobs that have a concurrency key are counted per key, so only they need an entry:
-- a job without a key no longer adds and removes an index entry on every lease and completion.
-- The per-key counts compare concurrency_key = ..., which implies IS NOT NULL, so they still use it.
DROP INDEX jobs_running_by_key;
CREATE INDEX jobs_running_by_key ON jobs (queue, concurrency_key)
  WHERE state = 'RUNNING' AND concurrency_key IS NOT NULL;
