package io.antrean.coordinator.store.sqlite.young;

/** A change to a young job and its record, for the {@link YoungJobLog} once its group commits. */
public record LoggedChange(YoungChange change, byte[] record) {}
