package io.antrean.client.cli;

import io.antrean.client.internal.ProtoTime;
import io.antrean.proto.v1.DeadLetterFilter;
import java.time.Instant;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The filter options of the {@code dlq} commands ({@code --queue}, {@code --type}, {@code --error},
 * {@code --since}, {@code --until}), mixed into each, and their mapping onto a {@link
 * DeadLetterFilter}. Not thread-safe; picocli fills one instance per run.
 */
final class DeadLetterFilterOptions {
  @Option(names = "--queue", paramLabel = "Q", description = "Only dead letters of this queue.")
  String queue;

  @Option(names = "--type", paramLabel = "T", description = "Only dead letters of this job type.")
  String type;

  @Option(
      names = "--error",
      paramLabel = "TEXT",
      description = "Only dead letters whose last error contains TEXT (ignoring case).")
  String errorContains;

  @Option(
      names = "--since",
      paramLabel = "WHEN",
      converter = TimeBound.Converter.class,
      description =
          "Only those dead-lettered at or after WHEN: a duration before now (30m, 1h, 2d) or an"
              + " RFC 3339 time (2026-11-02T10:00:00Z).")
  TimeBound since;

  @Option(
      names = "--until",
      paramLabel = "WHEN",
      converter = TimeBound.Converter.class,
      description = "Only those dead-lettered before WHEN; written like --since.")
  TimeBound until;

  /** Whether no filter option was given. */
  boolean isEmpty() {
    return queue == null && type == null && errorContains == null && since == null && until == null;
  }

  /**
   * The filter the options describe, with relative times counted back from {@code now}; the default
   * instance when no option was given.
   *
   * @throws ParameterException if {@code --since} is not before {@code --until}
   */
  DeadLetterFilter toFilter(Instant now, CommandLine commandLine) {
    DeadLetterFilter.Builder filter = DeadLetterFilter.newBuilder();
    if (queue != null) {
      filter.setQueue(queue);
    }
    if (type != null) {
      filter.setType(type);
    }
    if (errorContains != null) {
      filter.setErrorContains(errorContains);
    }
    Instant after = since == null ? null : since.resolve(now);
    Instant before = until == null ? null : until.resolve(now);
    if (after != null && before != null && !after.isBefore(before)) {
      throw new ParameterException(
          commandLine, "--since (" + after + ") must be before --until (" + before + ")");
    }
    if (after != null) {
      filter.setFailedAfter(ProtoTime.toProto(after));
    }
    if (before != null) {
      filter.setFailedBefore(ProtoTime.toProto(before));
    }
    return filter.build();
  }
}
