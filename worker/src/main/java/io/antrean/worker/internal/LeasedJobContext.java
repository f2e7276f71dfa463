package io.antrean.worker.internal;

import io.antrean.proto.v1.Job;
import io.antrean.worker.CancellationReason;
import io.antrean.worker.Dependency;
import io.antrean.worker.JobContext;
import io.antrean.worker.Ticker;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The {@link JobContext} of one held lease. Thread-safe. */
final class LeasedJobContext implements JobContext {
  static final String DEFAULT_CONTENT_TYPE = "application/json";

  /** The coordinator stores at most this much of a progress note. */
  static final int MAX_PROGRESS_BYTES = 1024;

  private final HeldLease lease;
  private final String workerId;
  private final Clock clock;
  private final Ticker ticker;
  private final DependencyReader dependencies;
  private volatile String resultContentType = DEFAULT_CONTENT_TYPE;

  LeasedJobContext(
      HeldLease lease, String workerId, Clock clock, Ticker ticker, DependencyReader dependencies) {
    this.lease = lease;
    this.dependencies = dependencies;
    this.workerId = workerId;
    this.clock = clock;
    this.ticker = ticker;
  }

  /** The stable side-effect key of {@code job}; see {@link JobContext#idempotencyKey()}. */
  static String idempotencyKeyOf(Job job) {
    String key = job.getIdempotencyKey();
    return key.isEmpty() ? "antrean-job-" + job.getId() : key;
  }

  @Override
  public long jobId() {
    return lease.jobId();
  }

  @Override
  public String queue() {
    return lease.job().getQueue();
  }

  @Override
  public String type() {
    return lease.job().getType();
  }

  @Override
  public byte[] payload() {
    return lease.job().getPayload().toByteArray();
  }

  @Override
  public String payloadUtf8() {
    return lease.job().getPayload().toString(StandardCharsets.UTF_8);
  }

  @Override
  public String contentType() {
    String contentType = lease.job().getContentType();
    return contentType.isEmpty() ? DEFAULT_CONTENT_TYPE : contentType;
  }

  @Override
  public int attempt() {
    return Math.max(1, lease.job().getAttempts());
  }

  @Override
  public String idempotencyKey() {
    return idempotencyKeyOf(lease.job());
  }

  @Override
  public long fencingToken() {
    return lease.fencingToken();
  }

  @Override
  public String workerId() {
    return workerId;
  }

  @Override
  public List<Dependency> dependencies() {
    return dependencies.read(lease.jobId());
  }

  @Override
  public void progress(String note) {
    Objects.requireNonNull(note, "note");
    lease.progress(Utf8Text.truncate(note, MAX_PROGRESS_BYTES));
  }

  @Override
  public boolean isCancelled() {
    return lease.isStopped();
  }

  @Override
  public Optional<CancellationReason> cancellationReason() {
    return lease.stopReason();
  }

  @Override
  public void onCancel(Runnable callback) {
    lease.onStop(Objects.requireNonNull(callback, "callback"));
  }

  @Override
  public void resultContentType(String contentType) {
    Objects.requireNonNull(contentType, "contentType");
    resultContentType = contentType;
  }

  /** The content type to send with the result; set by the handler or the default. */
  String resultContentType() {
    return resultContentType;
  }

  @Override
  public Instant leaseDeadline() {
    return clock.instant().plusNanos(lease.remainingNanos(ticker.nanos()));
  }

  @Override
  public Duration leaseTimeRemaining() {
    return Duration.ofNanos(lease.remainingNanos(ticker.nanos()));
  }

  @Override
  public String toString() {
    return "job " + jobId() + " (" + type() + ", attempt " + attempt() + ")";
  }
}
