package io.antrean.client.bench;

import com.google.protobuf.ByteString;
import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.EnqueueRequest;
import java.io.PrintWriter;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * What every scenario works with: the coordinator, the options, the payload and stderr. Immutable;
 * shared by the threads of a scenario.
 *
 * @param target the coordinator's connections
 * @param settings the checked options
 * @param payload the payloads jobs carry
 * @param err where progress lines and warnings go
 */
record BenchContext(
    BenchTarget target, BenchSettings settings, BenchPayload payload, PrintWriter err) {

  /** The producer's client. */
  AntreanClient client() {
    return target.client();
  }

  /** A {@code bench.noop} Enqueue request for {@code queue} with {@code payload}. */
  static EnqueueRequest request(String queue, ByteString payload) {
    return EnqueueRequest.newBuilder()
        .setQueue(queue)
        .setType(BenchSettings.JOB_TYPE)
        .setPayload(payload)
        .setContentType("application/json")
        .build();
  }

  /** Starts a progress ticker if progress lines are wanted; close it when the phase ends. */
  ProgressTicker progress(Supplier<String> line) {
    return ProgressTicker.start(settings.progress(), err, line);
  }

  /** Prints a warning that does not fail the run. */
  void warn(String message) {
    err.println("antrean bench: " + message);
    err.flush();
  }

  /**
   * Daemon threads named {@code prefix-1}, {@code prefix-2}, …, so that a stuck call never keeps
   * the JVM alive after the command returned.
   */
  static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, prefix + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
