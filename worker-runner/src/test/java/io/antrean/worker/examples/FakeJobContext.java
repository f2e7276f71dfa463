package io.antrean.worker.examples;

import io.antrean.worker.CancellationReason;
import io.antrean.worker.Dependency;
import io.antrean.worker.JobContext;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/** A job context for calling handlers directly; records progress notes. Thread-safe enough. */
final class FakeJobContext implements JobContext {
  final List<String> progress = new CopyOnWriteArrayList<>();
  private final String payload;
  private final int attempt;
  private volatile CancellationReason cancelled;

  FakeJobContext(String payload, int attempt) {
    this.payload = payload;
    this.attempt = attempt;
  }

  FakeJobContext(String payload) {
    this(payload, 1);
  }

  void cancel() {
    cancelled = CancellationReason.CANCEL_REQUESTED;
  }

  /** The sample jobs depend on nothing. */
  @Override
  public List<Dependency> dependencies() {
    return List.of();
  }

  @Override
  public long jobId() {
    return 7;
  }

  @Override
  public String queue() {
    return "default";
  }

  @Override
  public String type() {
    return "example";
  }

  @Override
  public byte[] payload() {
    return payload.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public String payloadUtf8() {
    return payload;
  }

  @Override
  public String contentType() {
    return "application/json";
  }

  @Override
  public int attempt() {
    return attempt;
  }

  @Override
  public String idempotencyKey() {
    return "antrean-job-7";
  }

  @Override
  public long fencingToken() {
    return 1;
  }

  @Override
  public String workerId() {
    return "w";
  }

  @Override
  public void progress(String note) {
    progress.add(note);
  }

  @Override
  public boolean isCancelled() {
    return cancelled != null;
  }

  @Override
  public Optional<CancellationReason> cancellationReason() {
    return Optional.ofNullable(cancelled);
  }

  @Override
  public void onCancel(Runnable callback) {}

  @Override
  public void resultContentType(String contentType) {}

  @Override
  public Instant leaseDeadline() {
    return Instant.now().plusSeconds(30);
  }

  @Override
  public Duration leaseTimeRemaining() {
    return Duration.ofSeconds(30);
  }
}
