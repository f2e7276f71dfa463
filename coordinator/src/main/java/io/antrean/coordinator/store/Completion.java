package io.antrean.coordinator.store;

import java.util.Arrays;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * One job of a batched completion: the lease it ran under and its result.
 *
 * @param result the result bytes, or null for none; copied on the way in and out
 * @param resultContentType the result's content type, or null
 */
public record Completion(
    long jobId, long fencingToken, @Nullable byte[] result, @Nullable String resultContentType) {

  public Completion {
    result = result == null ? null : result.clone();
  }

  @Override
  @Nullable
  public byte[] result() {
    return result == null ? null : result.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Completion c
        && jobId == c.jobId
        && fencingToken == c.fencingToken
        && Arrays.equals(result, c.result)
        && Objects.equals(resultContentType, c.resultContentType);
  }

  @Override
  public int hashCode() {
    return Objects.hash(jobId, fencingToken, Arrays.hashCode(result), resultContentType);
  }

  @Override
  public String toString() {
    return "Completion[jobId=" + jobId + ", fencingToken=" + fencingToken + "]";
  }
}
