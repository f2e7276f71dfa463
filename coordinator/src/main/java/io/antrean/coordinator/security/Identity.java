package io.antrean.coordinator.security;

import java.util.Objects;
import java.util.Set;

/**
 * Who is calling: the name of a bearer token (or the subject of a client certificate), its roles,
 * and the queues it may name.
 *
 * @param name unique among identities; shown in job histories as the owner of a lease
 * @param roles at least one
 * @param queues the queues its calls may name; empty for every queue
 */
public record Identity(String name, Set<Role> roles, Set<String> queues) {
  public Identity {
    Objects.requireNonNull(name, "name");
    roles = Set.copyOf(roles);
    queues = Set.copyOf(queues);
  }

  /** True when any of this identity's roles is in {@code allowed}. */
  public boolean hasAnyOf(Set<Role> allowed) {
    for (Role role : roles) {
      if (allowed.contains(role)) {
        return true;
      }
    }
    return false;
  }

  /** True when this identity may name {@code queue}. */
  public boolean mayUse(String queue) {
    return queues.isEmpty() || queues.contains(queue);
  }
}
