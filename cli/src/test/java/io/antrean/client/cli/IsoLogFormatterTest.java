package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class IsoLogFormatterTest {
  @Test
  void aLogLineStartsWithAnIsoDateTimeWithItsOffset() {
    LogRecord record = new LogRecord(Level.WARNING, "channel {0} broke");
    record.setParameters(new Object[] {"c1"});
    record.setLoggerName("io.grpc.Test");
    record.setInstant(Instant.parse("2026-12-01T14:04:05.123Z"));

    String line = new IsoLogFormatter(ZoneOffset.ofHours(1)).format(record);

    assertThat(line)
        .isEqualTo(
            "2026-12-01T15:04:05.123+01:00 WARNING io.grpc.Test - channel c1 broke"
                + System.lineSeparator());
  }
}
