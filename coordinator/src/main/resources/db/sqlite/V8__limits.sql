-- Concurrency and rate limits. A job's key (NULL for none); a queue's caps and rates (NULL for
-- none) and its rate bucket; the buckets of its keys. Intervals in microseconds.
ALTER TABLE jobs ADD COLUMN concurrency_key TEXT;
ALTER TABLE queues ADD COLUMN max_running INTEGER;
ALTER TABLE queues ADD COLUMN max_running_per_key INTEGER;
CREATE INDEX jobs_running_by_key ON jobs (queue, concurrency_key) WHERE state = 'RUNNING';
ALTER TABLE queues ADD COLUMN rate_starts INTEGER;
ALTER TABLE queues ADD COLUMN rate_interval_micros INTEGER;
ALTER TABLE queues ADD COLUMN rate_per_key_starts INTEGER;
ALTER TABLE queues ADD COLUMN rate_per_key_interval_micros INTEGER;
ALTER TABLE queues ADD COLUMN rate_tokens REAL;
ALTER TABLE queues ADD COLUMN rate_refilled_at_micros INTEGER;
CREATE TABLE rate_buckets (
  queue TEXT NOT NULL,
  concurrency_key TEXT NOT NULL,
  tokens REAL NOT NULL,
  refilled_at_micros INTEGER NOT NULL,
  PRIMARY KEY (queue, concurrency_key)
) WITHOUT ROWID;
