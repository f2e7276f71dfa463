package io.antrean.coordinator.core;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.CompletionOutcome;
import java.util.List;

/**
 * What a CompleteBatch with a lease after it produced.
 *
 * @param outcomes one per item, in request order
 * @param leased the jobs leased after the items, each with its lease; empty when none was ready
 */
public record CompletionsAndLeases(List<CompletionOutcome> outcomes, List<Job> leased) {
  public CompletionsAndLeases {
    outcomes = List.copyOf(outcomes);
    leased = List.copyOf(leased);
  }
}
