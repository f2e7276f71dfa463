package io.antrean.coordinator.core;

import io.antrean.coordinator.store.QueueCounts;

/**
 * A queue's counts plus how many of its jobs were dead-lettered within the alert window.
 *
 * @param deadLetteredRecently jobs dead-lettered within {@link DeadLetterAlert#window()}; zero in
 *     the reports of unfinished jobs alone ({@link QueueReports#unfinished})
 */
public record QueueReport(QueueCounts counts, long deadLetteredRecently) {}
