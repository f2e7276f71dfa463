package io.antrean.worker;

/** A process for {@link WorkerMainProcessTest}: a runtime bug escapes a thread. */
final class BugProbe {
  private BugProbe() {}

  public static void main(String[] args) throws InterruptedException {
    WorkerMain.installBugHandler();
    Thread buggy =
        new Thread(
            () -> {
              throw new IllegalStateException("bug in the worker runtime");
            },
            "antrean-poller-1");
    buggy.start();
    buggy.join();
    // Only reached if the handler did not halt the JVM.
    System.exit(0);
  }
}
