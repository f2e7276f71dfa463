package io.antrean.bench;

import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListJobsResponse;
import java.util.OptionalLong;

/**
 * Reads back, after a {@code latency} run, when each measured job was sent (its payload) and when
 * its handler started (its result, as the {@code bench.noop} handler reports it), with ListJobs
 * pages of {@link #PAGE_SIZE} succeeded jobs. Stateless.
 */
final class HandlerStarts {
  /** Jobs per ListJobs call: the coordinator's largest page. */
  static final int PAGE_SIZE = 1_000;

  private HandlerStarts() {}

  /**
   * The latency of every job of this run in {@code queue} sent at or after {@code fromMicros}.
   *
   * @param expected how many such jobs were sent, to size the samples
   * @throws BenchFailedException if a measured job's result carries no start: its worker's {@code
   *     bench.noop} handler does not report one
   */
  static LatencySamples read(BenchContext context, String queue, long fromMicros, int expected) {
    LatencySamples samples = new LatencySamples(Math.max(1, expected));
    long unstamped = 0;
    String pageToken = "";
    do {
      ListJobsResponse page =
          context
              .client()
              .listJobs(
                  ListJobsRequest.newBuilder()
                      .setQueue(queue)
                      .setType(BenchSettings.JOB_TYPE)
                      .setState(JobState.JOB_STATE_SUCCEEDED)
                      .setPageSize(PAGE_SIZE)
                      .setPageToken(pageToken)
                      .build());
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
