-- GetStats of the unfinished jobs alone (GetStatsRequest.unfinished_only) for one queue: the
-- queue's PENDING, RUNNING and WAITING entries of jobs_queue_state, counted by an index scan whatever
-- the planner statistics say. While jobs run, that range also holds an entry for every version of
-- the jobs already run, until a vacuum. A bitmap scan, which the planner picks when it expects many
-- rows, visits the table for each of those entries at every call; a plain index scan marks the ones
-- it finds dead, so the next call steps over them. A script or a bench polling how much is left
-- then costs the server a fraction of a millisecond near the end of a run, not 6-9 ms
-- (docs/benchmarks.md, "The end of a run on PostgreSQL, found late").
CREATE FUNCTION unfinished_counts(p_queue text, p_now timestamptz)
  RETURNS TABLE (queue text, state text, jobs bigint, ready bigint, oldest_ready timestamptz)
  LANGUAGE sql STABLE
  SET enable_bitmapscan = off
  SET enable_seqscan = off
AS $$
  SELECT j.queue, j.state, count(*),
    count(*) FILTER (WHERE j.state = 'PENDING' AND j.run_at <= p_now),
    min(j.run_at) FILTER (WHERE j.state = 'PENDING' AND j.run_at <= p_now)
  FROM jobs AS j
  WHERE j.queue = p_queue AND j.state IN ('PENDING', 'RUNNING', 'WAITING')
  GROUP BY j.queue, j.state
$$;
