package io.antrean.client;

import io.antrean.proto.v1.DeadLetterFilter;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * Which dead letters a {@link DeadLetters#redrive redrive} or {@link DeadLetters#purge purge} acts
 * on: exactly one of a list of ids, a non-empty filter, or every dead letter.
 *
 * <p>The three kinds are kept apart on purpose: the protocol ignores the filter when ids are given
 * and treats an empty filter as "nothing" unless {@code all} is set, so a selection that mixed them
 * could silently act on fewer, or far more, jobs than meant. Immutable and thread-safe.
 */
public final class DeadLetterSelection {
  private static final DeadLetterSelection ALL = new DeadLetterSelection(List.of(), null, true);

  private final List<Long> ids;
  @Nullable private final DeadLetterFilter filter;
  private final boolean all;

  private DeadLetterSelection(List<Long> ids, @Nullable DeadLetterFilter filter, boolean all) {
    this.ids = ids;
    this.filter = filter;
    this.all = all;
  }

  /**
   * These jobs. Ids that are unknown or not dead-lettered are skipped by the server and reported.
   *
   * @throws IllegalArgumentException if {@code ids} is empty
   */
  public static DeadLetterSelection ofIds(long... ids) {
    return ofIds(Arrays.stream(ids).boxed().toList());
  }

  /**
   * These jobs, in this order; see {@link #ofIds(long...)}.
   *
   * @throws IllegalArgumentException if {@code ids} is empty
   * @throws NullPointerException if {@code ids} or one of its elements is null
   */
  public static DeadLetterSelection ofIds(Collection<Long> ids) {
    List<Long> copy = List.copyOf(ids);
    if (copy.isEmpty()) {
      throw new IllegalArgumentException("select at least one id, or use matching() or all()");
    }
    return new DeadLetterSelection(copy, null, false);
  }

  /**
   * Every dead letter the filter matches (every set field must match).
   *
   * @throws IllegalArgumentException if the filter sets no field: it would match nothing; use
   *     {@link #all()} to mean every dead letter
   */
  public static DeadLetterSelection matching(DeadLetterFilter filter) {
    Objects.requireNonNull(filter, "filter");
    if (filter.equals(DeadLetterFilter.getDefaultInstance())) {
      throw new IllegalArgumentException(
          "an empty filter selects nothing; set a field or use all()");
    }
    return new DeadLetterSelection(List.of(), filter, false);
  }

  /** Every dead letter, of every queue. */
  public static DeadLetterSelection all() {
    return ALL;
  }

  /** The selected ids, in order; empty unless this selection was made by {@link #ofIds}. */
  public List<Long> ids() {
    return ids;
  }

  /** The filter, when this selection was made by {@link #matching}. */
  public Optional<DeadLetterFilter> filter() {
    return Optional.ofNullable(filter);
  }

  /** Whether this selection is {@link #all()}. */
  public boolean isAll() {
    return all;
  }

  /** A redrive request for this selection, with the server's default rate and limit. */
  public RedriveDeadLettersRequest.Builder toRedriveRequest() {
    RedriveDeadLettersRequest.Builder request =
        RedriveDeadLettersRequest.newBuilder().addAllIds(ids).setAll(all);
    if (filter != null) {
      request.setFilter(filter);
    }
    return request;
  }

  /** A purge request for this selection. */
  public PurgeDeadLettersRequest.Builder toPurgeRequest() {
    PurgeDeadLettersRequest.Builder request =
        PurgeDeadLettersRequest.newBuilder().addAllIds(ids).setAll(all);
    if (filter != null) {
      request.setFilter(filter);
    }
    return request;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof DeadLetterSelection that
        && all == that.all
        && ids.equals(that.ids)
        && Objects.equals(filter, that.filter);
  }

  @Override
  public int hashCode() {
    return Objects.hash(ids, filter, all);
  }

  /** A short description for logs and messages, such as {@code ids [3, 4]} or {@code all}. */
  @Override
  public String toString() {
    if (all) {
      return "all";
    }
    return filter != null
        ? "filter {" + filter.toString().strip().replace('\n', ' ') + "}"
        : "ids " + ids;
  }
}
