package io.antrean.coordinator.metrics;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;

/**
 * Every per-queue series of one queue, looked up once when the queue is first seen, so counting an
 * event costs no label lookup. Immutable.
 */
record QueueSeries(
    CounterDataPoint enqueued,
    CounterDataPoint leased,
    CounterDataPoint completed,
    CounterDataPoint failedRetryable,
    CounterDataPoint failedPermanent,
    CounterDataPoint deadLettered,
    DistributionDataPoint enqueueToStart,
    DistributionDataPoint runSucceeded,
    DistributionDataPoint runFailedRetryable,
    DistributionDataPoint runFailedPermanent) {

  /** The metrics whose children a {@link QueueSeries} holds. */
  record Family(
      Counter enqueued,
      Counter leased,
      Counter completed,
      Counter failed,
      Counter deadLettered,
      Histogram enqueueToStart,
      Histogram runTime) {

    QueueSeries forQueue(String queue) {
      return new QueueSeries(
          enqueued.labelValues(queue),
          leased.labelValues(queue),
          completed.labelValues(queue),
          failed.labelValues(queue, "retryable"),
          failed.labelValues(queue, "permanent"),
          deadLettered.labelValues(queue),
          enqueueToStart.labelValues(queue),
          runTime.labelValues(queue, "succeeded"),
          runTime.labelValues(queue, "failed_retryable"),
          runTime.labelValues(queue, "failed_permanent"));
    }
  }
}
