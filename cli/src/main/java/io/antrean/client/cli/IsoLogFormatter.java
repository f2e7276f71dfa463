package io.antrean.client.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The CLI's log lines (gRPC's warnings, through java.util.logging) in the form every Antrean
 * process uses: {@code 2026-12-01T15:04:05.123+01:00 WARNING io.grpc.Foo - message}.
 */
final class IsoLogFormatter extends Formatter {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");

  private final ZoneId zone;

  IsoLogFormatter(ZoneId zone) {
    this.zone = zone;
  }

  /** Formats every handler of the root logger this way. */
  static void install() {
    for (Handler handler : Logger.getLogger("").getHandlers()) {
      handler.setFormatter(new IsoLogFormatter(ZoneId.systemDefault()));
    }
  }

  @Override
  public String format(LogRecord record) {
    StringBuilder line =
        new StringBuilder()
            .append(TIME.format(OffsetDateTime.ofInstant(record.getInstant(), zone)))
            .append(' ')
            .append(record.getLevel().getName())
            .append(' ')
            .append(record.getLoggerName())
            .append(" - ")
            .append(formatMessage(record))
            .append(System.lineSeparator());
    if (record.getThrown() != null) {
      StringWriter trace = new StringWriter();
      record.getThrown().printStackTrace(new PrintWriter(trace));
      line.append(trace);
    }
    return line.toString();
  }
}
