-- Antrean job store on SQLite, schema version 1. A released migration is never edited; changes come
-- as V2__..., V3__... files, numbered like the PostgreSQL ones where the change is the same. Times
-- are epoch microseconds in INTEGER columns; retry backoffs are whole microseconds.

CREATE TABLE jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  queue TEXT NOT NULL,
  type TEXT NOT NULL,
  payload BLOB NOT NULL,
  content_type TEXT NOT NULL,
  priority INTEGER NOT NULL,
  run_at INTEGER NOT NULL,
  idempotency_key TEXT,
  max_attempts INTEGER NOT NULL,
  initial_backoff_micros INTEGER NOT NULL,
  backoff_multiplier REAL NOT NULL,
  max_backoff_micros INTEGER NOT NULL,
  max_lease_expiries INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  lease_expiries INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL
    CHECK (state IN ('PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
  result BLOB,
  result_content_type TEXT,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  finished_at INTEGER,
  lease_worker_id TEXT,
  lease_token INTEGER NOT NULL DEFAULT 0,
  lease_expires_at INTEGER,
  progress TEXT,
  cancel_requested INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX jobs_pending ON jobs (queue, priority DESC, run_at, id) WHERE state = 'PENDING';
CREATE INDEX jobs_running_expiry ON jobs (lease_expires_at) WHERE state = 'RUNNING';
CREATE INDEX jobs_queue_state ON jobs (queue, state);

CREATE TABLE attempts (
  id INTEGER PRIMARY KEY,
  job_id INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  worker_id TEXT NOT NULL,
  fencing_token INTEGER NOT NULL,
  leased_at INTEGER NOT NULL,
  ended_at INTEGER,
  outcome TEXT NOT NULL,
  error_kind TEXT,
  error_type TEXT,
  error_message TEXT,
  stack_trace TEXT
);

CREATE INDEX attempts_job ON attempts (job_id, fencing_token);

CREATE TABLE idempotency_keys (
  queue TEXT NOT NULL,
  key TEXT NOT NULL,
  job_id INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  fingerprint BLOB NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (queue, key)
) WITHOUT ROWID;

CREATE INDEX idempotency_keys_job ON idempotency_keys (job_id);
