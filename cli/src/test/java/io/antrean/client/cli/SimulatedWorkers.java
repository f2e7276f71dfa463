package io.antrean.client.cli;

import io.antrean.client.FakeJobService;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.GetJobResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Plays the coordinator and its workers for {@code samples}: each enqueued job walks through a
 * scripted list of states, one step per GetJob, and stays at the last one.
 */
final class SimulatedWorkers {
  /** One view of a job as GetJob would return it. */
  record Step(JobState state, int attempts, String lastError) {}

  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, Deque<Job>> progress = new ConcurrentHashMap<>();
  private final Function<EnqueueRequest, List<Step>> script;

  SimulatedWorkers(Function<EnqueueRequest, List<Step>> script) {
    this.script = script;
  }

  /** What the worker's standard handlers do with each sample job. */
  static List<Step> standardHandlers(EnqueueRequest request) {
    String payload = request.getPayload().toString(StandardCharsets.UTF_8);
    switch (request.getType()) {
      case "flaky":
        return List.of(
            running(1),
            new Step(JobState.JOB_STATE_PENDING, 1, "simulated failure 1 of 2"),
            running(2),
            new Step(JobState.JOB_STATE_PENDING, 2, "simulated failure 2 of 2"),
            running(3),
            new Step(JobState.JOB_STATE_SUCCEEDED, 3, "simulated failure 2 of 2"));
      case "email.send":
        return payload.contains("\"to\"")
            ? List.of(running(1), new Step(JobState.JOB_STATE_SUCCEEDED, 1, ""))
            : List.of(running(1), new Step(JobState.JOB_STATE_FAILED, 1, "payload has no 'to'"));
      default:
        return List.of(running(1), new Step(JobState.JOB_STATE_SUCCEEDED, 1, ""));
    }
  }

  static Step running(int attempt) {
    return new Step(JobState.JOB_STATE_RUNNING, attempt, "");
  }

  /** Makes {@code service} answer Enqueue and GetJob from this simulation. */
  void install(FakeJobService service) {
    service.enqueue = this::enqueue;
    service.getJob = this::getJob;
  }

  private EnqueueResponse enqueue(EnqueueRequest request) {
    Job job = FakeJobService.jobFor(ids.incrementAndGet(), request);
    Deque<Job> steps = new ArrayDeque<>();
    for (Step step : script.apply(request)) {
      steps.add(
          job.toBuilder()
              .setState(step.state())
              .setAttempts(step.attempts())
              .setLastError(step.lastError())
              .build());
    }
    progress.put(job.getId(), steps);
    return EnqueueResponse.newBuilder().setJob(job).build();
  }

  private GetJobResponse getJob(GetJobRequest request) {
    Deque<Job> steps = progress.get(request.getId());
    if (steps == null) {
      throw Status.NOT_FOUND.withDescription("job " + request.getId()).asRuntimeException();
    }
    Job job = steps.size() > 1 ? steps.poll() : steps.peek();
    return GetJobResponse.newBuilder().setJob(job).build();
  }
}
