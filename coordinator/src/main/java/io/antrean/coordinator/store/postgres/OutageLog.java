package io.antrean.coordinator.store.postgres;

import org.slf4j.Logger;

/**
 * The log of a duty that retries what fails, such as a database call: the first failure of an
 * outage is a warning, the ones after it debug lines, and the first success after it says the duty
 * works again. A database that is down fails every turn, and one warning per turn would bury the
 * log. Used by one thread at a time.
 */
final class OutageLog {
  private final Logger log;
  private final String duty;
  private final String meanwhile;
  private boolean failing;

  /**
   * @param duty what fails, as the start of a sentence ("announcing ready jobs ...")
   * @param meanwhile what happens until it works again
   */
  OutageLog(Logger log, String duty, String meanwhile) {
    this.log = log;
    this.duty = duty;
    this.meanwhile = meanwhile;
  }

  void failed(RuntimeException e) {
    if (failing) {
      log.debug("{} failed again: {}", duty, e.toString());
      return;
    }
    failing = true;
    log.warn("{} failed; {}: {}", duty, meanwhile, e.toString());
  }

  void worked() {
    if (failing) {
      failing = false;
      log.info("{} works again", duty);
    }
  }
}
