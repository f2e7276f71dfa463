package io.antrean.coordinator.config;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.antrean.coordinator.core.RetryOverride;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.store.QueueLimits;
import io.antrean.coordinator.store.RateLimit;
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
import java.util.TreeMap;

/**
 * Reads the coordinator's JSON configuration file (the {@code antrean.config.v1.CoordinatorConfig}
 * message in protobuf's JSON mapping): declared job types, retry defaults per type and queue, and
 * queues' concurrency limits (see {@link #queueLimits}). A type's or queue's retry policy gives
 * only the fields it sets; the rest come from the layer below, per field (see {@link
 * Settings#retryDefaults}).
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
   * The concurrency limits the file declares, by queue; queues that declare none are left out.
   *
   * @throws IllegalArgumentException naming the file and the queue, for a negative limit
   */
  public static Map<String, QueueLimits> queueLimits(Path file) {
    return queueLimits(read(file), file.toString());
  }

  static Map<String, QueueLimits> queueLimits(CoordinatorConfig config, String source) {
    Map<String, QueueLimits> limits = new TreeMap<>();
    for (QueueConfig q : config.getQueuesList()) {
      if (!q.hasConcurrencyLimits()) {
        continue;
      }
      if (q.getName().isEmpty()) {
        throw new IllegalArgumentException(source + ": a queue has no name");
      }
      io.antrean.proto.v1.QueueLimits declared = q.getConcurrencyLimits();
      int maxRunning = declared.getMaxRunning();
      int perKey = declared.getMaxRunningPerKey();
      if (maxRunning < 0 || perKey < 0) {
        throw new IllegalArgumentException(
            source + ": concurrency limits of queue " + q.getName() + " must be 0 or more");
      }
      try {
        limits.put(
            q.getName(),
            new QueueLimits(
                maxRunning == 0 ? null : maxRunning,
                perKey == 0 ? null : perKey,
                declared.hasRate() ? rate(declared.getRate()) : null,
                declared.hasRatePerKey() ? rate(declared.getRatePerKey()) : null));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            source + ": rate limit of queue " + q.getName() + ": " + e.getMessage(), e);
      }
    }
    return limits;
  }

  private static RateLimit rate(io.antrean.proto.v1.RateLimit r) {
    return new RateLimit(r.getStarts(), duration(r.getInterval()));
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
