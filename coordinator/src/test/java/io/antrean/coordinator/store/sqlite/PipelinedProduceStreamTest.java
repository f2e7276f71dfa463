package io.antrean.coordinator.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import io.antrean.coordinator.Coordinator;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ProduceRequest;
import io.antrean.proto.v1.ProduceResponse;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Produce stream whose producer once had two requests unanswered is pipelining: its Enqueues are
 * written by the writer thread even in a quiet moment, so a burst's first one does not hold the
 * network thread for its commit and fsync while the rest of the burst waits unread; a stream with
 * one request at a time keeps the quiet moment's write on the network thread. Over Netty, against
 * the SQLite writer's own count of writes its callers ran.
 */
@Timeout(60)
class PipelinedProduceStreamTest {
  @TempDir Path dir;

  /** One client-side Produce stream, its answers kept in arrival order. */
  private static final class Stream implements StreamObserver<ProduceResponse> {
    final BlockingQueue<ProduceResponse> answers = new LinkedBlockingQueue<>();
    final StreamObserver<ProduceRequest> requests;

    Stream(ManagedChannel channel) {
      requests = JobServiceGrpc.newStub(channel).produce(this);
    }

    void enqueue(long id) {
      requests.onNext(
          ProduceRequest.newBuilder()
              .setRequestId(id)
              .setEnqueue(
                  EnqueueRequest.newBuilder()
                      .setType("t")
                      .setPayload(ByteString.copyFromUtf8("{}")))
              .build());
    }

    ProduceResponse answer() throws InterruptedException {
      ProduceResponse answer = answers.poll(10, TimeUnit.SECONDS);
      assertThat(answer).as("an answer within 10 s").isNotNull();
      assertThat(answer.hasEnqueue()).as("stored: %s", answer).isTrue();
      return answer;
    }

    @Override
    public void onNext(ProduceResponse response) {
      answers.add(response);
    }

    @Override
    public void onError(Throwable t) {}

    @Override
    public void onCompleted() {}
  }

  @Test
  void aPipeliningStreamsLoneEnqueueInAQuietMomentGoesToTheWriterThread() throws Exception {
    SqliteJobStore store = SqliteJobStore.open(dir, SqliteOptions.defaults());
    SqliteWriter writer = store.writer();
    try (Coordinator coordinator = QuietMoments.coordinator(store)) {
      ManagedChannel channel = QuietMoments.channelTo(coordinator);
      CountDownLatch holding = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      try {
        // Two requests of one stream unanswered at once: the writer thread is held by a write of
        // this test's, so both queue behind it.
        CompletableFuture<Object> held =
            writer.amongOthers(
                () ->
                    writer.submit(
                        "hold",
                        c -> {
                          holding.countDown();
                          try {
                            release.await();
                          } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                          }
                          return null;
                        }));
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
        Stream pipelining = new Stream(channel);
        pipelining.enqueue(1);
        pipelining.enqueue(2);
        await().atMost(Duration.ofSeconds(10)).until(() -> writer.queued() >= 2);
        assertThat(writer.queued()).isEqualTo(2);
        release.countDown();
        held.get(10, TimeUnit.SECONDS);
        pipelining.answer();
        pipelining.answer();

        // A stream with one request at a time: its write runs on the thread that read it.
        long byCallers = writer.committedByCallers();
        QuietMoments.quietMoment();
        Stream oneAtATime = new Stream(channel);
        oneAtATime.enqueue(1);
        oneAtATime.answer();
        assertThat(writer.committedByCallers()).isEqualTo(byCallers + 1);

        // The pipelining stream's lone request, in as quiet a moment: the writer thread's.
        QuietMoments.quietMoment();
        pipelining.enqueue(3);
        pipelining.answer();
        assertThat(writer.committedByCallers()).isEqualTo(byCallers + 1);
        pipelining.requests.onCompleted();
        oneAtATime.requests.onCompleted();
      } finally {
        release.countDown();
        channel.shutdownNow();
        assertThat(channel.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      }
    }
  }
}
