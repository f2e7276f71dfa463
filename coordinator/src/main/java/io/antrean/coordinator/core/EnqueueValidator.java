package io.antrean.coordinator.core;

import io.antrean.coordinator.job.DependsOn;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.job.UniqueKey;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns producers' commands into storable jobs: checks every field, applies the defaults (queue,
 * content type, retry policy by queue and type) and reports every fault at once.
 */
final class EnqueueValidator {
  static final String DEFAULT_CONTENT_TYPE = "application/json";
  private static final int MAX_KEY_LENGTH = 256;
  private static final int MAX_CONTENT_TYPE_LENGTH = 128;
  private static final int MAX_TRACE_PARENT_LENGTH = 512;
  static final int MAX_CONCURRENCY_KEY_LENGTH = 256;

  /** The most jobs one job may depend on. */
  public static final int MAX_DEPENDENCIES = 100;

  private final Settings settings;

  EnqueueValidator(Settings settings) {
    this.settings = settings;
  }

  /**
   * @throws ValidationException listing every fault, with field names under {@code prefix}
   */
  NewJob toNewJob(EnqueueCommand cmd, Instant now) {
    List<FieldViolation> violations = new ArrayList<>();
    NewJob job = check(cmd, now, "", violations);
    if (!violations.isEmpty()) {
      throw new ValidationException(violations);
    }
    return job;
  }

  /** One Enqueue's command as {@link #toNewJob}, or an EnqueueBatch's as {@link #toNewJobs}. */
  void validate(List<EnqueueCommand> cmds, Instant now) {
    if (cmds.size() == 1) {
      toNewJob(cmds.get(0), now);
    } else {
      toNewJobs(cmds, now);
    }
  }

  /** All or none: the jobs, or one exception listing the faults of every job as jobs[i].field. */
  List<NewJob> toNewJobs(List<EnqueueCommand> cmds, Instant now) {
    List<FieldViolation> violations = new ArrayList<>();
    if (cmds.isEmpty()) {
      violations.add(new FieldViolation("jobs", "at least one job is required"));
    } else if (cmds.size() > settings.maxBatchSize()) {
      violations.add(
          new FieldViolation(
              "jobs",
              "at most " + settings.maxBatchSize() + " jobs per batch, got " + cmds.size()));
    }
    if (!violations.isEmpty()) {
      throw new ValidationException(violations);
    }
    List<NewJob> jobs = new ArrayList<>(cmds.size());
    for (int i = 0; i < cmds.size(); i++) {
      jobs.add(check(cmds.get(i), now, "jobs[" + i + "].", violations));
    }
    if (!violations.isEmpty()) {
      throw new ValidationException(violations);
    }
    return jobs;
  }

  /**
   * Checks one command as {@link #toNewJob(EnqueueCommand, Instant)} does, adding its faults (named
   * under {@code prefix}) to {@code out} instead of throwing.
   *
   * @return the job, or null when there were faults
   */
  NewJob check(EnqueueCommand cmd, Instant now, String prefix, List<FieldViolation> out) {
    int before = out.size();
    String queue = Names.queueOrDefault(cmd.queue());
    addIfProblem(out, prefix + "queue", Names.queueProblem(queue));
    String typeProblem = Names.typeProblem(cmd.type());
    if (typeProblem == null
        && !settings.declaredTypes().isEmpty()
        && !settings.declaredTypes().contains(cmd.type())) {
      typeProblem = "unknown job type: " + cmd.type();
    }
    addIfProblem(out, prefix + "type", typeProblem);
    if (cmd.payload().length > settings.maxPayloadBytes()) {
      out.add(
          new FieldViolation(
              prefix + "payload",
              "payload of "
                  + cmd.payload().length
                  + " bytes is over the limit of "
                  + settings.maxPayloadBytes()
                  + " bytes"));
    }
    if (cmd.contentType().length() > MAX_CONTENT_TYPE_LENGTH) {
      out.add(new FieldViolation(prefix + "content_type", "content type too long"));
    }
    if (cmd.idempotencyKey().length() > MAX_KEY_LENGTH) {
      out.add(
          new FieldViolation(
              prefix + "idempotency_key",
              "idempotency key longer than " + MAX_KEY_LENGTH + " characters"));
    }
    if (cmd.uniqueKey().length() > MAX_KEY_LENGTH) {
      out.add(
          new FieldViolation(
              prefix + "unique_key", "unique key longer than " + MAX_KEY_LENGTH + " characters"));
    }
    if (!cmd.uniqueKey().isEmpty() && !cmd.idempotencyKey().isEmpty()) {
      out.add(
          new FieldViolation(
              prefix + "unique_key", "give idempotency_key or unique_key, not both"));
    }
    if (cmd.traceParent().length() > MAX_TRACE_PARENT_LENGTH) {
      out.add(
          new FieldViolation(
              prefix + "trace_parent",
              "trace parent longer than " + MAX_TRACE_PARENT_LENGTH + " characters"));
    }
    if (cmd.concurrencyKey().length() > MAX_CONCURRENCY_KEY_LENGTH) {
      out.add(
          new FieldViolation(
              prefix + "concurrency_key",
              "concurrency key longer than " + MAX_CONCURRENCY_KEY_LENGTH + " characters"));
    }
    if (cmd.dependsOn().size() > MAX_DEPENDENCIES) {
      out.add(
          new FieldViolation(
              prefix + "depends_on",
              "at most " + MAX_DEPENDENCIES + " jobs, got " + cmd.dependsOn().size()));
    } else if (cmd.dependsOn().stream().anyMatch(id -> id <= 0)) {
      out.add(new FieldViolation(prefix + "depends_on", "job ids must be positive"));
    }
    Instant runAt = runAt(cmd, now, prefix, out);
    RetryPolicy policy = policy(cmd, queue, prefix, out);
    if (out.size() > before) {
      return null;
    }
    String key = cmd.idempotencyKey().isEmpty() ? null : cmd.idempotencyKey();
    return new NewJob(
        queue,
        cmd.type(),
        cmd.payload(),
        cmd.contentType().isEmpty() ? DEFAULT_CONTENT_TYPE : cmd.contentType(),
        cmd.priority(),
        runAt,
        key,
        key == null ? null : now.plus(settings.idempotencyWindow()),
        policy,
        cmd.traceParent().isEmpty() ? null : cmd.traceParent(),
        cmd.concurrencyKey().isEmpty() ? null : cmd.concurrencyKey(),
        cmd.uniqueKey().isEmpty()
            ? null
            : new UniqueKey(cmd.uniqueKey(), cmd.uniqueReturnsExisting()),
        cmd.dependsOn().isEmpty()
            ? DependsOn.NONE
            : new DependsOn(cmd.dependsOn(), cmd.onDependencyFailure()));
  }

