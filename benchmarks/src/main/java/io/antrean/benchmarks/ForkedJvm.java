package io.antrean.benchmarks;

/** Arguments for the JVMs that JMH forks, as compile-time constants for its annotations. */
public final class ForkedJvm {
  /**
   * The coordinator's logback.xml reads this level; at INFO the stores' lines (open, close,
   * migrations, the embedded server's output) would interleave with JMH's. Given as {@code
   * jvmArgsPrepend}, so a {@code -jvmArgsAppend} on the command line does not undo it.
   */
  public static final String QUIET_LOGS = "-Dantrean.log.level=WARN";

  private ForkedJvm() {}
}
