package io.antrean.worker;

/**
 * A monotonic time source in nanoseconds, for lease deadlines. Only differences between two
 * readings are meaningful. Tests pass a fake one to {@link WorkerBuilder#ticker(Ticker)} and
 * advance it by hand.
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
public interface Ticker {

  /**
   * The current reading.
   *
   * @return nanoseconds since an arbitrary fixed origin
   */
  long nanos();

  /**
   * The system ticker, backed by {@link System#nanoTime()}.
   *
   * @return the system ticker
   */
  static Ticker system() {
    return System::nanoTime;
  }
}
