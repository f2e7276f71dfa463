package io.antrean.worker;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One job the running job depends on (it was enqueued with {@code depends_on}), as the coordinator
 * has it now: how a fan-in handler reads what the jobs it waited for produced. See {@link
 * JobContext#dependencies()}.
 *
 * @param jobId the dependency's id
 * @param queue its queue
 * @param type its job type
 * @param state its state, for example {@code "SUCCEEDED"}: every dependency of a job that runs has
 *     SUCCEEDED, unless an operator redrove the job after a dependency failed
 * @param result the result it completed with; empty when it has none
 * @param resultContentType the result's content type; empty when it has no result
 * @param lastError its last error; empty for none
 */
public record Dependency(
    long jobId,
    String queue,
    String type,
    String state,
    byte[] result,
    String resultContentType,
    String lastError) {

  public Dependency {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(resultContentType, "resultContentType");
    Objects.requireNonNull(lastError, "lastError");
    result = result.clone();
  }

  /**
   * The result bytes.
   *
   * @return a fresh copy; empty, never {@code null}, when there is none
   */
  @Override
  public byte[] result() {
    return result.clone();
  }

  /**
   * The result decoded as UTF-8 (malformed input is replaced, never thrown).
   *
   * @return the result text
   */
  public String resultUtf8() {
    return new String(result, StandardCharsets.UTF_8);
  }

  /**
   * Whether the dependency SUCCEEDED.
   *
   * @return true when its state is {@code SUCCEEDED}
   */
  public boolean succeeded() {
    return state.equals("SUCCEEDED");
  }
}
