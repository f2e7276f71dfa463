-- Leases handed back unrun, counted apart so that attempts never drops.
ALTER TABLE jobs ADD COLUMN releases INTEGER NOT NULL DEFAULT 0;
