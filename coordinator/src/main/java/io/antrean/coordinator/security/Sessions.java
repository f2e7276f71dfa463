package io.antrean.coordinator.security;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The dashboard's sign-in sessions: a random 256-bit session id (the cookie) for a bearer token,
 * kept in memory only. Each request re-authenticates the token, so revoking it in the token file
 * ends its sessions too. At most {@value #MAX} sessions; the oldest goes first. Thread-safe.
 */
public final class Sessions {
  static final int MAX = 10_000;
  private static final SecureRandom RANDOM = new SecureRandom();

  private record Session(String token, Instant expiresAt) {}

  private final Duration lifetime;
  private final Object lock = new Object();

  @GuardedBy("lock")
  private final Map<String, Session> sessions = new LinkedHashMap<>();

  public Sessions(Duration lifetime) {
    this.lifetime = lifetime;
  }

  /** How long a session lasts from sign-in. */
  public Duration lifetime() {
    return lifetime;
  }

  /** Starts a session for {@code token} (already authenticated) and returns its id. */
  public String start(String token, Instant now) {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    synchronized (lock) {
      if (sessions.size() >= MAX) {
        Iterator<String> oldest = sessions.keySet().iterator();
        oldest.next();
        oldest.remove();
      }
      sessions.put(id, new Session(token, now.plus(lifetime)));
    }
    return id;
  }

  /** The token of a live session, or empty for an unknown or expired one. */
  public Optional<String> token(String id, Instant now) {
    synchronized (lock) {
      Session s = sessions.get(id);
      if (s == null) {
        return Optional.empty();
      }
      if (!now.isBefore(s.expiresAt())) {
        sessions.remove(id);
        return Optional.empty();
      }
      return Optional.of(s.token());
    }
  }

  /** Ends the session, if there is one. */
  public void end(String id) {
    synchronized (lock) {
      sessions.remove(id);
    }
  }
}
