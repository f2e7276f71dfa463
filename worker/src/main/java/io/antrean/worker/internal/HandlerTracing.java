package io.antrean.worker.internal;

import io.antrean.proto.v1.Job;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Runs handlers of jobs that carry a producer's W3C {@code traceparent} in a {@code CONSUMER} span
 * {@code antrean process <type>}: its parent is the producer's span, so the job is one trace from
 * Enqueue to handler, and it is also linked to it. A job without a trace parent costs one string
 * check. Thread-safe.
 */
final class HandlerTracing {
  private static final String INSTRUMENTATION = "io.antrean.worker";
  private static final String TRACEPARENT = "traceparent";
  private static final TextMapGetter<String> TRACE_PARENT =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String traceParent) {
          return List.of(TRACEPARENT);
        }

        @Override
        @Nullable
        public String get(@Nullable String traceParent, String key) {
          return TRACEPARENT.equals(key) ? traceParent : null;
        }
      };

  private final Tracer tracer;

  HandlerTracing(OpenTelemetry openTelemetry) {
    this.tracer = openTelemetry.getTracer(INSTRUMENTATION);
  }

  /**
   * Starts the handler span of {@code job}, not yet current; null when the job carries no valid
   * trace parent.
   */
  @Nullable
  Span start(Job job) {
    if (job.getTraceParent().isEmpty()) {
      return null;
    }
    Context producer =
        W3CTraceContextPropagator.getInstance()
            .extract(Context.root(), job.getTraceParent(), TRACE_PARENT);
    SpanContext parent = Span.fromContext(producer).getSpanContext();
    if (!parent.isValid()) {
      return null;
    }
    return tracer
        .spanBuilder("antrean process " + job.getType())
        .setSpanKind(SpanKind.CONSUMER)
        .setParent(producer)
        .addLink(parent)
        .setAttribute("messaging.system", "antrean")
        .setAttribute("messaging.destination.name", job.getQueue())
        .setAttribute("messaging.message.id", Long.toString(job.getId()))
        .startSpan();
  }

  /** Ends {@code span}, marked as failed with {@code error} when the handler threw. */
  static void end(Span span, @Nullable Throwable error) {
    if (error != null) {
      span.recordException(error);
      span.setStatus(StatusCode.ERROR, error.getClass().getName());
    }
    span.end();
  }
}
