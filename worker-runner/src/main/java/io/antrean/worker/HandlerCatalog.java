package io.antrean.worker;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeSet;

/** The handlers found through {@link ServiceLoader} as {@link JobHandlerProvider}s. Stateless. */
final class HandlerCatalog {
  private HandlerCatalog() {}

  /**
   * Loads every provider visible to {@code loader} and creates the handlers of {@code types}, or,
   * when that is empty, of every provider {@linkplain JobHandlerProvider#loadedByDefault() loaded
   * by default}.
   *
   * @return handler per type, in discovery order
   * @throws IllegalArgumentException if two providers claim one type, a provider is broken, or a
   *     requested type has no provider (the message lists the known types)
   */
  static Map<String, JobHandler> load(ClassLoader loader, Collection<String> types) {
    Map<String, JobHandlerProvider> providers = new LinkedHashMap<>();
    for (JobHandlerProvider provider : ServiceLoader.load(JobHandlerProvider.class, loader)) {
      String type = provider.type();
      if (type == null || type.isBlank()) {
        throw new IllegalArgumentException(provider.getClass().getName() + " has a blank type");
      }
      JobHandlerProvider earlier = providers.putIfAbsent(type, provider);
      if (earlier != null) {
        throw new IllegalArgumentException(
            "job type "
                + type
                + " is provided twice: by "
                + earlier.getClass().getName()
                + " and "
                + provider.getClass().getName());
      }
    }
    for (String type : types) {
      if (!providers.containsKey(type)) {
        throw new IllegalArgumentException(
            "no handler for job type "
                + type
                + "; known types: "
                + new TreeSet<>(providers.keySet()));
      }
    }
    Map<String, JobHandler> handlers = new LinkedHashMap<>();
    providers.forEach(
        (type, provider) -> {
          if (types.isEmpty() ? provider.loadedByDefault() : types.contains(type)) {
            handlers.put(type, create(provider));
          }
        });
    return handlers;
  }

  private static JobHandler create(JobHandlerProvider provider) {
    JobHandler handler = provider.create();
    if (handler == null) {
      throw new IllegalArgumentException(provider.getClass().getName() + " created no handler");
    }
    return handler;
  }
}
