-- The producer's W3C traceparent, carried to the worker so its handler span continues the trace;
-- NULL for none.
ALTER TABLE jobs ADD COLUMN trace_parent text;
