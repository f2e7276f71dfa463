package io.antrean.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StandardErrorTableTest {
  private final ErrorClassifier table = ErrorClassifier.standard();

  static Stream<Arguments> table() {
    return Stream.of(
        Arguments.of(new RetryableException("429"), FailureKind.RETRYABLE),
        Arguments.of(new PermanentException("bad payload"), FailureKind.PERMANENT),
        Arguments.of(new TimeoutException(), FailureKind.RETRYABLE),
        Arguments.of(new SocketTimeoutException(), FailureKind.RETRYABLE),
        Arguments.of(new ConnectException(), FailureKind.RETRYABLE),
        Arguments.of(new SocketException("Connection reset"), FailureKind.RETRYABLE),
        Arguments.of(new FileNotFoundException(), FailureKind.RETRYABLE),
        Arguments.of(new IOException(), FailureKind.RETRYABLE),
        Arguments.of(new UncheckedIOException(new IOException()), FailureKind.RETRYABLE),
        Arguments.of(new IllegalArgumentException(), FailureKind.PERMANENT),
        Arguments.of(new NumberFormatException(), FailureKind.PERMANENT),
        Arguments.of(new IllegalStateException(), FailureKind.PERMANENT),
        Arguments.of(new NullPointerException(), FailureKind.PERMANENT),
        Arguments.of(new ClassCastException(), FailureKind.PERMANENT),
        Arguments.of(new UnsupportedOperationException(), FailureKind.PERMANENT),
        Arguments.of(new ArithmeticException(), FailureKind.PERMANENT),
        Arguments.of(new IndexOutOfBoundsException(), FailureKind.PERMANENT),
        Arguments.of(new ArrayIndexOutOfBoundsException(), FailureKind.PERMANENT),
        Arguments.of(new RuntimeException(), FailureKind.PERMANENT),
        Arguments.of(new AssertionError(), FailureKind.PERMANENT),
        Arguments.of(new OutOfMemoryError(), FailureKind.PERMANENT),
        Arguments.of(new Exception("checked"), FailureKind.RETRYABLE),
        Arguments.of(new InterruptedException(), FailureKind.RETRYABLE));
  }

  @ParameterizedTest(name = "{0} is {1}")
  @MethodSource("table")
  void classifiesByTheDocumentedTable(Throwable error, FailureKind expected) {
    assertThat(table.classify(error)).isEqualTo(expected);
  }

  @Test
  void markerInTheCauseChainWinsOverTheWrapper() {
    assertThat(table.classify(new IllegalStateException("wrapped", new RetryableException("x"))))
        .isEqualTo(FailureKind.RETRYABLE);
    assertThat(table.classify(new IOException("wrapped", new PermanentException("x"))))
        .isEqualTo(FailureKind.PERMANENT);
  }

  @Test
  void outermostMarkerWins() {
    assertThat(table.classify(new PermanentException("outer", new RetryableException("inner"))))
        .isEqualTo(FailureKind.PERMANENT);
  }

  @Test
  void causeCarryingWrappersAreClassifiedByTheirCause() {
    assertThat(table.classify(new CompletionException(new ConnectException())))
        .isEqualTo(FailureKind.RETRYABLE);
    assertThat(table.classify(new ExecutionException(new IllegalArgumentException())))
        .isEqualTo(FailureKind.PERMANENT);
    assertThat(table.classify(new InvocationTargetException(new NullPointerException())))
        .isEqualTo(FailureKind.PERMANENT);
    assertThat(
            table.classify(
                new ExecutionException(new CompletionException(new SocketTimeoutException()))))
        .isEqualTo(FailureKind.RETRYABLE);
  }

  @Test
  void wrapperWithoutCauseFollowsItsOwnType() {
    assertThat(table.classify(new CompletionException("no cause", null)))
        .isEqualTo(FailureKind.PERMANENT);
    assertThat(table.classify(new ExecutionException("no cause", null)))
        .isEqualTo(FailureKind.RETRYABLE);
  }

  @Test
  void cyclicCauseChainTerminates() {
    IllegalStateException first = new IllegalStateException("a");
    RuntimeException second = new RuntimeException("b", first);
    first.initCause(second);

    assertThat(table.classify(first)).isEqualTo(FailureKind.PERMANENT);
  }
}
