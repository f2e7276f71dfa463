package io.antrean.coordinator.config;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.proto.config.v1.CoordinatorConfig;
import io.antrean.proto.config.v1.JobTypeConfig;
import io.antrean.proto.config.v1.QueueConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Reads the coordinator's JSON configuration file (the {@code antrean.config.v1.CoordinatorConfig}
 * message in protobuf's JSON mapping): declared job types and retry defaults per type and queue.
 */
public final class ConfigFile {
  private ConfigFile() {}

  /**
   * @throws IllegalArgumentException naming the file and the fault, for a file that cannot be used
   */
  public static Settings apply(Path file, Settings base) {
    String json;
    try {
      json = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read config file " + file + ": " + e, e);
    }
    CoordinatorConfig.Builder b = CoordinatorConfig.newBuilder();
    try {
      JsonFormat.parser().merge(json, b);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "config file " + file + " is not valid: " + e.getMessage(), e);
    }
    return apply(b.build(), base, file.toString());
  }

  static Settings apply(CoordinatorConfig config, Settings base, String source) {
    Set<String> types = new LinkedHashSet<>();
    Map<String, RetryPolicy> byType = new HashMap<>();
    for (JobTypeConfig t : config.getJobTypesList()) {
      if (t.getName().isEmpty()) {
        throw new IllegalArgumentException(source + ": a job type has no name");
      }
      types.add(t.getName());
      if (t.hasRetryPolicy()) {
        byType.put(
            t.getName(), policy(t.getRetryPolicy(), base.defaultPolicy(), source, t.getName()));
      }
    }
    Map<String, RetryPolicy> byQueue = new HashMap<>();
    for (QueueConfig q : config.getQueuesList()) {
      if (q.getName().isEmpty()) {
        throw new IllegalArgumentException(source + ": a queue has no name");
      }
      if (q.hasRetryPolicy()) {
        byQueue.put(
            q.getName(), policy(q.getRetryPolicy(), base.defaultPolicy(), source, q.getName()));
      }
    }
    return base.withJobTypes(types, byType, byQueue);
  }

  private static RetryPolicy policy(
      io.antrean.proto.v1.RetryPolicy p, RetryPolicy d, String source, String owner) {
    try {
      return new RetryPolicy(
          p.getMaxAttempts() == 0 ? d.maxAttempts() : p.getMaxAttempts(),
          p.hasInitialBackoff() ? duration(p.getInitialBackoff()) : d.initialBackoff(),
          p.getBackoffMultiplier() == 0 ? d.multiplier() : p.getBackoffMultiplier(),
          p.hasMaxBackoff() ? duration(p.getMaxBackoff()) : d.maxBackoff(),
          p.getMaxLeaseExpiries() == 0 ? d.maxLeaseExpiries() : p.getMaxLeaseExpiries());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          source + ": retry policy of " + owner + ": " + e.getMessage(), e);
    }
  }

  private static Duration duration(com.google.protobuf.Duration d) {
    return Duration.ofSeconds(d.getSeconds(), d.getNanos());
  }
}
