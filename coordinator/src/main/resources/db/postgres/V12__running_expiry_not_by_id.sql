-- The running jobs' expiry index no longer serves a lookup by id. A heartbeat or a completion
-- names its job by id and asks it to be RUNNING, which the old index's predicate matched: the
-- planner, whose statistics count few running jobs, took the partial index for the cheaper way to
-- the row and walked all of it, dead entries of every job that ran since the last vacuum
-- included, for one id (45 ms per heartbeat on PostgreSQL 15, where the primary key reads three
-- pages). Its predicate now also asks for an expiry, which only the statements that select by
-- expiry (the sweep, the timers rebuilt at start) state; the others read by the primary key.
-- Built before the old one is dropped, so the sweep always has one; building it reads the table
-- once and holds off writes to it meanwhile.
CREATE INDEX jobs_running_expiry_v12 ON jobs (lease_expires_at, id)
  WHERE state = 'RUNNING' AND lease_expires_at IS NOT NULL;
DROP INDEX jobs_running_expiry;
ALTER INDEX jobs_running_expiry_v12 RENAME TO jobs_running_expiry;
