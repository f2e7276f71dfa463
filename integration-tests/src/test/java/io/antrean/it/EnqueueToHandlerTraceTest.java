package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.antrean.client.GrpcAntreanClient;
import io.antrean.coordinator.Coordinator;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.worker.PermanentException;
import io.antrean.worker.Worker;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One trace from a producer's Enqueue to the worker's handler span: a real coordinator over
 * loopback, the Java client and a worker built on the worker library, both reporting to an SDK with
 * an in-memory exporter.
 */
@Timeout(60)
class EnqueueToHandlerTraceTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final SdkTracerProvider tracerProvider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
  private final OpenTelemetry openTelemetry =
      OpenTelemetrySdk.builder().setTracerProvider(tracerProvider).build();
  private final AtomicReference<SpanContext> spanInHandler = new AtomicReference<>();
  private Coordinator coordinator;
  private GrpcAntreanClient client;
  private Worker worker;

  @BeforeEach
  void start() throws Exception {
    coordinator =
        Coordinator.start(
            SqliteJobStore.open(dir),
            Settings.defaults().withJobTypes(Set.of("trace.ok", "trace.fail"), Map.of(), Map.of()),
            Clock.systemUTC(),
            NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)));
    String target = "127.0.0.1:" + coordinator.port();
    client = GrpcAntreanClient.forTarget(target).openTelemetry(openTelemetry).build();
    worker =
        Worker.builder()
            .coordinator(target)
            .openTelemetry(openTelemetry)
            .pollWait(Duration.ofSeconds(1))
            .handler(
                "trace.ok",
                ctx -> {
                  spanInHandler.set(Span.current().getSpanContext());
                  return "{}".getBytes(StandardCharsets.UTF_8);
                })
            .handler(
                "trace.fail",
                ctx -> {
                  throw new PermanentException("card declined");
                })
            .build();
    worker.start();
  }

  @AfterEach
  void stop() throws Exception {
    worker.shutdownNow();
    worker.awaitTermination(WAIT);
    client.close();
    coordinator.close();
    tracerProvider.close();
  }

  @Test
  void theHandlerSpanIsInTheProducersTraceUnderItsEnqueueSpan() {
    Span checkout = openTelemetry.getTracer("shop").spanBuilder("checkout").startSpan();
    long id;
    try (Scope ignored = checkout.makeCurrent()) {
      id = client.enqueue("trace.ok", "{}").getJob().getId();
    } finally {
      checkout.end();
    }
    assertThat(client.awaitTerminal(id, WAIT).getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);

    SpanData enqueue = awaitSpan("antrean enqueue");
    SpanData handler = awaitSpan("antrean process trace.ok");
    String traceId = checkout.getSpanContext().getTraceId();
    assertThat(enqueue.getKind()).isEqualTo(SpanKind.PRODUCER);
    assertThat(enqueue.getTraceId()).isEqualTo(traceId);
    assertThat(enqueue.getParentSpanId()).isEqualTo(checkout.getSpanContext().getSpanId());
    assertThat(handler.getKind()).isEqualTo(SpanKind.CONSUMER);
    assertThat(handler.getTraceId()).isEqualTo(traceId);
    assertThat(handler.getParentSpanId()).isEqualTo(enqueue.getSpanId());
    assertThat(handler.getLinks())
        .extracting(link -> link.getSpanContext().getSpanId())
        .containsExactly(enqueue.getSpanId());
    assertThat(handler.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
    assertThat(spanInHandler.get().getSpanId())
        .as("the handler span is current while the handler runs")
        .isEqualTo(handler.getSpanId());
    Job stored = client.getJob(id);
    assertThat(stored.getTraceParent())
        .as("the W3C traceparent of the enqueue span, as GetJob shows it")
        .startsWith("00-" + traceId + "-" + enqueue.getSpanId() + "-");
  }

  @Test
  void aFailingHandlerMarksItsSpanAsAnErrorWithTheException() {
    long id = client.enqueue("trace.fail", "{}").getJob().getId();
    assertThat(client.awaitTerminal(id, WAIT).getState()).isEqualTo(JobState.JOB_STATE_FAILED);

    SpanData enqueue = awaitSpan("antrean enqueue");
    SpanData handler = awaitSpan("antrean process trace.fail");
    assertThat(handler.getTraceId()).isEqualTo(enqueue.getTraceId());
    assertThat(handler.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(handler.getEvents())
        .anySatisfy(
            event ->
                assertThat(event.getAttributes().asMap().values())
                    .anySatisfy(v -> assertThat(String.valueOf(v)).contains("card declined")));
  }

  @Test
  void withoutOpenTelemetryNoTraceParentTravels() throws Exception {
    try (GrpcAntreanClient plain =
        GrpcAntreanClient.forTarget("127.0.0.1:" + coordinator.port())
            .openTelemetry(OpenTelemetry.noop())
            .build()) {
      long id = plain.enqueue("trace.ok", "{}").getJob().getId();
      assertThat(plain.awaitTerminal(id, WAIT).getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
      assertThat(plain.getJob(id).getTraceParent()).isEmpty();
    }
    assertThat(exporter.getFinishedSpanItems()).isEmpty();
  }

  private SpanData awaitSpan(String name) {
    AtomicReference<SpanData> found = new AtomicReference<>();
    await()
        .atMost(WAIT)
        .until(
            () -> {
              List<SpanData> spans = exporter.getFinishedSpanItems();
              Optional<SpanData> span =
                  spans.stream().filter(s -> s.getName().equals(name)).findFirst();
              span.ifPresent(found::set);
              return span.isPresent();
            });
    return found.get();
  }
}
