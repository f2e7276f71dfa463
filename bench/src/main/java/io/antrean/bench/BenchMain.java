package io.antrean.bench;

import io.antrean.client.AntreanException;
import io.antrean.client.FieldViolation;
import io.antrean.client.InvalidArgumentException;
import io.antrean.client.UnavailableException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The bench's runnable jar: {@code java -jar antrean-bench.jar [options] SCENARIO}, which {@code
 * bin/antrean bench ...} runs. Exit codes: 0 every scenario ran; 1 a scenario failed or the
 * coordinator refused a call; 2 a usage error; 4 the coordinator was unavailable or too slow, as
 * for the other {@code antrean} commands.
 */
public final class BenchMain {
  static final int FAILED = 1;
  static final int USAGE = 2;
  static final int UNAVAILABLE = 4;

  private BenchMain() {}

  /**
   * Runs the bench and exits the JVM with its exit code.
   *
   * @param args the options and the scenario; {@code --help} lists them
   */
  public static void main(String[] args) {
    System.exit(commandLine(new BenchCommand()).execute(args));
  }

  /** The command line around {@code command}, with the bench's error reporting and exit codes. */
  static CommandLine commandLine(BenchCommand command) {
    CommandLine commandLine = new CommandLine(command);
    commandLine.setExecutionExceptionHandler(
        (e, cmd, parsed) -> report(e, command.coordinator(), cmd.getErr()));
    commandLine.setParameterExceptionHandler(BenchMain::reportUsageError);
    commandLine.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n");
    commandLine.getCommandSpec().usageMessage().exitCodeList(exitCodes());
    return commandLine;
  }

  private static Map<String, String> exitCodes() {
    Map<String, String> codes = new LinkedHashMap<>();
    codes.put(" 0", "every scenario ran");
    codes.put(" " + FAILED, "a scenario failed, or the coordinator refused a call");
    codes.put(" " + USAGE, "usage error");
    codes.put(" " + UNAVAILABLE, "coordinator unavailable or too slow (--timeout)");
    return codes;
  }

  private static int reportUsageError(ParameterException e, String[] args) {
    PrintWriter err = e.getCommandLine().getErr();
    err.println("antrean bench: " + e.getMessage());
    UnmatchedArgumentException.printSuggestions(e, err);
    err.println("Try 'antrean bench --help' for more information.");
    err.flush();
    return USAGE;
  }

  /** A refused or failed producer call, like the CLI reports it; anything else as unexpected. */
  static int report(Exception e, String coordinator, PrintWriter err) {
    int code;
    if (e instanceof UnavailableException unavailable) {
      String what = unavailable.isDeadlineExceeded() ? "did not answer in time" : "is unavailable";
      err.printf(
          "antrean bench: coordinator %s %s (%s)%n", coordinator, what, describe(unavailable));
      code = UNAVAILABLE;
    } else if (e instanceof AntreanException failed) {
      err.println("antrean bench: " + describe(failed));
      if (failed instanceof InvalidArgumentException invalid) {
        for (FieldViolation violation : invalid.fieldViolations()) {
          err.println(violation.field() + ": " + violation.description());
        }
      }
      code = FAILED;
    } else {
      err.println("antrean bench: unexpected error: " + e);
      code = FAILED;
    }
    err.flush();
    return code;
  }

  private static String describe(AntreanException e) {
    StringBuilder text = new StringBuilder(e.statusCode().name());
    if (!e.description().isEmpty()) {
      text.append(": ").append(e.description());
    }
    e.reason().ifPresent(reason -> text.append(" [").append(reason).append(']'));
    return text.toString();
  }
}
