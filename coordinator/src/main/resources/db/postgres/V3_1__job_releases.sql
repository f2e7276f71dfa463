-- Leases handed back unrun (Release, a cancel), counted apart so that attempts never drops: a job's
-- handler attempts are attempts - lease_expiries - releases.
ALTER TABLE jobs ADD COLUMN releases integer NOT NULL DEFAULT 0;
