package io.antrean.coordinator.core;

import io.antrean.coordinator.job.RetryPolicy;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The coordinator's scheduling limits and defaults. Immutable.
 *
 * @param declaredTypes when not empty, the only job types Enqueue accepts
 * @param typePolicies retry defaults per job type, the fields a type sets; win over the queue's
 * @param queuePolicies retry defaults per queue, the fields a queue sets; win over {@code
 *     defaultPolicy}
 * @param defaultLeaseTtl lease length when a worker asks for none
 * @param maxLeaseTtl the longest lease granted
 * @param defaultLeaseWait long-poll wait when a worker asks for none
 * @param maxLeaseWait the longest long-poll wait
 * @param maxPayloadBytes the largest payload accepted
 * @param maxBatchSize the most jobs in one EnqueueBatch
 * @param maxLeaseBatch the most jobs in one Lease
 * @param idempotencyWindow how long an idempotency key is remembered
 * @param sweepInterval how often the backup sweep looks for expired leases
 * @param retention how long finished jobs are kept
 * @param deadLetterAlert when dead-lettering counts as a spike
 */
public record Settings(
    Set<String> declaredTypes,
    Map<String, RetryOverride> typePolicies,
    Map<String, RetryOverride> queuePolicies,
    RetryPolicy defaultPolicy,
    Duration defaultLeaseTtl,
    Duration maxLeaseTtl,
    Duration defaultLeaseWait,
    Duration maxLeaseWait,
    int maxPayloadBytes,
    int maxBatchSize,
    int maxLeaseBatch,
    Duration idempotencyWindow,
    Duration sweepInterval,
    Retention retention,
    DeadLetterAlert deadLetterAlert) {

  public Settings {
    declaredTypes = Set.copyOf(declaredTypes);
    typePolicies = Map.copyOf(typePolicies);
    queuePolicies = Map.copyOf(queuePolicies);
    Objects.requireNonNull(defaultPolicy, "defaultPolicy");
  }

  /**
   * The retry defaults of a job of this type in this queue, per field: the type's where it sets the
   * field, else the queue's, else {@code defaultPolicy}'s.
   */
  public RetryPolicy retryDefaults(String type, String queue) {
    return typePolicies
        .getOrDefault(type, RetryOverride.NONE)
        .over(queuePolicies.getOrDefault(queue, RetryOverride.NONE))
        .applyTo(defaultPolicy);
  }

  /** The built-in defaults: no declared types, 30 s leases, 20 s long-polls, 1 MiB payloads. */
  public static Settings defaults() {
    return new Settings(
        Set.of(),
        Map.of(),
        Map.of(),
        RetryPolicy.DEFAULT,
        Duration.ofSeconds(30),
        Duration.ofMinutes(10),
        Duration.ofSeconds(20),
        Duration.ofSeconds(60),
        1 << 20,
        1000,
        256,
        Duration.ofHours(24),
        Duration.ofSeconds(5),
        Retention.DEFAULT,
        DeadLetterAlert.DEFAULT);
  }

  /** A copy with other declared types and per-type and per-queue retry defaults. */
  public Settings withJobTypes(
      Set<String> types, Map<String, RetryOverride> byType, Map<String, RetryOverride> byQueue) {
    return new Settings(
        types,
        byType,
        byQueue,
        defaultPolicy,
        defaultLeaseTtl,
        maxLeaseTtl,
        defaultLeaseWait,
        maxLeaseWait,
        maxPayloadBytes,
        maxBatchSize,
        maxLeaseBatch,
        idempotencyWindow,
        sweepInterval,
        retention,
        deadLetterAlert);
  }

  /** A copy with another backup sweep interval and idempotency window. */
  public Settings withIntervals(Duration newSweepInterval, Duration newIdempotencyWindow) {
    return new Settings(
        declaredTypes,
        typePolicies,
        queuePolicies,
        defaultPolicy,
        defaultLeaseTtl,
        maxLeaseTtl,
        defaultLeaseWait,
        maxLeaseWait,
        maxPayloadBytes,
        maxBatchSize,
        maxLeaseBatch,
        newIdempotencyWindow,
        newSweepInterval,
        retention,
        deadLetterAlert);
  }

  /** A copy with other retention periods and dead-letter alert. */
  public Settings withHousekeeping(Retention newRetention, DeadLetterAlert newAlert) {
    return new Settings(
        declaredTypes,
        typePolicies,
        queuePolicies,
        defaultPolicy,
        defaultLeaseTtl,
        maxLeaseTtl,
        defaultLeaseWait,
        maxLeaseWait,
        maxPayloadBytes,
        maxBatchSize,
        maxLeaseBatch,
        idempotencyWindow,
        sweepInterval,
        newRetention,
        newAlert);
  }
}
