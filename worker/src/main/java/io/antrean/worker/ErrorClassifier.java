package io.antrean.worker;

/**
 * Decides whether a handler's failure is worth retrying. Replace the default with {@link
 * WorkerBuilder#errorClassifier(ErrorClassifier)}; a custom classifier can delegate to {@link
 * #standard()} for what it does not recognise.
 *
 * <p>The {@linkplain #standard() standard} table, applied in this order:
 *
 * <ol>
 *   <li>{@link RetryableException} is {@code RETRYABLE} and {@link PermanentException} is {@code
 *       PERMANENT}, whether thrown directly or found anywhere in the cause chain (the outermost one
 *       wins).
 *   <li>Wrappers that only carry a cause ({@link java.util.concurrent.ExecutionException}, {@link
 *       java.util.concurrent.CompletionException}, {@link
 *       java.lang.reflect.InvocationTargetException}, {@link
 *       java.lang.reflect.UndeclaredThrowableException}) are classified by their cause.
 *   <li>{@code RETRYABLE}: {@link java.util.concurrent.TimeoutException}, {@link
 *       java.net.SocketTimeoutException}, {@link java.net.ConnectException}, {@link
 *       java.net.SocketException} (connection reset), any other {@link java.io.IOException}, and
 *       {@link java.io.UncheckedIOException}.
 *   <li>{@code PERMANENT}: {@link IllegalArgumentException} (and so {@link NumberFormatException}),
 *       {@link IllegalStateException}, {@link NullPointerException}, {@link ClassCastException},
 *       {@link UnsupportedOperationException}, {@link ArithmeticException}, {@link
 *       IndexOutOfBoundsException}, and every other {@link RuntimeException} or {@link Error}:
 *       these are bugs, and retrying a bug only burns capacity.
 *   <li>{@code RETRYABLE}: every other checked exception.
 * </ol>
 *
 * <p>Implementations must be thread-safe and fast; they are called on handler threads.
 */
@FunctionalInterface
public interface ErrorClassifier {

  /**
   * Classifies a failure thrown by a {@link JobHandler}.
   *
   * @param error what the handler threw; never {@code null}
   * @return how the coordinator should treat the failed attempt; never {@code null}
   */
  FailureKind classify(Throwable error);

  /**
   * The standard table described in the class comment.
   *
   * @return a stateless, thread-safe classifier
   */
  static ErrorClassifier standard() {
    return StandardErrorTable.INSTANCE;
  }
}
