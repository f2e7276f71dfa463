package io.antrean.worker.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.worker.PermanentException;
import io.antrean.worker.RetryableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class ExampleHandlersTest {

  private static String text(byte[] result) {
    return new String(result, StandardCharsets.UTF_8);
  }

  @Test
  void emailSendReturnsAMessageIdThatIsStableAcrossAttempts() throws Exception {
    EmailSendHandler email = new EmailSendHandler();

    String first = text(email.handle(new FakeJobContext("{\"to\":\"ana@example.com\"}", 1)));
    String retry = text(email.handle(new FakeJobContext("{\"to\":\"ana@example.com\"}", 2)));

    assertThat(first).matches("\\{\"messageId\":\"[0-9a-f-]{36}\"}");
    assertThat(retry).isEqualTo(first);
  }

  @Test
  void emailSendRejectsBadPayloadsPermanently() {
    EmailSendHandler email = new EmailSendHandler();

    assertThatThrownBy(() -> email.handle(new FakeJobContext("not json")))
        .isInstanceOf(PermanentException.class)
        .hasMessageContaining("not a JSON object");
    assertThatThrownBy(() -> email.handle(new FakeJobContext("{}")))
        .isInstanceOf(PermanentException.class)
        .hasMessageContaining("\"to\" is missing");
    assertThatThrownBy(() -> email.handle(new FakeJobContext("{\"to\":42}")))
        .isInstanceOf(PermanentException.class)
        .hasMessageContaining("must be a string");
    assertThatThrownBy(() -> email.handle(new FakeJobContext("{\"to\":\"nobody\"}")))
        .isInstanceOf(PermanentException.class)
        .hasMessageContaining("not an email address");
  }

  @Test
  void reportBuildReportsProgressPerPage() throws Exception {
    FakeJobContext ctx = new FakeJobContext("{\"pages\":3,\"msPerPage\":1}");

    byte[] result = new ReportBuildHandler().handle(ctx);

    assertThat(text(result)).isEqualTo("{\"pages\":3}");
    assertThat(ctx.progress).containsExactly("page 1/3", "page 2/3", "page 3/3");
  }

  @Test
  void reportBuildStopsWhenCancelled() {
    FakeJobContext ctx = new FakeJobContext("{\"pages\":3,\"msPerPage\":1}");
    ctx.cancel();

    assertThatThrownBy(() -> new ReportBuildHandler().handle(ctx))
        .isInstanceOf(CancellationException.class);
    assertThat(ctx.progress).isEmpty();
  }

  @Test
  void reportBuildRejectsNonsensePagesPermanently() {
    assertThatThrownBy(() -> new ReportBuildHandler().handle(new FakeJobContext("{\"pages\":-1}")))
        .isInstanceOf(PermanentException.class);
    assertThatThrownBy(() -> new ReportBuildHandler().handle(new FakeJobContext("{\"pages\":1.5}")))
        .isInstanceOf(PermanentException.class);
  }

  @Test
  void flakyFailsRetryablyForTheFirstAttemptsThenSucceeds() {
    FlakyHandler flaky = new FlakyHandler();
    String payload = "{\"failures\":2,\"retryAfterMs\":1500}";

    for (int attempt = 1; attempt <= 2; attempt++) {
      FakeJobContext ctx = new FakeJobContext(payload, attempt);
      assertThatThrownBy(() -> flaky.handle(ctx))
          .isInstanceOfSatisfying(
              RetryableException.class,
              e -> assertThat(e.retryAfter()).contains(Duration.ofMillis(1500)));
    }
    assertThat(text(flaky.handle(new FakeJobContext(payload, 3)))).isEqualTo("{\"attempt\":3}");
  }

  @Test
  void flakyFailsOnceByDefault() {
    FlakyHandler flaky = new FlakyHandler();

    assertThatThrownBy(() -> flaky.handle(new FakeJobContext("{}", 1)))
        .isInstanceOfSatisfying(
            RetryableException.class, e -> assertThat(e.retryAfter()).isEmpty());
    assertThat(text(flaky.handle(new FakeJobContext("{}", 2)))).isEqualTo("{\"attempt\":2}");
  }

  @Test
  void noopSucceedsWithItsStartInMicrosecondsAndIsLoadedByTheServiceLoader() {
    java.time.Clock clock =
        java.time.Clock.fixed(
            java.time.Instant.parse("2026-12-01T15:00:00.123456789Z"), java.time.ZoneOffset.UTC);
    assertThat(text(new NoopHandler(clock).handle(new FakeJobContext("{}"))))
        .isEqualTo("{\"startedAtMicros\":1796137200123456}");
    assertThat(
            java.util.ServiceLoader.load(io.antrean.worker.JobHandlerProvider.class).stream()
                .map(p -> p.get().type()))
        .contains("bench.noop", "email.send", "report.build", "flaky", "sleep", "crash");
  }

  @Test
  void sleepSleepsAndEndsOnInterruption() throws Exception {
    assertThat(text(new SleepHandler().handle(new FakeJobContext("{\"ms\":1}"))))
        .isEqualTo("{\"sleptMs\":1}");

    CountDownLatch running = new CountDownLatch(1);
    Thread[] sleeper = new Thread[1];
    CompletableFuture<Throwable> outcome =
        CompletableFuture.supplyAsync(
            () -> {
              sleeper[0] = Thread.currentThread();
              running.countDown();
              try {
                new SleepHandler().handle(new FakeJobContext("{\"ms\":60000}"));
                return null;
              } catch (InterruptedException e) {
                return e;
              }
            });
    assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
    sleeper[0].interrupt();

    assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
  }

  @Test
  void crashWithAnUnknownModeFailsPermanentlyInsteadOfHalting() {
    assertThatThrownBy(
            () -> new CrashHandler().handle(new FakeJobContext("{\"mode\":\"explode\"}")))
        .isInstanceOf(PermanentException.class)
        .hasMessageContaining("unknown crash mode");
  }

  @Test
  void jsonQuotingEscapesControlCharacters() {
    assertThat(JsonPayload.quote("a\"b\\c\n\u0001")).isEqualTo("\"a\\\"b\\\\c\\n\\u0001\"");
  }
}
