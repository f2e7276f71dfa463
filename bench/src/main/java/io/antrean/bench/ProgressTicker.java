package io.antrean.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.annotation.Nullable;

/**
 * Prints one progress line a second to stderr while a scenario runs, so a long run shows it is
 * alive; a run shorter than a second prints nothing. Lines come from a supplier called on the
 * ticker's own daemon thread, so it must only read thread-safe counters. Close it when the scenario
 * ends.
 */
final class ProgressTicker implements AutoCloseable {
  private static final ProgressTicker SILENT = new ProgressTicker(null);

  @Nullable private final ScheduledExecutorService timer;

  private ProgressTicker(@Nullable ScheduledExecutorService timer) {
    this.timer = timer;
  }

  /**
   * Starts ticking, or does nothing when {@code enabled} is false.
   *
   * @param line the text of each line, without the newline
   */
  static ProgressTicker start(boolean enabled, PrintWriter err, Supplier<String> line) {
    if (!enabled) {
      return SILENT;
    }
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "antrean-bench-progress");
              thread.setDaemon(true);
              return thread;
            });
    timer.scheduleAtFixedRate(
        () -> {
          err.println(line.get());
          err.flush();
        },
        1,
        1,
        TimeUnit.SECONDS);
    return new ProgressTicker(timer);
  }

  /**
   * Whether this process's stderr is a terminal. Java 17 cannot ask directly, so this reads where
   * file descriptor 2 points on Linux and falls back to whether the process has a console at all.
   */
  static boolean stderrIsTerminal() {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException notLinux) {
      return System.console() != null;
    }
  }

  /** Stops ticking; a line being printed is finished first. */
  @Override
  public void close() {
    if (timer == null) {
      return;
    }
    timer.shutdownNow();
    try {
      timer.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
