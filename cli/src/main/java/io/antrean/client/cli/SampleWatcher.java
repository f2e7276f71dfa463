package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.client.UnavailableException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;

/**
 * Polls GetJob for every sample job that is not finished yet, printing one line per change, until
 * all are terminal or the time is up. A coordinator that is briefly unavailable is waited out; any
 * other failure ends the run. Confined to the calling thread.
 */
final class SampleWatcher {
  private final AntreanClient client;
  private final PrintWriter out;
  private final Duration pollInterval;

  SampleWatcher(AntreanClient client, PrintWriter out, Duration pollInterval) {
    this.client = client;
    this.out = out;
    this.pollInterval = pollInterval;
  }

  /**
   * Watches until every sample is terminal, {@code timeout} has passed, or the thread is
   * interrupted (the interrupt flag stays set).
   *
   * @return whether every sample reached a terminal state
   */
  boolean watch(List<TrackedSample> samples, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean unavailable = false;
    while (!allTerminal(samples)) {
      if (System.nanoTime() - deadline >= 0 || !pause()) {
        return false;
      }
      try {
        pollOnce(samples);
        unavailable = false;
      } catch (UnavailableException e) {
        if (!unavailable) {
          out.println("coordinator unavailable, still polling: " + e.getMessage());
          out.flush();
        }
        unavailable = true;
      }
    }
    return true;
  }

  private void pollOnce(List<TrackedSample> samples) {
    for (TrackedSample sample : samples) {
      if (sample.isTerminal()) {
        continue;
      }
      String change = sample.update(client.getJob(sample.id()));
      if (change != null) {
        out.println(change);
        out.flush();
      }
    }
  }

  private boolean pause() {
    try {
      Thread.sleep(pollInterval.toMillis());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static boolean allTerminal(List<TrackedSample> samples) {
    return samples.stream().allMatch(TrackedSample::isTerminal);
  }
}
