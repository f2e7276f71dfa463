package io.antrean.client.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/** The exit codes of {@code antrean}, which scripts may rely on. */
final class ExitCodes {
  /** The command did what it was asked. */
  static final int OK = 0;

  /**
   * The coordinator refused or failed the call (for example a cancel of a finished job, reason
   * {@code JOB_FINISHED}); for {@code samples}, some job did not end as expected.
   */
  static final int FAILURE = 1;

  /** The command line was wrong (picocli's default for usage errors). */
  static final int USAGE = 2;

  /** The job (or other resource) asked for does not exist. */
  static final int NOT_FOUND = 3;

  /** The coordinator could not be reached or did not answer in time. */
  static final int UNAVAILABLE = 4;

  /** {@code watch}: the job ended FAILED (in the dead-letter queue). */
  static final int JOB_FAILED = 5;

  /** {@code watch}: the job ended CANCELLED. */
  static final int JOB_CANCELLED = 6;

  private ExitCodes() {}

  /** The exit code section of every command's help, in code order. */
  static Map<String, String> helpList() {
    Map<String, String> codes = new LinkedHashMap<>();
    codes.put(" " + OK, "ok");
    codes.put(
        " " + FAILURE,
        "server error or refusal (message, reason and field violations on stderr), or samples"
            + " failed");
    codes.put(" " + USAGE, "usage error");
    codes.put(" " + NOT_FOUND, "not found");
    codes.put(" " + UNAVAILABLE, "coordinator unavailable or too slow (--timeout)");
    codes.put(" " + JOB_FAILED, "watch: the job ended FAILED");
    codes.put(" " + JOB_CANCELLED, "watch: the job ended CANCELLED");
    return codes;
  }
}
