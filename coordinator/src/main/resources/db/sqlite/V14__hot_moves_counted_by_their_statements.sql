-- The two moves every job makes, PENDING to RUNNING (a lease) and RUNNING to SUCCEEDED (a
-- completion), are counted in queue_counts by the code that makes them, one upsert per lease and
-- per queue of a batch of completions (QueueCountRows#moved), instead of by this trigger once per
-- row: a row trigger runs two statements of its own for each job it sees, a tenth of the lease's
-- and the completion's cost in SQLite. Every other change of state is still counted here. Code,
-- or a hand-written UPDATE, that makes either move must count it; SqliteJobStoreTest compares the
-- counts with the jobs after every store test.
DROP TRIGGER jobs_counted_on_update;

CREATE TRIGGER jobs_counted_on_update AFTER UPDATE OF queue, state ON jobs
  WHEN (OLD.queue IS NOT NEW.queue OR OLD.state IS NOT NEW.state)
    AND NOT (OLD.queue IS NEW.queue
      AND ((OLD.state = 'PENDING' AND NEW.state = 'RUNNING')
        OR (OLD.state = 'RUNNING' AND NEW.state = 'SUCCEEDED')))
BEGIN
  UPDATE queue_counts SET jobs = jobs - 1 WHERE queue = OLD.queue AND state = OLD.state;
  INSERT INTO queue_counts (queue, state, jobs) VALUES (NEW.queue, NEW.state, 1)
    ON CONFLICT (queue, state) DO UPDATE SET jobs = jobs + 1;
END;
