package io.antrean.client;

import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.function.Supplier;

/**
 * Runs Enqueue calls in a {@code PRODUCER} span named {@value #SPAN_NAME} and writes that span's
 * W3C {@code traceparent} into each job that has none, so the worker's handler span continues the
 * producer's trace. With a no-op {@link OpenTelemetry} the span is invalid and requests go out
 * unchanged.
 */
final class EnqueueTracing {
  static final String SPAN_NAME = "antrean enqueue";
  private static final String INSTRUMENTATION = "io.antrean.client";
  private static final TextMapSetter<EnqueueRequest.Builder> TRACE_PARENT =
      (job, key, value) -> {
        if (job != null && "traceparent".equals(key)) {
          job.setTraceParent(value);
        }
      };

  private final Tracer tracer;

  EnqueueTracing(OpenTelemetry openTelemetry) {
    this.tracer = openTelemetry.getTracer(INSTRUMENTATION);
  }

  /** Calls {@code send} with the request carrying the producer span's trace context. */
  <T> T enqueue(EnqueueRequest request, Call<EnqueueRequest, T> send) {
    return traced(request.getQueue(), () -> send.apply(withTraceParent(request)));
  }

  /** Like {@link #enqueue}, for every job of a batch, all under one span. */
  <T> T enqueueBatch(EnqueueBatchRequest request, Call<EnqueueBatchRequest, T> send) {
    String queue = request.getJobsCount() == 0 ? "" : request.getJobs(0).getQueue();
    return traced(
        queue,
        () -> {
          if (!Span.current().getSpanContext().isValid()) {
            return send.apply(request);
          }
          EnqueueBatchRequest.Builder batch = request.toBuilder();
          for (int i = 0; i < batch.getJobsCount(); i++) {
            batch.setJobs(i, withTraceParent(batch.getJobs(i)));
          }
          return send.apply(batch.build());
        });
  }

  /** One gRPC call of the client. */
  interface Call<R, T> {
    T apply(R request);
  }

  private <T> T traced(String queue, Supplier<T> call) {
    Span span =
        tracer
            .spanBuilder(SPAN_NAME)
            .setSpanKind(SpanKind.PRODUCER)
            .setAttribute("messaging.system", "antrean")
            .setAttribute("messaging.destination.name", queue.isEmpty() ? "default" : queue)
            .startSpan();
    try (Scope ignored = span.makeCurrent()) {
      return call.get();
    } catch (RuntimeException e) {
      span.recordException(e);
      span.setStatus(StatusCode.ERROR);
      throw e;
    } finally {
      span.end();
    }
  }

  /** The request with the current span's traceparent, unless it has one or there is no span. */
  private static EnqueueRequest withTraceParent(EnqueueRequest request) {
    if (!request.getTraceParent().isEmpty() || !Span.current().getSpanContext().isValid()) {
      return request;
    }
    EnqueueRequest.Builder job = request.toBuilder();
    W3CTraceContextPropagator.getInstance().inject(Context.current(), job, TRACE_PARENT);
    return job.build();
  }
}
