package io.antrean.coordinator.core;

import java.time.Duration;
import java.util.List;
import javax.annotation.Nullable;

/**
 * What a worker says about itself on its Lease and Heartbeat calls, shown to operators only.
 *
 * @param host the host it runs on, or empty
 * @param version its library's or application's version, or empty
 * @param queues the queues it leases from
 * @param types the job types it has handlers for
 * @param concurrency how many jobs it runs at once, 0 when not said
 * @param heartbeatInterval how often it heartbeats while holding leases, null when not said
 */
public record WorkerIdentity(
    String host,
    String version,
    List<String> queues,
    List<String> types,
    int concurrency,
    @Nullable Duration heartbeatInterval) {
  public WorkerIdentity {
    queues = List.copyOf(queues);
    types = List.copyOf(types);
  }
}
