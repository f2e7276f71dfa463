package io.antrean.coordinator.api;

import static io.antrean.coordinator.api.ProtoTime.duration;
import static io.antrean.coordinator.api.ProtoTime.requestDuration;
import static io.antrean.coordinator.api.ProtoTime.timestamp;

import com.google.protobuf.ByteString;
import io.antrean.coordinator.core.ScheduleCommand;
import io.antrean.coordinator.core.Schedules;
import io.antrean.coordinator.schedule.CronRecurrence;
import io.antrean.coordinator.schedule.IntervalRecurrence;
import io.antrean.coordinator.schedule.JobTemplate;
import io.antrean.coordinator.schedule.Schedule;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.MisfirePolicy;
import io.antrean.proto.v1.OverlapPolicy;
import io.antrean.proto.v1.ScheduleDefinition;
import java.time.Instant;
import javax.annotation.Nullable;

/** Schedules between their protocol messages and the domain. */
public final class ScheduleMapper {
  private ScheduleMapper() {}

  /**
   * A definition message as a domain command, its fields named under {@code prefix}.
   *
   * @throws io.antrean.coordinator.core.ValidationException for a time protobuf calls invalid
   */
  public static ScheduleCommand command(ScheduleDefinition d, String prefix) {
    return new ScheduleCommand(
        d.getName(),
        d.getCron(),
        d.getTimeZone(),
        d.hasInterval() ? requestDuration(d.getInterval(), prefix + "interval") : null,
        JobMapper.command(d.getTemplate(), prefix + "template."),
        misfire(d.getMisfirePolicy()),
        d.getMisfireLimit(),
        overlap(d.getOverlapPolicy()));
  }

  /** A stored schedule as a message, with its next {@link Schedules#UPCOMING} due times. */
  public static io.antrean.proto.v1.Schedule schedule(Schedule s) {
    io.antrean.proto.v1.Schedule.Builder b =
        io.antrean.proto.v1.Schedule.newBuilder()
            .setDefinition(definition(s.definition()))
            .setPaused(s.paused())
            .setNextFireAt(timestamp(s.nextFireAt()))
            .setLastJobId(s.lastJobId() == null ? 0 : s.lastJobId())
            .setFires(s.fires())
            .setMisses(s.misses())
            .setCreatedAt(timestamp(s.createdAt()))
            .setUpdatedAt(timestamp(s.updatedAt()));
    for (Instant t : s.upcoming(Schedules.UPCOMING)) {
      b.addUpcoming(timestamp(t));
    }
    if (s.pausedAt() != null) {
      b.setPausedAt(timestamp(s.pausedAt()));
    }
    if (s.lastFireAt() != null) {
      b.setLastFireAt(timestamp(s.lastFireAt()));
    }
    if (s.lastJobState() != null) {
      b.setLastJobState(JobMapper.state(s.lastJobState()));
    }
    return b.build();
  }

  static ScheduleDefinition definition(io.antrean.coordinator.schedule.ScheduleDefinition d) {
    ScheduleDefinition.Builder b =
        ScheduleDefinition.newBuilder()
            .setName(d.name())
            .setTemplate(template(d.template()))
            .setMisfirePolicy(MisfirePolicy.valueOf("MISFIRE_POLICY_" + d.misfirePolicy().name()))
            .setMisfireLimit(d.misfireLimit())
            .setOverlapPolicy(OverlapPolicy.valueOf("OVERLAP_POLICY_" + d.overlapPolicy().name()));
    if (d.recurrence() instanceof CronRecurrence cron) {
      b.setCron(cron.expression()).setTimeZone(cron.zone().getId());
    } else {
      b.setInterval(duration(((IntervalRecurrence) d.recurrence()).interval()));
    }
    return b.build();
  }

  private static EnqueueRequest template(JobTemplate t) {
    return EnqueueRequest.newBuilder()
        .setQueue(t.queue())
        .setType(t.type())
        .setPayload(ByteString.copyFrom(t.payload()))
        .setContentType(t.contentType())
        .setPriority(t.priority())
        .setRetryPolicy(JobMapper.policy(t.retryPolicy()))
        .build();
  }

  @Nullable
  private static io.antrean.coordinator.schedule.MisfirePolicy misfire(MisfirePolicy p) {
    return switch (p) {
      case MISFIRE_POLICY_SKIP -> io.antrean.coordinator.schedule.MisfirePolicy.SKIP;
      case MISFIRE_POLICY_RUN_ONCE -> io.antrean.coordinator.schedule.MisfirePolicy.RUN_ONCE;
      case MISFIRE_POLICY_RUN_ALL -> io.antrean.coordinator.schedule.MisfirePolicy.RUN_ALL;
      case MISFIRE_POLICY_UNSPECIFIED, UNRECOGNIZED -> null;
    };
  }

  @Nullable
  private static io.antrean.coordinator.schedule.OverlapPolicy overlap(OverlapPolicy p) {
    return switch (p) {
      case OVERLAP_POLICY_ALLOW -> io.antrean.coordinator.schedule.OverlapPolicy.ALLOW;
      case OVERLAP_POLICY_SKIP -> io.antrean.coordinator.schedule.OverlapPolicy.SKIP;
      case OVERLAP_POLICY_UNSPECIFIED, UNRECOGNIZED -> null;
    };
  }
}
