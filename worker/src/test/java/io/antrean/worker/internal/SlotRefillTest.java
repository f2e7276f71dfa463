package io.antrean.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Duration;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class SlotRefillTest {
  private static final LeaseRequest TEMPLATE =
      LeaseRequest.newBuilder()
          .setWorkerId("w")
          .setQueue("q")
          .addTypes("t")
          .setMaxJobs(7)
          .setWait(Duration.newBuilder().setSeconds(20))
          .setLeaseTtl(Duration.newBuilder().setSeconds(30))
          .build();

  private final SlotPool slots = new SlotPool(10);
  private final List<Long> dispatched = new ArrayList<>();
  private final AtomicBoolean leasing = new AtomicBoolean(true);
  private final SlotRefill refill =
      new SlotRefill(
          TEMPLATE, leasing::get, (job, receivedNanos) -> dispatched.add(job.getId()), slots);

  @Test
  void asksForOneJobPerFreedSlotWithoutWaitAtMostOneLeasesWorth() {
    LeaseRequest three = refill.request(3);
    assertThat(three.getMaxJobs()).isEqualTo(3);
    assertThat(three.hasWait()).isFalse();
    assertThat(three.getQueue()).isEqualTo("q");
    assertThat(three.getTypesList()).containsExactly("t");
    assertThat(three.getLeaseTtl().getSeconds()).isEqualTo(30);
    assertThat(three.getWorkerId()).isEqualTo("w");
    assertThat(refill.request(1000).getMaxJobs()).isEqualTo(LeasePoller.MAX_JOBS_PER_LEASE);
    assertThat(refill.request(0)).isNull();
  }

  @Test
  void asksForNothingOnceLeasingHasStopped() {
    leasing.set(false);
    assertThat(refill.request(5)).isNull();
  }

  @Test
  void dispatchesNoMoreJobsThanItAskedFor() {
    refill.dispatch(List.of(job(1), job(2), job(3)), 2, 0);
    assertThat(dispatched).containsExactly(1L, 2L);
    assertThat(SlotRefill.accepted(List.of(job(1), job(2), job(3)), 2)).isEqualTo(2);
    assertThat(SlotRefill.accepted(List.of(job(1)), 2)).isEqualTo(1);
  }

  @Test
  void aDispatcherThatThrowsGivesBackTheSlotsOfTheJobsNotDispatched() throws Exception {
    assertThat(slots.acquireUpTo(10)).isEqualTo(10);
    SlotRefill failing =
        new SlotRefill(
            TEMPLATE,
            () -> true,
            (job, receivedNanos) -> {
              if (job.getId() == 2) {
                throw new IllegalStateException("bug");
              }
              dispatched.add(job.getId());
            },
            slots);

    assertThatThrownBy(() -> failing.dispatch(List.of(job(1), job(2), job(3)), 3, 0))
        .hasMessage("bug");
    assertThat(dispatched).containsExactly(1L);
    assertThat(slots.free()).isEqualTo(2);
  }

  private static Job job(long id) {
    return Job.newBuilder().setId(id).build();
  }
}
