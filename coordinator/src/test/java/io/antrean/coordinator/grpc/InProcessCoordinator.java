package io.antrean.coordinator.grpc;

import io.antrean.coordinator.Coordinator;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ScheduleServiceGrpc;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A coordinator on a SQLite store in a test's directory, served and reached over an in-process
 * channel, with the job types the test declares. Blocking stubs carry a deadline of {@value
 * #DEADLINE_SECONDS} s from the moment they are made.
 */
final class InProcessCoordinator implements AutoCloseable {
  private static final long DEADLINE_SECONDS = 10;

  /** Where calls run: on the calling thread (server and channel), or on gRPC's executors. */
  enum Calls {
    DIRECT,
    ON_EXECUTORS
  }

  final Coordinator coordinator;
  final ManagedChannel channel;

  private InProcessCoordinator(Coordinator coordinator, ManagedChannel channel) {
    this.coordinator = coordinator;
    this.channel = channel;
  }

  static InProcessCoordinator start(Path dir, Calls calls, String... jobTypes) throws IOException {
    return start(dir, calls, Settings.defaults().sweepInterval(), jobTypes);
  }

  /** A coordinator whose backup sweep runs every {@code sweepInterval}. */
  static InProcessCoordinator start(
      Path dir, Calls calls, Duration sweepInterval, String... jobTypes) throws IOException {
    String name = InProcessServerBuilder.generateName();
    InProcessServerBuilder server = InProcessServerBuilder.forName(name);
    InProcessChannelBuilder client = InProcessChannelBuilder.forName(name);
    if (calls == Calls.DIRECT) {
      server.directExecutor();
      client.directExecutor();
    }
    Coordinator coordinator =
        Coordinator.start(
            SqliteJobStore.open(dir, SqliteOptions.defaults()),
            Settings.defaults()
                .withJobTypes(Set.of(jobTypes), Map.of(), Map.of())
                .withIntervals(sweepInterval, Settings.defaults().idempotencyWindow()),
            Clock.systemUTC(),
            server);
    return new InProcessCoordinator(coordinator, client.build());
  }

  JobServiceGrpc.JobServiceBlockingStub jobs() {
    return JobServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
  }

  WorkerServiceGrpc.WorkerServiceBlockingStub workers() {
    return WorkerServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
  }

  AdminServiceGrpc.AdminServiceBlockingStub admin() {
    return AdminServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
  }

  ScheduleServiceGrpc.ScheduleServiceBlockingStub schedules() {
    return ScheduleServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
  }

  /** Closes the channel, then the coordinator and its store. */
  @Override
  public void close() {
    channel.shutdownNow();
    coordinator.close();
  }
}
