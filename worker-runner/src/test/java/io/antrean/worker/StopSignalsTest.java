package io.antrean.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Stop signals that come before the worker exists are kept and handed over in order. */
class StopSignalsTest {

  @Test
  void signalsBeforeAttachAreReplayedInOrderAndLaterOnesGoStraightThrough() {
    StopSignals signals = new StopSignals();
    List<String> seen = new ArrayList<>();
    assertThat(signals.stopRequested()).isFalse();

    signals.onSignal("TERM");
    signals.onSignal("INT");
    assertThat(signals.stopRequested()).isTrue();
    signals.attach((name, count) -> seen.add(name + count));
    signals.onSignal("TERM");

    assertThat(seen).containsExactly("TERM1", "INT2", "TERM3");
  }
}
