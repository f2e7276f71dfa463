package io.antrean.bench;

import com.google.protobuf.util.Timestamps;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListJobsResponse;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;

/**
 * Reads back, after a {@code latency} run, when each measured job was sent (its payload) and when
 * its handler started (its result, as the {@code bench.noop} handler reports it), with ListJobs
 * pages of {@link #PAGE_SIZE} succeeded jobs. The pages ask only for jobs created from {@link
 * #CLOCK_MARGIN} before the measured window on, so the queue's older jobs (an earlier run's, with
 * {@code --queue}) are not read; if that finds fewer jobs than were measured (the coordinator's
 * clock behind this machine's by more than the margin), every succeeded job of the queue is read.
 * Stateless.
 */
final class HandlerStarts {
  /** Jobs per ListJobs call: the coordinator's largest page. */
  static final int PAGE_SIZE = 1_000;

  /**
   * How far the coordinator's clock, which stamps a job's creation, may be behind this machine's,
   * which stamps its send, before the first reading misses measured jobs.
   */
  static final Duration CLOCK_MARGIN = Duration.ofMinutes(1);

  private HandlerStarts() {}

  /**
   * The latency of every job of this run in {@code queue} sent at or after {@code fromMicros}.
   *
   * @param expected how many such jobs were sent, to size the samples
   * @throws BenchFailedException if a measured job's result carries no start: its worker's {@code
   *     bench.noop} handler does not report one
   */
  static LatencySamples read(BenchContext context, String queue, long fromMicros, int expected) {
    long createdFromMicros = fromMicros - TimeUnit.MICROSECONDS.convert(CLOCK_MARGIN);
    LatencySamples samples = read(context, queue, fromMicros, expected, createdFromMicros);
    if (samples.count() < expected) {
      samples = read(context, queue, fromMicros, expected, null);
    }
    return samples;
  }

  private static LatencySamples read(
      BenchContext context,
      String queue,
      long fromMicros,
      int expected,
      @Nullable Long createdFromMicros) {
    LatencySamples samples = new LatencySamples(Math.max(1, expected));
    long unstamped = 0;
    String pageToken = "";
    do {
      ListJobsRequest.Builder request =
          ListJobsRequest.newBuilder()
              .setQueue(queue)
              .setType(BenchSettings.JOB_TYPE)
              .setState(JobState.JOB_STATE_SUCCEEDED)
              .setPageSize(PAGE_SIZE)
              .setPageToken(pageToken);
      if (createdFromMicros != null) {
        request.setCreatedAfter(Timestamps.fromMicros(createdFromMicros));
      }
      ListJobsResponse page = context.client().listJobs(request.build());
      for (Job job : page.getJobsList()) {
        OptionalLong sent = context.payload().sentMicros(job.getPayload());
        if (sent.isEmpty() || sent.getAsLong() < fromMicros) {
          continue;
        }
        OptionalLong started = StartStampHandler.startedAtMicros(job.getResult());
        if (started.isEmpty()) {
          unstamped++;
        } else {
          samples.record((started.getAsLong() - sent.getAsLong()) * 1_000);
        }
      }
      pageToken = page.getNextPageToken();
    } while (!pageToken.isEmpty());
    if (unstamped > 0) {
      throw new BenchFailedException(
          "latency: "
              + unstamped
              + " jobs ran without reporting their handler's start (a result with"
              + " startedAtMicros): the workers serving queue "
              + queue
              + " run another "
              + BenchSettings.JOB_TYPE
              + " handler than this checkout's");
    }
    return samples;
  }
}
