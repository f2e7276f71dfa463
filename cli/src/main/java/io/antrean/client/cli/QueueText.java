package io.antrean.client.cli;

import io.antrean.proto.v1.QueueInfo;

/** One-line descriptions of a queue's pause state. */
final class QueueText {
  private QueueText() {}

  /**
   * {@code queue mail paused at 2027-01-15T08:00:00Z; jobs are accepted but not leased}, or {@code
   * queue mail resumed; its jobs are leased again}.
   */
  static String describe(QueueInfo info) {
    String line = "queue " + info.getName() + " ";
    if (!info.getPaused()) {
      return line + "resumed; its jobs are leased again";
    }
    String at = info.hasPausedAt() ? " at " + JobText.instant(info.getPausedAt()) : "";
    return line + "paused" + at + "; jobs are accepted but not leased";
  }
}
