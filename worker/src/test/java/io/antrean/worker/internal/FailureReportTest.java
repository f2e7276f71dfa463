package io.antrean.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.ErrorKind;
import io.antrean.worker.ErrorClassifier;
import io.antrean.worker.FailureKind;
import io.antrean.worker.PermanentException;
import io.antrean.worker.RetryableException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FailureReportTest {
  private final ErrorClassifier standard = ErrorClassifier.standard();

  @Test
  void describesTheErrorForTheCoordinator() {
    FailureReport report = FailureReport.of(new IOException("connection reset"), standard);

    assertThat(report.kind()).isEqualTo(ErrorKind.ERROR_KIND_RETRYABLE);
    assertThat(report.errorType()).isEqualTo("java.io.IOException");
    assertThat(report.message()).isEqualTo("connection reset");
    assertThat(report.stackTrace()).startsWith("java.io.IOException: connection reset");
    assertThat(report.retryAfter()).isNull();
  }

  @Test
  void retryAfterComesFromTheRetryableExceptionEvenWhenWrapped() {
    RetryableException tooMany = new RetryableException("429", Duration.ofSeconds(12));
    FailureReport report = FailureReport.of(new IllegalStateException("wrap", tooMany), standard);

    assertThat(report.kind()).isEqualTo(ErrorKind.ERROR_KIND_RETRYABLE);
    assertThat(report.retryAfter()).isEqualTo(Duration.ofSeconds(12));
    assertThat(report.errorType()).isEqualTo("java.lang.IllegalStateException");
  }

  @Test
  void permanentFailureCarriesNoRetryAfter() {
    FailureReport report =
        FailureReport.of(
            new PermanentException("bad", new RetryableException("x", Duration.ofSeconds(1))),
            standard);

    assertThat(report.kind()).isEqualTo(ErrorKind.ERROR_KIND_PERMANENT);
    assertThat(report.retryAfter()).isNull();
  }

  @Test
  void stackTraceIsCutTo8KiB() {
    FailureReport report = FailureReport.of(deepError(500), standard);

    assertThat(report.stackTrace().getBytes(StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo(8 * 1024)
        .isGreaterThan(8 * 1024 - 200);
  }

  @Test
  void missingMessageIsEmpty() {
    assertThat(FailureReport.of(new NullPointerException(), standard).message()).isEmpty();
  }

  @Test
  void brokenClassifierFallsBackToTheStandardTable() {
    ErrorClassifier broken =
        error -> {
          throw new IllegalStateException("classifier bug");
        };
    ErrorClassifier silent = error -> null;

    assertThat(FailureReport.of(new IOException(), broken).kind())
        .isEqualTo(ErrorKind.ERROR_KIND_RETRYABLE);
    assertThat(FailureReport.of(new IllegalArgumentException(), silent).kind())
        .isEqualTo(ErrorKind.ERROR_KIND_PERMANENT);
  }

  @Test
  void customClassifierIsAsked() {
    assertThat(FailureReport.of(new IOException(), error -> FailureKind.PERMANENT).kind())
        .isEqualTo(ErrorKind.ERROR_KIND_PERMANENT);
  }

  private static RuntimeException deepError(int depth) {
    if (depth == 0) {
      return new RuntimeException("bottom");
    }
    return deepError(depth - 1);
  }
}
