package io.antrean.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.proto.v1.DeadLetterFilter;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeadLetterSelectionTest {
  private static final DeadLetterFilter BY_TYPE =
      DeadLetterFilter.newBuilder().setType("email.send").build();

  @Test
  void idsBecomeTheRequestsIdsInOrder() {
    DeadLetterSelection selection = DeadLetterSelection.ofIds(9, 3, 5);

    assertThat(selection.ids()).containsExactly(9L, 3L, 5L);
    assertThat(selection.filter()).isEmpty();
    assertThat(selection.isAll()).isFalse();
    assertThat(selection.toRedriveRequest().build())
        .isEqualTo(RedriveDeadLettersRequest.newBuilder().addIds(9).addIds(3).addIds(5).build());
    assertThat(selection.toPurgeRequest().build())
        .isEqualTo(PurgeDeadLettersRequest.newBuilder().addIds(9).addIds(3).addIds(5).build());
  }

  @Test
  void aFilterBecomesTheRequestsFilterWithoutIdsOrAll() {
    DeadLetterSelection selection = DeadLetterSelection.matching(BY_TYPE);

    assertThat(selection.filter()).contains(BY_TYPE);
    assertThat(selection.toRedriveRequest().build())
        .isEqualTo(RedriveDeadLettersRequest.newBuilder().setFilter(BY_TYPE).build());
    assertThat(selection.toPurgeRequest().build())
        .isEqualTo(PurgeDeadLettersRequest.newBuilder().setFilter(BY_TYPE).build());
  }

  @Test
  void allSetsOnlyTheAllFlag() {
    assertThat(DeadLetterSelection.all().toRedriveRequest().build())
        .isEqualTo(RedriveDeadLettersRequest.newBuilder().setAll(true).build());
    assertThat(DeadLetterSelection.all().toPurgeRequest().build())
        .isEqualTo(PurgeDeadLettersRequest.newBuilder().setAll(true).build());
  }

  @Test
  void anEmptySelectionIsRejectedBecauseItWouldMeanNothingOrEverything() {
    assertThatThrownBy(() -> DeadLetterSelection.ofIds())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one id");
    assertThatThrownBy(() -> DeadLetterSelection.ofIds(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> DeadLetterSelection.matching(DeadLetterFilter.getDefaultInstance()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("use all()");
  }

  @Test
  void theIdListIsCopied() {
    List<Long> ids = new ArrayList<>(List.of(1L, 2L));
    DeadLetterSelection selection = DeadLetterSelection.ofIds(ids);

    ids.add(3L);

    assertThat(selection.ids()).containsExactly(1L, 2L);
    assertThatThrownBy(() -> selection.ids().add(4L))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void selectionsAreValuesWithAReadableForm() {
    assertThat(DeadLetterSelection.ofIds(1, 2))
        .isEqualTo(DeadLetterSelection.ofIds(List.of(1L, 2L)));
    assertThat(DeadLetterSelection.ofIds(1, 2)).isNotEqualTo(DeadLetterSelection.ofIds(2, 1));
    assertThat(DeadLetterSelection.matching(BY_TYPE).hashCode())
        .isEqualTo(DeadLetterSelection.matching(BY_TYPE).hashCode());
    assertThat(DeadLetterSelection.ofIds(1, 2)).hasToString("ids [1, 2]");
    assertThat(DeadLetterSelection.all()).hasToString("all");
    assertThat(DeadLetterSelection.matching(BY_TYPE)).hasToString("filter {type: \"email.send\"}");
  }
}
