package io.antrean.coordinator.core;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.LeaseClaim;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jobs leased for an answer that no worker will read: the Lease was withdrawn, or its call or
 * stream ended, at the moment its jobs were leased. Each is released ("lease call gone"), spending
 * no attempt and no lease expiry, so it is PENDING again at once instead of when its lease runs
 * out. A release that fails (the store is down, or the job was taken back meanwhile) leaves the job
 * to its lease's expiry, as before. Releases block on the store, so they run on the dispatch
 * executor. Thread-safe.
 */
public final class UnclaimedLeases {
  private static final Logger log = LoggerFactory.getLogger(UnclaimedLeases.class);
  static final String REASON = "lease call gone";

  private final WorkerReports reports;
  private final Executor dispatch;

  UnclaimedLeases(WorkerReports reports, Executor dispatch) {
    this.reports = reports;
    this.dispatch = dispatch;
  }

  /** Hands {@code jobId} back, later, unless its lease ({@code claim}, {@code workerId}) ended. */
  public void giveBack(long jobId, LeaseClaim claim, String workerId) {
    try {
      dispatch.execute(() -> releaseNow(jobId, claim, workerId));
    } catch (RejectedExecutionException stopping) {
      log.debug("coordinator stopping: job {} waits for its lease to expire", jobId);
    }
  }

  /** Hands every job of {@code jobs}, each as it was leased, back later. */
  public void giveBack(List<Job> jobs) {
    jobs.forEach(j -> giveBack(j.id(), LeaseClaim.of(j), j.lease().workerId()));
  }

  /**
   * A future of {@code leasing}'s jobs that may be cancelled without stranding them: once it is
   * cancelled, the jobs {@code leasing} still leases are handed back.
   */
  CompletableFuture<List<Job>> givenBackIfCancelled(CompletableFuture<List<Job>> leasing) {
    CompletableFuture<List<Job>> answer = new CompletableFuture<>();
    leasing.whenComplete(
        (jobs, error) -> {
          if (error != null) {
            answer.completeExceptionally(error);
          } else if (!answer.complete(jobs)) {
            giveBack(jobs);
          }
        });
    return answer;
  }

  private void releaseNow(long jobId, LeaseClaim claim, String workerId) {
    try {
      reports.release(jobId, claim, workerId, REASON);
    } catch (RuntimeException e) {
      log.debug("job {} not handed back; it waits for its lease to expire", jobId, e);
    }
  }
}
