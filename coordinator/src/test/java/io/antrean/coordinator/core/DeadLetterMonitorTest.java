package io.antrean.coordinator.core;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.TestJobRecords;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class DeadLetterMonitorTest {
  private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
  private final Logger logger = (Logger) LoggerFactory.getLogger(DeadLetterMonitor.class);
  private final ListAppender<ILoggingEvent> captured = new ListAppender<>();
  private final DeadLetterMonitor monitor =
      new DeadLetterMonitor(new DeadLetterAlert(3, Duration.ofMinutes(1)));

  @BeforeEach
  void capture() {
    captured.start();
    logger.addAppender(captured);
  }

  @AfterEach
  void release() {
    logger.detachAppender(captured);
  }

  private List<String> warnings() {
    return captured.list.stream()
        .filter(e -> e.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  @Test
  void warnsOnceWhenTheThresholdIsCrossedNotPerJob() {
    for (int i = 0; i < 3; i++) {
      monitor.record(
          job("payments", "card.charge", "card declined: expired token"), T0.plusSeconds(i));
    }
    assertThat(warnings()).isEmpty();
    monitor.record(job("email", "email.send", "smtp 550"), T0.plusSeconds(3));
    for (int i = 4; i < 20; i++) {
      monitor.record(
          job("payments", "card.charge", "card declined: expired token"), T0.plusSeconds(i));
    }
    assertThat(warnings()).hasSize(1);
    assertThat(warnings().get(0))
        .contains("4 jobs dead-lettered")
        .contains("payments x3")
        .contains("email x1")
        .contains("card.charge x3")
        .contains("card declined: expired token x3");
    assertThat(monitor.alerting()).isTrue();
  }

  @Test
  void rearmsAfterTheRateFallsBackAndWarnsAgainOnTheNextSpike() {
    for (int i = 0; i < 4; i++) {
      monitor.record(job("q", "t", "boom"), T0.plusSeconds(i));
    }
    assertThat(warnings()).hasSize(1);
    monitor.runOnce(T0.plus(Duration.ofMinutes(5)));
    assertThat(monitor.alerting()).isFalse();
    Instant later = T0.plus(Duration.ofMinutes(10));
    for (int i = 0; i < 4; i++) {
      monitor.record(job("q", "t", "boom"), later.plusSeconds(i));
    }
    assertThat(warnings()).hasSize(2);
  }

  @Test
  void slowTrickleNeverWarns() {
    for (int i = 0; i < 50; i++) {
      monitor.record(job("q", "t", "boom"), T0.plus(Duration.ofSeconds(30L * i)));
    }
    assertThat(warnings()).isEmpty();
  }

  private static Job job(String queue, String type, String error) {
    return TestJobRecords.job(1, T0).queue(queue).type(type).attempts(1, 0).failed(error).build();
  }
}
