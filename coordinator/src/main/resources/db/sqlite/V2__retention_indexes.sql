-- Dead-letter listing, retention and key expiry walk an index instead of the table.
CREATE INDEX jobs_dead_letters ON jobs (id) WHERE state = 'FAILED';
CREATE INDEX jobs_finished ON jobs (state, finished_at) WHERE finished_at IS NOT NULL;
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
