package io.antrean.worker.internal;

import io.antrean.proto.v1.JobServiceGrpc.JobServiceBlockingStub;
import io.antrean.proto.v1.ListDependenciesRequest;
import io.antrean.worker.Dependency;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Reads a job's dependencies from the coordinator for {@link LeasedJobContext}. Thread-safe. */
final class DependencyReader {
  private final JobServiceBlockingStub stub;
  private final Duration rpcTimeout;

  DependencyReader(JobServiceBlockingStub stub, Duration rpcTimeout) {
    this.stub = stub;
    this.rpcTimeout = rpcTimeout;
  }

  /** The job's dependencies, ascending by id; one ListDependencies call. */
  List<Dependency> read(long jobId) {
    return stub
        .withDeadlineAfter(rpcTimeout.toNanos(), TimeUnit.NANOSECONDS)
        .listDependencies(ListDependenciesRequest.newBuilder().setId(jobId).build())
        .getDependenciesList()
        .stream()
        .map(
            d ->
                new Dependency(
                    d.getId(),
                    d.getQueue(),
                    d.getType(),
                    d.getState().name().replaceFirst("^JOB_STATE_", ""),
                    d.getResult().toByteArray(),
                    d.getResultContentType(),
                    d.getLastError()))
        .toList();
  }
}
