package io.antrean.coordinator.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.core.JitteredBackoff;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random event sequences through {@link JobLifecycle}, applied to a {@link JobModel} as the stores
 * apply decisions, checking the invariants of the state table after every step.
 */
class JobLifecyclePropertyTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final List<String> WORKERS = List.of("w1", "w2");

  /** One event: its kind, a worker, which token it presents, a failure kind, a time step. */
  record Step(Kind kind, int worker, TokenChoice token, boolean permanent, int advanceSeconds) {}

  enum Kind {
    LEASE,
    HEARTBEAT,
    COMPLETE,
    FAIL,
    RELEASE,
    EXPIRE,
    CANCEL,
    REDRIVE
  }

  enum TokenChoice {
    CURRENT,
    PREVIOUS,
    NEXT
  }

  @Provide
  Arbitrary<List<Step>> sequences() {
    Arbitrary<Step> step =
        Combinators.combine(
                Arbitraries.of(Kind.class),
                Arbitraries.integers().between(0, 1),
                Arbitraries.of(TokenChoice.class),
                Arbitraries.of(true, false),
                Arbitraries.integers().between(0, 90))
            .as(Step::new);
    return step.list().ofMinSize(1).ofMaxSize(60);
  }

  @Property(tries = 500)
  void theStateTableHoldsOverAnySequence(
      @ForAll("sequences") List<Step> steps, @ForAll("policies") RetryPolicy policy) {
    JitteredBackoff backoff = new JitteredBackoff(() -> 0.5);
    JobModel job =
        new JobModel(new JobStatus(JobState.PENDING, START, 0, 0, 0, false, null, policy));
    Instant now = START;
    for (Step s : steps) {
      now = now.plusSeconds(s.advanceSeconds());
      JobStatus before = job.status;
      String worker = WORKERS.get(s.worker());
      long token = token(job, s.token());
      boolean presentsTheLease = before.isHeldBy(token, worker);
      boolean namesTheLease = before.isHeldWith(token);
      Decision<?> d = step(job, s, worker, token, now, backoff);

      if (before.state() == JobState.SUCCEEDED || before.state() == JobState.CANCELLED) {
        assertThat(d.isRefused()).as("%s is final, yet %s changed it", before.state(), s).isTrue();
      }
      if (before.state() == JobState.FAILED && s.kind() != Kind.REDRIVE) {
        assertThat(d.isRefused()).as("only a redrive takes a job out of FAILED").isTrue();
      }
      if (isLeaseReport(s.kind()) && !presentsTheLease) {
        assertThat(d.refusal()).as("a stale token changes nothing").isEqualTo(Refusal.LEASE_LOST);
      }
      if (s.kind() == Kind.EXPIRE && !namesTheLease) {
        assertThat(d.refusal()).as("an expiry of another lease changes nothing").isNotNull();
      }
      if (d.isRefused()) {
        assertThat(job.status).as("a refused event changes nothing").isEqualTo(before);
      }
      if (s.kind() != Kind.REDRIVE) {
        assertThat(job.status.attempts())
            .as("attempts never decrease")
            .isGreaterThanOrEqualTo(before.attempts());
      }
      assertThat(job.status.handlerAttempts()).isBetween(0, policy.maxAttempts());
      assertThat(job.status.leaseExpiries()).isBetween(0, policy.maxLeaseExpiries());
      if (job.status.state() == JobState.RUNNING && before.state() != JobState.RUNNING) {
        assertThat(job.status.lease().fencingToken())
            .as("every lease has a token higher than any before")
            .isEqualTo(job.lastToken);
      }
    }
  }

  @Provide
  Arbitrary<RetryPolicy> policies() {
    return Combinators.combine(
            Arbitraries.integers().between(1, 4), Arbitraries.integers().between(1, 3))
        .as(
            (attempts, expiries) ->
                new RetryPolicy(
                    attempts, Duration.ofSeconds(1), 2.0, Duration.ofSeconds(30), expiries));
  }

  private static boolean isLeaseReport(Kind kind) {
    return kind == Kind.HEARTBEAT
        || kind == Kind.COMPLETE
        || kind == Kind.FAIL
        || kind == Kind.RELEASE;
  }

  private static long token(JobModel job, TokenChoice choice) {
    return switch (choice) {
      case CURRENT -> job.lastToken;
      case PREVIOUS -> job.lastToken - 1;
      case NEXT -> job.lastToken + 1;
    };
  }

  private static Decision<?> step(
      JobModel job, Step s, String worker, long token, Instant now, JitteredBackoff backoff) {
    JobStatus status = job.status;
    switch (s.kind()) {
      case LEASE -> {
        Decision<LeaseGrant> d = JobLifecycle.lease(status, worker, now.plusSeconds(30), now);
        if (!d.isRefused()) {
          job.apply(d.change());
        }
        return d;
      }
      case HEARTBEAT -> {
        Decision<Renewal> d = JobLifecycle.heartbeat(status, token, worker, now.plusSeconds(30));
        if (!d.isRefused()) {
          job.apply(d.change());
        }
        return d;
      }
      case COMPLETE -> {
        return ended(job, JobLifecycle.complete(status, token, worker));
      }
      case FAIL -> {
        Failure failure =
            new Failure(
                s.permanent() ? ErrorKind.PERMANENT : ErrorKind.RETRYABLE, "E", "m", null, null);
        return ended(
            job,
            JobLifecycle.fail(
                status, token, worker, failure, () -> plan(backoff, status, failure, now)));
      }
      case RELEASE -> {
        return ended(job, JobLifecycle.release(status, token, worker, "shutdown"));
      }
      case EXPIRE -> {
        return ended(job, JobLifecycle.expire(status, token, now));
      }
      case CANCEL -> {
        Decision<Cancellation> d = JobLifecycle.cancel(status);
        if (!d.isRefused()) {
          job.apply(d.change());
        }
        return d;
      }
      case REDRIVE -> {
        Decision<Redrive> d = JobLifecycle.redrive(status, now);
        if (!d.isRefused()) {
          job.apply(d.change());
        }
        return d;
      }
    }
    throw new AssertionError(s);
  }

  private static Decision<LeaseEnd> ended(JobModel job, Decision<LeaseEnd> d) {
    if (!d.isRefused()) {
      job.apply(d.change().move());
    }
    return d;
  }

  /** The production retry rule, asked about the running job as the stores ask it. */
  private static Optional<Instant> plan(
      JitteredBackoff backoff, JobStatus status, Failure failure, Instant now) {
    Job job =
        new Job(
            1,
            "q",
            "t",
            new byte[0],
            "application/json",
            0,
            status.runAt(),
            null,
            status.retryPolicy(),
            status.attempts(),
            status.leaseExpiries(),
            status.releases(),
            status.state(),
            null,
            null,
            null,
            START,
            now,
            null,
            status.lease(),
            null,
            status.cancelRequested(),
            List.of(),
            0,
            null,
            null);
    return backoff.nextRunAt(job, failure, now);
  }
}
