package io.antrean.worker;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs handlers for operating-system signals through {@code sun.misc.Signal}, looked up
 * reflectively so the worker still runs (with shutdown-hook semantics only) on a JVM without it.
 * Trapping the signal, instead of letting it start JVM shutdown, is what lets a second signal cut
 * the grace short and lets the process exit 0 after a clean drain.
 *
 * <p>Thread-safe; the action runs on a JVM signal-dispatch thread and must not block.
 */
final class SignalTrap {
  private SignalTrap() {}

  /**
   * Runs {@code action} with the signal's name ({@code "TERM"}, {@code "INT"}) each time one of
   * {@code names} arrives.
   *
   * @return true if every handler was installed
   */
  static boolean install(Consumer<String> action, String... names) {
    boolean all = true;
    for (String name : names) {
      all &= installOne(name, action);
    }
    return all;
  }

  private static boolean installOne(String name, Consumer<String> action) {
    try {
      Class<?> signalClass = Class.forName("sun.misc.Signal");
      Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
      Object signal = signalClass.getConstructor(String.class).newInstance(name);
      InvocationHandler onSignal =
          (proxy, method, args) -> dispatch(proxy, method, args, name, action);
      Object handler =
          Proxy.newProxyInstance(
              SignalTrap.class.getClassLoader(), new Class<?>[] {handlerClass}, onSignal);
      signalClass.getMethod("handle", signalClass, handlerClass).invoke(null, signal, handler);
      return true;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      // Looked up only here: the trap is set before logging is initialised.
      Logger log = LoggerFactory.getLogger(SignalTrap.class);
      log.debug("cannot trap SIG{}; relying on the shutdown hook: {}", name, e.toString());
      return false;
    }
  }

  private static Object dispatch(
      Object proxy, Method method, Object[] args, String name, Consumer<String> action) {
    switch (method.getName()) {
      case "handle" -> action.accept(name);
      case "hashCode" -> {
        return System.identityHashCode(proxy);
      }
      case "equals" -> {
        return args != null && args.length == 1 && args[0] == proxy;
      }
      case "toString" -> {
        return "SignalTrap(SIG" + name + ")";
      }
      default -> {
        return null;
      }
    }
    return null;
  }
}
