-- Concurrency limits (issue J). A job may name a concurrency key (say, a customer id); a queue may
-- cap its RUNNING jobs in total and per key. NULL means "no limit" and "no key". A lease in a
-- limited queue locks the queue's row, so leases of N coordinators in that queue are serialised
-- and the counts they read are exact; a queue without limits never takes that lock.
ALTER TABLE jobs ADD COLUMN concurrency_key text;
ALTER TABLE queues ADD COLUMN max_running integer;
ALTER TABLE queues ADD COLUMN max_running_per_key integer;

-- Counting a limited queue's running jobs per key reads this small index, never the backlog.
CREATE INDEX jobs_running_by_key ON jobs (queue, concurrency_key) WHERE state = 'RUNNING';
