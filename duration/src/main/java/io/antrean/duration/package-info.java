/**
 * The duration syntax shared by every Antrean command line ({@link
 * io.antrean.duration.DurationSyntax}). This module has no dependencies so that the coordinator,
 * the runnable worker and the CLI can all use it without depending on each other.
 */
package io.antrean.duration;
