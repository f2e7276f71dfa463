-- How many jobs each queue holds in each state, kept by triggers on every row of jobs that is
-- stored, changes state or is deleted, in the same transaction. GetStats and the /metrics gauges
-- read these rows instead of counting the jobs, so their cost no longer grows with the backlog or
-- with the finished jobs kept. The triggers see every write, whichever code makes it; a later
-- migration that rebuilds the jobs table must create them again.
CREATE TABLE queue_counts (
  queue TEXT NOT NULL,
  state TEXT NOT NULL,
  jobs INTEGER NOT NULL,
  PRIMARY KEY (queue, state)
) WITHOUT ROWID;

INSERT INTO queue_counts (queue, state, jobs)
  SELECT queue, state, count(*) FROM jobs INDEXED BY jobs_queue_state GROUP BY queue, state;

CREATE TRIGGER jobs_counted_on_insert AFTER INSERT ON jobs
BEGIN
  INSERT INTO queue_counts (queue, state, jobs) VALUES (NEW.queue, NEW.state, 1)
    ON CONFLICT (queue, state) DO UPDATE SET jobs = jobs + 1;
END;

CREATE TRIGGER jobs_counted_on_update AFTER UPDATE OF queue, state ON jobs
  WHEN OLD.queue IS NOT NEW.queue OR OLD.state IS NOT NEW.state
BEGIN
  UPDATE queue_counts SET jobs = jobs - 1 WHERE queue = OLD.queue AND state = OLD.state;
  INSERT INTO queue_counts (queue, state, jobs) VALUES (NEW.queue, NEW.state, 1)
    ON CONFLICT (queue, state) DO UPDATE SET jobs = jobs + 1;
END;

CREATE TRIGGER jobs_counted_on_delete AFTER DELETE ON jobs
BEGIN
  UPDATE queue_counts SET jobs = jobs - 1 WHERE queue = OLD.queue AND state = OLD.state;
END;
