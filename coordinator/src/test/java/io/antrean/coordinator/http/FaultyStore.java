package io.antrean.coordinator.http;

import io.antrean.coordinator.store.JobStore;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A test-only {@link JobStore} that forwards every call to a real store, except that {@link
 * #failOn} makes one method throw a given exception, and {@link #hangOn} makes one block, until
 * {@link #heal} is called. A dynamic proxy, so it keeps up with the SPI without edits.
 */
public final class FaultyStore implements InvocationHandler {
  private final JobStore real;
  private final AtomicReference<String> method = new AtomicReference<>();
  private final AtomicReference<RuntimeException> fault = new AtomicReference<>();
  private final AtomicReference<String> hangMethod = new AtomicReference<>();
  private final AtomicReference<CountDownLatch> hang = new AtomicReference<>();

  private FaultyStore(JobStore real) {
    this.real = real;
  }

  /** The proxy and its control. */
  public record Wrapped(JobStore store, FaultyStore control) {}

  public static Wrapped wrap(JobStore real) {
    FaultyStore control = new FaultyStore(real);
    JobStore proxy =
        (JobStore)
            Proxy.newProxyInstance(
                JobStore.class.getClassLoader(), new Class<?>[] {JobStore.class}, control);
    return new Wrapped(proxy, control);
  }

  /** Whether {@code m} is the method {@code name} or its {@code ...Async} form. */
  private static boolean named(Method m, String name) {
    return name != null && (m.getName().equals(name) || m.getName().equals(name + "Async"));
  }

  /**
   * From now on, calls of the store method named {@code name} (or its async form) throw {@code e}.
   */
  public void failOn(String name, RuntimeException e) {
    fault.set(e);
    method.set(name);
  }

  /** From now on, calls of the store method named {@code name} block until {@code until} opens. */
  public void hangOn(String name, CountDownLatch until) {
    hang.set(until);
    hangMethod.set(name);
  }

  public void heal() {
    method.set(null);
    hangMethod.set(null);
  }

  @Override
  public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
    if (named(m, method.get())) {
      throw fault.get();
    }
    if (named(m, hangMethod.get())) {
      hang.get().await(10, TimeUnit.SECONDS);
    }
    try {
      return m.invoke(real, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
