-- Durable schedules (times in epoch microseconds, as everywhere here) and unique-while-active keys;
-- the same tables as PostgreSQL's V6__schedules.sql. (6 is the lease id's number on another branch.)
CREATE TABLE schedules (
  name TEXT PRIMARY KEY,
  cron TEXT,
  time_zone TEXT,
  interval_micros INTEGER,
  queue TEXT NOT NULL,
  type TEXT NOT NULL,
  payload BLOB NOT NULL,
  content_type TEXT NOT NULL,
  priority INTEGER NOT NULL,
  max_attempts INTEGER NOT NULL,
  initial_backoff_micros INTEGER NOT NULL,
  backoff_multiplier REAL NOT NULL,
  max_backoff_micros INTEGER NOT NULL,
  max_lease_expiries INTEGER NOT NULL,
  misfire_policy TEXT NOT NULL,
  misfire_limit INTEGER NOT NULL,
  overlap_policy TEXT NOT NULL,
  paused_micros INTEGER,
  next_fire_micros INTEGER NOT NULL,
  last_fire_micros INTEGER,
  last_job_id INTEGER,
  fires INTEGER NOT NULL,
  misses INTEGER NOT NULL,
  created_micros INTEGER NOT NULL,
  updated_micros INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX schedules_due ON schedules (next_fire_micros) WHERE paused_micros IS NULL;

ALTER TABLE jobs ADD COLUMN unique_key TEXT;
CREATE UNIQUE INDEX jobs_unique_while_active ON jobs (queue, unique_key)
  WHERE unique_key IS NOT NULL AND state IN ('PENDING', 'RUNNING');
