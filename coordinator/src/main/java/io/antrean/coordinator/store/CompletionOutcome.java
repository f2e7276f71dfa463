package io.antrean.coordinator.store;

import java.util.List;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * How one {@link Completion} of a batch ended. A completed job is named by its id and queue, all
 * that the coordinator tells others of it (metrics, watchers, the Lease calls waiting on a limited
 * queue): a batch's statements read back no more of each row than that.
 *
 * @param queue the job's queue when {@link Status#COMPLETED}, otherwise null
 * @param repeat whether a {@link Status#COMPLETED} completion repeated the worker's own accepted
 *     report and changed nothing, so it is reported to nobody a second time
 */
public record CompletionOutcome(long jobId, Status status, @Nullable String queue, boolean repeat) {

  /** What {@link JobStore#complete} would have answered for this completion alone. */
  public enum Status {
    /** The job is SUCCEEDED. */
    COMPLETED,
    /** The token was stale: only the job's history changed ({@link LeaseLostException}). */
    LEASE_LOST,
    /** No job has this id ({@link JobNotFoundException}). */
    NOT_FOUND
  }

  public CompletionOutcome {
    Objects.requireNonNull(status, "status");
    if ((status == Status.COMPLETED) != (queue != null)) {
      throw new IllegalArgumentException("a queue goes with COMPLETED and only with it");
    }
    if (repeat && status != Status.COMPLETED) {
      throw new IllegalArgumentException("only a COMPLETED outcome repeats a report");
    }
  }

  /** The completion moved the job to SUCCEEDED. */
  public static CompletionOutcome completed(long jobId, String queue) {
    return new CompletionOutcome(jobId, Status.COMPLETED, queue, false);
  }

  /** The job had already SUCCEEDED with this very report; nothing changed. */
  public static CompletionOutcome repeated(long jobId, String queue) {
    return new CompletionOutcome(jobId, Status.COMPLETED, queue, true);
  }

  public static CompletionOutcome leaseLost(long jobId) {
    return new CompletionOutcome(jobId, Status.LEASE_LOST, null, false);
  }

  public static CompletionOutcome notFound(long jobId) {
    return new CompletionOutcome(jobId, Status.NOT_FOUND, null, false);
  }

  /** The queues of the completed jobs among {@code outcomes}, one entry per job. */
  public static List<String> queuesOf(List<CompletionOutcome> outcomes) {
    return outcomes.stream().map(CompletionOutcome::queue).filter(Objects::nonNull).toList();
  }
}
