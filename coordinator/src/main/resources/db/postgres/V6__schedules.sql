-- Antrean job store, schema version 6 (issue J): durable schedules and unique-while-active keys.
-- Schedule times are epoch microseconds in bigint columns, as in SQLite, so the schedule SQL is the
-- same for both databases (store/jdbc/JdbcScheduleStore).
CREATE TABLE schedules (
  name text PRIMARY KEY,
  -- Exactly one of (cron, time_zone) and interval_micros is set.
  cron text,
  time_zone text,
  interval_micros bigint,
  -- The job template, every default applied.
  queue text NOT NULL,
  type text NOT NULL,
  payload bytea NOT NULL,
  content_type text NOT NULL,
  priority integer NOT NULL,
  max_attempts integer NOT NULL,
  initial_backoff_micros bigint NOT NULL,
  backoff_multiplier double precision NOT NULL,
  max_backoff_micros bigint NOT NULL,
  max_lease_expiries integer NOT NULL,
  misfire_policy text NOT NULL,
  misfire_limit integer NOT NULL,
  overlap_policy text NOT NULL,
  paused_micros bigint,
  -- Moved on by every fire with a compare-and-set, in the transaction that enqueues the job.
  next_fire_micros bigint NOT NULL,
  last_fire_micros bigint,
  last_job_id bigint,
  fires bigint NOT NULL,
  misses bigint NOT NULL,
  created_micros bigint NOT NULL,
  updated_micros bigint NOT NULL
);

-- The fire duty asks for the running schedules that are due, soonest first.
CREATE INDEX schedules_due ON schedules (next_fire_micros) WHERE paused_micros IS NULL;

-- Unique while active: at most one PENDING or RUNNING job per queue and unique key, enforced by
-- the database so it holds with any number of coordinators; a finished job frees its key at once.
ALTER TABLE jobs ADD COLUMN unique_key text;
CREATE UNIQUE INDEX jobs_unique_while_active ON jobs (queue, unique_key)
  WHERE unique_key IS NOT NULL AND state IN ('PENDING', 'RUNNING');
