package io.antrean.client.cli;

import com.google.protobuf.ByteString;
import io.antrean.client.internal.ProtoTime;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.MisfirePolicy;
import io.antrean.proto.v1.OverlapPolicy;
import io.antrean.proto.v1.ScheduleDefinition;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** A schedule's definition on the command line, shared by create and update. */
final class ScheduleOptions {
  /** The misfire policies by their command-line names. */
  enum Misfire {
    skip,
    run_once,
    run_all
  }

  /** The overlap policies by their command-line names. */
  enum Overlap {
    allow,
    skip
  }

  @Parameters(index = "0", paramLabel = "NAME", description = "The schedule's name.")
  String name;

  @Option(
      names = "--cron",
      paramLabel = "EXPR",
      description = "5 fields (min hour dom month dow), or 6 with seconds first.")
  String cron;

  @Option(names = "--time-zone", paramLabel = "ZONE", description = "For --cron; default UTC.")
  String timeZone;

  @Option(
      names = "--every",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "A fixed interval instead of --cron, e.g. 30s, 5m.")
  Duration every;

  @Option(names = "--type", required = true, description = "The job type of each enqueued job.")
  String type;

  @Option(names = "--queue", description = "The jobs' queue (default: 'default').")
  String queue;

  @Option(names = "--payload", paramLabel = "JSON", description = "The jobs' payload text.")
  String payload;

  @Option(names = "--priority", description = "The jobs' priority (default: 0).")
  int priority;

  @Option(
      names = "--misfire",
      description = "After downtime: ${COMPLETION-CANDIDATES} (default: skip).")
  Misfire misfire;

  @Option(names = "--misfire-limit", paramLabel = "N", description = "run_all's bound (100).")
  int misfireLimit;

  @Option(
      names = "--overlap",
      description = "While the previous job is active: ${COMPLETION-CANDIDATES} (default: allow).")
  Overlap overlap;

  ScheduleDefinition definition() {
    EnqueueRequest.Builder template = EnqueueRequest.newBuilder().setType(type);
    if (queue != null) {
      template.setQueue(queue);
    }
    if (payload != null) {
      template.setPayload(ByteString.copyFrom(payload, StandardCharsets.UTF_8));
    }
    template.setPriority(priority);
    ScheduleDefinition.Builder d =
        ScheduleDefinition.newBuilder()
            .setName(name)
            .setTemplate(template)
            .setMisfireLimit(misfireLimit);
    if (cron != null) {
      d.setCron(cron);
    }
    if (timeZone != null) {
      d.setTimeZone(timeZone);
    }
    if (every != null) {
      d.setInterval(ProtoTime.toProto(every));
    }
    if (misfire != null) {
      d.setMisfirePolicy(MisfirePolicy.valueOf("MISFIRE_POLICY_" + misfire.name().toUpperCase()));
    }
    if (overlap != null) {
      d.setOverlapPolicy(OverlapPolicy.valueOf("OVERLAP_POLICY_" + overlap.name().toUpperCase()));
    }
    return d.build();
  }
}
