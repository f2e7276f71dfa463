package io.antrean.coordinator.core;

import java.util.regex.Pattern;

/** The rules for queue names and job types, shared by every request that names them. */
final class Names {
  static final String DEFAULT_QUEUE = "default";
  static final int MAX_QUEUE_LENGTH = 64;
  static final int MAX_TYPE_LENGTH = 128;
  private static final Pattern QUEUE = Pattern.compile("[A-Za-z0-9._-]+");
  private static final Pattern TYPE = Pattern.compile("[A-Za-z0-9._:/-]+");

  private Names() {}

  /** The queue to use, or a description of what is wrong with the name. */
  static String queueProblem(String queue) {
    if (queue.length() > MAX_QUEUE_LENGTH) {
      return "queue name longer than " + MAX_QUEUE_LENGTH + " characters";
    }
    if (!QUEUE.matcher(queue).matches()) {
      return "queue name may hold only letters, digits, '.', '-' and '_': " + queue;
    }
    return null;
  }

  static String typeProblem(String type) {
    if (type.isEmpty()) {
      return "job type is required";
    }
    if (type.length() > MAX_TYPE_LENGTH) {
      return "job type longer than " + MAX_TYPE_LENGTH + " characters";
    }
    if (!TYPE.matcher(type).matches()) {
      return "job type may hold only letters, digits and '.', '_', '-', ':', '/': " + type;
    }
    return null;
  }

  static String queueOrDefault(String queue) {
    return queue.isEmpty() ? DEFAULT_QUEUE : queue;
  }
}
