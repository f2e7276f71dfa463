-- Antrean job store, schema version 2: queue control. A queue gets a row the first time it is
-- paused; resuming sets paused_at back to NULL. A lease reads the row of its queue in the same
-- statement that picks the jobs, so a paused queue leases nothing.
CREATE TABLE queues (
  name text PRIMARY KEY,
  paused_at timestamptz
);
