-- Concurrency and rate limits (issue J). A job may name a concurrency key (say, a customer id); a queue may
-- cap its RUNNING jobs in total and per key. NULL means "no limit" and "no key". A lease in a
-- limited queue locks the queue's row, so leases of N coordinators in that queue are serialised
-- and the counts they read are exact; a queue without limits never takes that lock.
ALTER TABLE jobs ADD COLUMN concurrency_key text;
ALTER TABLE queues ADD COLUMN max_running integer;
ALTER TABLE queues ADD COLUMN max_running_per_key integer;

-- Counting a limited queue's running jobs per key reads this small index, never the backlog.
CREATE INDEX jobs_running_by_key ON jobs (queue, concurrency_key) WHERE state = 'RUNNING';

-- Rate limits: a token bucket per queue (its config and state on the queue's row) and one per
-- concurrency key of a queue with a per-key rate. Buckets are read and written only by leases that
-- hold the queue's row lock. Intervals and times are epoch microseconds; NULL tokens: a full bucket.
ALTER TABLE queues ADD COLUMN rate_starts integer;
ALTER TABLE queues ADD COLUMN rate_interval_micros bigint;
ALTER TABLE queues ADD COLUMN rate_per_key_starts integer;
ALTER TABLE queues ADD COLUMN rate_per_key_interval_micros bigint;
ALTER TABLE queues ADD COLUMN rate_tokens double precision;
ALTER TABLE queues ADD COLUMN rate_refilled_at_micros bigint;
CREATE TABLE rate_buckets (
  queue text NOT NULL,
  concurrency_key text NOT NULL,
  tokens double precision NOT NULL,
  refilled_at_micros bigint NOT NULL,
  PRIMARY KEY (queue, concurrency_key)
);
