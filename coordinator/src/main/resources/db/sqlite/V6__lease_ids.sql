-- The SHA-256 of each lease's random lease id (the worker gets the id itself, the database only its
-- digest): on the job for its current lease, on the attempt so a holder's repeated Complete or Fail
-- is recognised. NULL for leases granted before lease ids existed, which no call can present.
ALTER TABLE jobs ADD COLUMN lease_id_sha256 BLOB;
ALTER TABLE attempts ADD COLUMN lease_id_sha256 BLOB;
