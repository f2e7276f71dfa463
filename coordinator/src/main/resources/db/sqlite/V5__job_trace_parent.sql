-- The producer's W3C traceparent, carried to the worker; NULL for none.
ALTER TABLE jobs ADD COLUMN trace_parent TEXT;
