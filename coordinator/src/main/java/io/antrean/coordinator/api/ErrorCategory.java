package io.antrean.coordinator.api;

/**
 * What kind of refusal an error is, whatever the transport. {@link ApiError#of} decides it once;
 * the gRPC status table and the HTTP error answer each map it to their own codes.
 */
public enum ErrorCategory {
  /** The request is malformed or names something invalid; the violations say which field. */
  INVALID_ARGUMENT,
  /** No credentials, or credentials this coordinator does not know. */
  UNAUTHENTICATED,
  /** The caller is known but may not do this. */
  PERMISSION_DENIED,
  /** The job the request names does not exist. */
  NOT_FOUND,
  /** The request conflicts with something stored (an idempotency key used for another job). */
  ALREADY_EXISTS,
  /**
   * The job is not in a state that allows the call (a lost lease, a finished job, a job not in the
   * dead-letter queue); retrying the same call cannot succeed.
   */
  FAILED_PRECONDITION,
  /** A limit of the coordinator is reached; the caller may retry after a delay. */
  RESOURCE_EXHAUSTED,
  /** The store or the coordinator is unavailable for now; the caller may retry. */
  UNAVAILABLE,
  /** A bug: anything not classified. Only a correlation id goes to the caller. */
  INTERNAL
}
