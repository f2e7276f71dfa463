package io.antrean.coordinator.config;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.antrean.coordinator.core.RetryOverride;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.proto.config.v1.CoordinatorConfig;
import io.antrean.proto.config.v1.JobTypeConfig;
import io.antrean.proto.config.v1.QueueConfig;
import io.antrean.proto.v1.ScheduleDefinition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the coordinator's JSON configuration file (the {@code antrean.config.v1.CoordinatorConfig}
 * message in protobuf's JSON mapping): declared job types and retry defaults per type and queue. A
 * type's or queue's retry policy gives only the fields it sets; the rest come from the layer below,
 * per field (see {@link Settings#retryDefaults}).
 */
public final class ConfigFile {
  private ConfigFile() {}

  /**
   * @throws IllegalArgumentException naming the file and the fault, for a file that cannot be used
   */
  public static Settings apply(Path file, Settings base) {
    return apply(read(file), base, file.toString());
  }

  /**
   * The schedules the file declares, in file order, unchecked (the coordinator validates them as it
   * declares them).
   *
   * @throws IllegalArgumentException naming the file and the fault, for a file that cannot be used
   */
  public static List<ScheduleDefinition> schedules(Path file) {
    return read(file).getSchedulesList();
  }

  private static CoordinatorConfig read(Path file) {
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
    return b.build();
  }

  static Settings apply(CoordinatorConfig config, Settings base, String source) {
    Set<String> types = new LinkedHashSet<>();
    Map<String, RetryOverride> byType = new HashMap<>();
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
    Map<String, RetryOverride> byQueue = new HashMap<>();
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

  /**
   * The fields this policy sets (zero and unset mean "not set"), checked against {@code d}, so a
   * field out of range is reported here, at start, naming its owner.
   */
  private static RetryOverride policy(
      io.antrean.proto.v1.RetryPolicy p, RetryPolicy d, String source, String owner) {
    RetryOverride fields =
        new RetryOverride(
            p.getMaxAttempts() == 0 ? null : p.getMaxAttempts(),
            p.hasInitialBackoff() ? duration(p.getInitialBackoff()) : null,
            p.getBackoffMultiplier() == 0 ? null : p.getBackoffMultiplier(),
            p.hasMaxBackoff() ? duration(p.getMaxBackoff()) : null,
            p.getMaxLeaseExpiries() == 0 ? null : p.getMaxLeaseExpiries());
    try {
      fields.applyTo(d);
      return fields;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          source + ": retry policy of " + owner + ": " + e.getMessage(), e);
    }
  }

  private static Duration duration(com.google.protobuf.Duration d) {
    return Duration.ofSeconds(d.getSeconds(), d.getNanos());
  }
}
