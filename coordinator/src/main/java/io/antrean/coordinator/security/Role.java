package io.antrean.coordinator.security;

import java.util.Locale;

/**
 * What an identity may do. Roles add up: an identity holding several may do what any of them
 * allows. See {@link AccessPolicy} for the calls each role opens.
 */
public enum Role {
  /** Enqueues jobs, reads, watches and cancels them. */
  PRODUCER,
  /** Leases jobs and reports on them (WorkerService). */
  WORKER,
  /** Operates the coordinator: queues, dead letters, and everything a reader sees. */
  ADMIN,
  /** Reads jobs, queues, statistics and dead letters; changes nothing. */
  READER;

  /** The role's name as written in the token file and on the command line. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @throws IllegalArgumentException naming the accepted roles, for anything else
   */
  public static Role parse(String label) {
    for (Role role : values()) {
      if (role.label().equals(label.strip().toLowerCase(Locale.ROOT))) {
        return role;
      }
    }
    throw new IllegalArgumentException(
        "unknown role '" + label + "'; expected producer, worker, admin or reader");
  }
}
