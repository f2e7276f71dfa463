-- A job that waits for its dependencies is active too: it holds its unique key while WAITING, as it
-- does while PENDING or RUNNING, so a second job with the key is not stored meanwhile.
DROP INDEX jobs_unique_while_active;
CREATE UNIQUE INDEX jobs_unique_while_active ON jobs (queue, unique_key)
  WHERE unique_key IS NOT NULL AND state IN ('PENDING', 'RUNNING', 'WAITING');
