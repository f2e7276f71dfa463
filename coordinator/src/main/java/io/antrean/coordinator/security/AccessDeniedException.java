package io.antrean.coordinator.security;

/**
 * A call refused by authentication ({@link #unauthenticated}: gRPC UNAUTHENTICATED, HTTP 401) or by
 * authorization (gRPC PERMISSION_DENIED, HTTP 403). The message never contains a credential.
 */
public final class AccessDeniedException extends RuntimeException {
  private final boolean unauthenticated;
  private final String reason;

  private AccessDeniedException(boolean unauthenticated, String reason, String message) {
    super(message, null, false, false);
    this.unauthenticated = unauthenticated;
    this.reason = reason;
  }

  /** No credentials came with the call. */
  public static AccessDeniedException missingCredentials() {
    return new AccessDeniedException(
        true,
        "CREDENTIALS_MISSING",
        "this coordinator requires authentication: send 'authorization: Bearer <token>'");
  }

  /** The credentials did not match any identity. */
  public static AccessDeniedException invalidCredentials() {
    return new AccessDeniedException(
        true, "CREDENTIALS_INVALID", "the bearer token is not known to this coordinator");
  }

  /** The identity's roles do not allow the call. */
  public static AccessDeniedException roleNotAllowed(String identity, String operation) {
    return new AccessDeniedException(
        false,
        "ROLE_NOT_ALLOWED",
        "identity '" + identity + "' has no role that allows " + operation);
  }

  /** The identity may not name this queue. */
  public static AccessDeniedException queueNotAllowed(String identity, String queue) {
    return new AccessDeniedException(
        false,
        "QUEUE_NOT_ALLOWED",
        "identity '" + identity + "' may not use queue '" + queue + "'");
  }

  /**
   * The identity may not use the queue of the job it named by id, or no such job exists: the
   * message says neither which queue nor whether the job exists.
   */
  public static AccessDeniedException jobNotAllowed(String identity, long jobId) {
    return new AccessDeniedException(
        false,
        "QUEUE_NOT_ALLOWED",
        "identity '" + identity + "' may not use job " + jobId + " (not in its queues, or none)");
  }

  /** True for UNAUTHENTICATED (401), false for PERMISSION_DENIED (403). */
  public boolean unauthenticated() {
    return unauthenticated;
  }

  /** The ErrorInfo reason, for example {@code ROLE_NOT_ALLOWED}. */
  public String reason() {
    return reason;
  }
}
