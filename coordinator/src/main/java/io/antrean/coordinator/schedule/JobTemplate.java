package io.antrean.coordinator.schedule;

import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Objects;

/**
 * The job a schedule enqueues at each due time, with every default already applied.
 *
 * @param retryPolicy the resolved policy (the queue's and type's defaults applied at definition)
 */
public record JobTemplate(
    String queue,
    String type,
    byte[] payload,
    String contentType,
    int priority,
    RetryPolicy retryPolicy) {

  public JobTemplate {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(retryPolicy, "retryPolicy");
    payload = payload.clone();
  }

  @Override
  public byte[] payload() {
    return payload.clone();
  }

  /**
   * The job for one due time of the schedule {@code name}: it runs at the due time, and its
   * idempotency key ({@link #idempotencyKey}) is remembered for {@code keyWindow} after the due
   * time.
   */
  public NewJob jobFor(String name, Instant dueAt, Duration keyWindow) {
    Instant due = dueAt.truncatedTo(ChronoUnit.MICROS);
    return new NewJob(
        queue,
        type,
        payload,
        contentType,
        priority,
        due,
        idempotencyKey(name, due),
        due.plus(keyWindow),
        retryPolicy,
        null);
  }

  /** {@code schedule:<name>:<due time in ISO-8601 UTC>}: one key per schedule and due time. */
  public static String idempotencyKey(String name, Instant dueAt) {
    return "schedule:" + name + ":" + dueAt.truncatedTo(ChronoUnit.MICROS);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof JobTemplate t
        && queue.equals(t.queue)
        && type.equals(t.type)
        && Arrays.equals(payload, t.payload)
        && contentType.equals(t.contentType)
        && priority == t.priority
        && retryPolicy.equals(t.retryPolicy);
  }

  @Override
  public int hashCode() {
    return Objects.hash(queue, type, Arrays.hashCode(payload), contentType, priority, retryPolicy);
  }

  @Override
  public String toString() {
    return "JobTemplate[" + queue + "/" + type + ", " + payload.length + " bytes]";
  }
}
