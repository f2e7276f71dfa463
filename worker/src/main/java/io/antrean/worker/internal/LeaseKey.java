package io.antrean.worker.internal;

/**
 * Names one lease: a job id and the fencing token of one of its leases. The same job may be held
 * twice by this worker for a moment (an old lease lost, a new one taken), so the id alone is not
 * enough.
 */
record LeaseKey(long jobId, long fencingToken) {}
