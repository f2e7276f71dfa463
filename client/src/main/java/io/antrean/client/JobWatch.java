package io.antrean.client;

import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.WatchJobResponse;
import io.grpc.Context;
import io.grpc.StatusRuntimeException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * One open WatchJob call, read as a blocking iterator of job snapshots: the job as it was when the
 * watch began, then one snapshot per change of its state, attempts or cancel flag (under load the
 * coordinator may skip intermediate ones, never the latest), history left out. Iteration ends after
 * the snapshot with a terminal state.
 *
 * <p>{@link #hasNext()} blocks until the next snapshot or the end. Failures arrive there as {@link
 * AntreanException}s: {@link JobNotFoundException} for an unknown id, {@link UnavailableException}
 * when the watch's deadline passes ({@code isDeadlineExceeded()}) or the coordinator stops (watch
 * again). Close the watch when you stop reading before its end: that cancels the call. Not
 * thread-safe, except {@link #close()}, which may be called from any thread and is idempotent.
 */
public final class JobWatch implements Iterator<Job>, AutoCloseable {
  private final Iterator<WatchJobResponse> responses;
  private final Context.CancellableContext context;

  JobWatch(Iterator<WatchJobResponse> responses, Context.CancellableContext context) {
    this.responses = responses;
    this.context = context;
  }

  /**
   * Whether another snapshot comes; blocks until it does or the stream ends.
   *
   * @throws AntreanException if the watch failed (see the class comment)
   */
  @Override
  public boolean hasNext() {
    try {
      return responses.hasNext();
    } catch (StatusRuntimeException e) {
      close();
      throw StatusTranslation.translate(e);
    }
  }

  /**
   * The next snapshot; blocks until it arrives.
   *
   * @throws NoSuchElementException after the terminal snapshot
   * @throws AntreanException if the watch failed
   */
  @Override
  public Job next() {
    if (!hasNext()) {
      throw new NoSuchElementException("the watch has ended");
    }
    return responses.next().getJob();
  }

  /** The remaining snapshots as a sequential stream; closing the stream closes this watch. */
  public Stream<Job> stream() {
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(this, Spliterator.ORDERED | Spliterator.NONNULL),
            false)
        .onClose(this::close);
  }

  /** Cancels the call if it is still open. */
  @Override
  public void close() {
    context.cancel(null);
  }
}
