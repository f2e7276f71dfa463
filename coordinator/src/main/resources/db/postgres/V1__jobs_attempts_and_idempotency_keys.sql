-- Antrean job store, schema version 1. A released migration is never edited; changes come as
-- V2__..., V3__... files. Times are timestamptz (microsecond precision, like the SPI promises);
-- retry backoffs are whole microseconds in bigint columns.

CREATE TABLE jobs (
  -- From a sequence: unique across every coordinator sharing the database, never reused.
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  queue text NOT NULL,
  type text NOT NULL,
  payload bytea NOT NULL,
  content_type text NOT NULL,
  priority integer NOT NULL,
  run_at timestamptz NOT NULL,
  idempotency_key text,
  max_attempts integer NOT NULL,
  initial_backoff_micros bigint NOT NULL,
  backoff_multiplier double precision NOT NULL,
  max_backoff_micros bigint NOT NULL,
  max_lease_expiries integer NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  lease_expiries integer NOT NULL DEFAULT 0,
  state text NOT NULL
    CHECK (state IN ('PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
  result bytea,
  result_content_type text,
  last_error text,
  -- last_error case-folded by the coordinator (Java's full Unicode folding), so the dead-letter
  -- search matches the same way whatever the server's locale or collation.
  last_error_folded text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  finished_at timestamptz,
  lease_worker_id text,
  -- The fencing token: incremented by every lease and never reset, so no token repeats for a job.
  lease_token bigint NOT NULL DEFAULT 0,
  lease_expires_at timestamptz,
  progress text,
  cancel_requested boolean NOT NULL DEFAULT false
);

-- Lease walks this in order and stops after the jobs it takes, however long the backlog.
CREATE INDEX jobs_pending ON jobs (queue, priority DESC, run_at, id) WHERE state = 'PENDING';
-- The expiry sweep and the running-lease listing, longest expired first.
CREATE INDEX jobs_running_expiry ON jobs (lease_expires_at, id) WHERE state = 'RUNNING';
-- Stats: counts per queue and state, and the oldest ready run time, from the index alone.
CREATE INDEX jobs_queue_state ON jobs (queue, state, run_at);
-- Dead-letter listing, newest id first, with or without a queue.
CREATE INDEX jobs_dead_letters ON jobs (id) WHERE state = 'FAILED';
CREATE INDEX jobs_dead_letters_by_queue ON jobs (queue, id) WHERE state = 'FAILED';
-- Retention (oldest finished first) and dead-letter growth (finished since).
CREATE INDEX jobs_finished ON jobs (state, finished_at, id) WHERE finished_at IS NOT NULL;

-- The attempt history: one row per lease, plus stale-token rejections and redrives.
CREATE TABLE attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  job_id bigint NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  worker_id text NOT NULL,
  fencing_token bigint NOT NULL,
  leased_at timestamptz NOT NULL,
  ended_at timestamptz,
  outcome text NOT NULL,
  error_kind text,
  error_type text,
  error_message text,
  stack_trace text
);

CREATE INDEX attempts_job ON attempts (job_id, fencing_token);

-- The primary key makes the database, not a coordinator, decide which of two racing enqueues
-- with one key stores the job.
CREATE TABLE idempotency_keys (
  queue text NOT NULL,
  key text NOT NULL,
  job_id bigint NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  fingerprint bytea NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (queue, key)
);

CREATE INDEX idempotency_keys_job ON idempotency_keys (job_id);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