  private static Instant runAt(
      EnqueueCommand cmd, Instant now, String prefix, List<FieldViolation> out) {
    if (cmd.runAt() != null && cmd.delay() != null) {
      out.add(new FieldViolation(prefix + "delay", "give run_at or delay, not both"));
      return now;
    }
    if (cmd.delay() != null) {
      String problem = TimeRanges.delayProblem(cmd.delay());
      if (problem != null) {
        out.add(new FieldViolation(prefix + "delay", problem));
        return now;
      }
      return now.plus(cmd.delay()).truncatedTo(ChronoUnit.MICROS);
    }
    if (cmd.runAt() == null) {
      return now.truncatedTo(ChronoUnit.MICROS);
    }
    addIfProblem(out, prefix + "run_at", TimeRanges.runAtProblem(cmd.runAt(), now));
    return cmd.runAt().truncatedTo(ChronoUnit.MICROS);
  }

  private RetryPolicy policy(
      EnqueueCommand cmd, String queue, String prefix, List<FieldViolation> out) {
    RetryPolicy base = settings.retryDefaults(cmd.type(), queue);
    RetryOverride o = cmd.retry();
    String p = prefix + "retry_policy.";
    int maxAttempts = o.maxAttempts() == null ? base.maxAttempts() : o.maxAttempts();
    if (maxAttempts < 1) {
      out.add(new FieldViolation(p + "max_attempts", "must be at least 1"));
    }
    Duration initial = o.initialBackoff() == null ? base.initialBackoff() : o.initialBackoff();
    String initialProblem = TimeRanges.backoffProblem(initial);
    addIfProblem(out, p + "initial_backoff", initialProblem);
    double multiplier = o.multiplier() == null ? base.multiplier() : o.multiplier();
    String multiplierProblem = TimeRanges.multiplierProblem(multiplier);
    addIfProblem(out, p + "backoff_multiplier", multiplierProblem);
    Duration max = o.maxBackoff() == null ? base.maxBackoff() : o.maxBackoff();
    String maxProblem = TimeRanges.backoffProblem(max);
    addIfProblem(out, p + "max_backoff", maxProblem);
    int maxExpiries = o.maxLeaseExpiries() == null ? base.maxLeaseExpiries() : o.maxLeaseExpiries();
    if (maxExpiries < 1) {
      out.add(new FieldViolation(p + "max_lease_expiries", "must be at least 1"));
    }
    if (maxAttempts < 1
        || initialProblem != null
        || multiplierProblem != null
        || maxProblem != null
        || maxExpiries < 1) {
      return base;
    }
    return new RetryPolicy(maxAttempts, initial, multiplier, max, maxExpiries);
  }

  private static void addIfProblem(List<FieldViolation> out, String field, String problem) {
    if (problem != null) {
      out.add(new FieldViolation(field, problem));
    }
  }
}
