package io.antrean.client.cli;

import io.antrean.client.AntreanException;
import io.antrean.client.FieldViolation;
import io.antrean.client.InvalidArgumentException;
import io.antrean.client.JobNotFoundException;
import io.antrean.client.UnavailableException;
import java.io.PrintWriter;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns an exception thrown by a command into a message on stderr and an {@link ExitCodes exit
 * code}. Field violations are printed one per line as {@code field: description}.
 */
final class FailureReporter implements IExecutionExceptionHandler {
  private final Supplier<String> coordinator;

  /**
   * @param coordinator the coordinator the failed command talked to, for the messages
   */
  FailureReporter(Supplier<String> coordinator) {
    this.coordinator = coordinator;
  }

  @Override
  public int handleExecutionException(Exception e, CommandLine command, ParseResult parsed) {
    PrintWriter err = command.getErr();
    int code = report(e, err);
    err.flush();
    return code;
  }

  private int report(Exception e, PrintWriter err) {
    if (e instanceof UnavailableException unavailable) {
      String what = unavailable.isDeadlineExceeded() ? "did not answer in time" : "is unavailable";
      err.printf(
          "antrean: coordinator %s %s (%s)%n", coordinator.get(), what, describe(unavailable));
      return ExitCodes.UNAVAILABLE;
    }
    if (e instanceof JobNotFoundException notFound) {
      err.println("antrean: not found: " + notFound.getMessage());
      return ExitCodes.NOT_FOUND;
    }
    if (e instanceof AntreanException failed) {
      err.println("antrean: " + describe(failed));
      if (failed instanceof InvalidArgumentException invalid) {
        for (FieldViolation violation : invalid.fieldViolations()) {
          err.println(violation.field() + ": " + violation.description());
        }
      }
      return ExitCodes.FAILURE;
    }
    err.println("antrean: unexpected error: " + e);
    return ExitCodes.FAILURE;
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
