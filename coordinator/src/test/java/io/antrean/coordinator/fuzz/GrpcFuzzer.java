package io.antrean.coordinator.fuzz;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import io.grpc.protobuf.ProtoMethodDescriptorSupplier;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Sends raw request bytes to every method of the given services over a real channel, a bounded
 * number at a time, and keeps every answer that is a server fault (INTERNAL, UNKNOWN, DATA_LOSS,
 * UNIMPLEMENTED) with the method and the bytes that caused it.
 */
final class GrpcFuzzer {
  static final MethodDescriptor.Marshaller<byte[]> BYTES =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };

  private static final int MAX_MESSAGE_BYTES = 6 << 20;
  private static final int CONCURRENCY = 32;

  /** A method as raw bytes, with its request type. */
  record Target(MethodDescriptor<byte[], byte[]> method, Descriptor requestType) {}

  private final ManagedChannel channel;
  private final Random random;
  private final RandomMessages messages;
  private final Semaphore inFlight = new Semaphore(CONCURRENCY);
  private final List<String> faults = new ArrayList<>();
  private int sent;

  GrpcFuzzer(ManagedChannel channel, Random random) {
    this.channel = channel;
    this.random = random;
    this.messages = new RandomMessages(random);
  }

  static List<Target> targets(ServiceDescriptor... services) {
    List<Target> out = new ArrayList<>();
    for (ServiceDescriptor service : services) {
      for (MethodDescriptor<?, ?> m : service.getMethods()) {
        Descriptor input =
            ((ProtoMethodDescriptorSupplier) m.getSchemaDescriptor())
                .getMethodDescriptor()
                .getInputType();
        out.add(new Target(m.toBuilder(BYTES, BYTES).build(), input));
      }
    }
    return out;
  }

  /** Sends {@code count} requests spread over the targets; returns when all are answered. */
  void run(List<Target> targets, int count) throws InterruptedException {
    for (int i = 0; i < count; i++) {
      Target t = targets.get(random.nextInt(targets.size()));
      send(t, requestBytes(t.requestType()));
    }
    drain();
  }

  /** Bytes of one hostile request of the type. */
  byte[] requestBytes(Descriptor type) {
    DynamicMessage message = messages.message(type);
    byte[] encoded = message.toByteArray();
    if (encoded.length > MAX_MESSAGE_BYTES) {
      encoded = DynamicMessage.getDefaultInstance(type).toByteArray();
    }
    return switch (random.nextInt(20)) {
      case 0, 1, 2, 3 -> messages.mutate(encoded);
      case 4, 5 -> messages.withInvalidUtf8(type, encoded);
      case 6 -> messages.bytes();
      default -> encoded;
    };
  }

  /** Sends one request and records a fault answer; blocks while too many are in flight. */
  void send(Target target, byte[] request) throws InterruptedException {
    inFlight.acquire();
    synchronized (this) {
      sent++;
    }
    // Lease and WatchJob may wait by design; their hostile part is answered at once, so a short
    // deadline keeps the run fast without hiding a fault.
    String name = target.method().getBareMethodName();
    long deadlineMillis = name.equals("Lease") || name.equals("WatchJob") ? 250 : 5_000;
    ClientCall<byte[], byte[]> call =
        channel.newCall(
            target.method(),
            CallOptions.DEFAULT.withDeadlineAfter(deadlineMillis, TimeUnit.MILLISECONDS));
    call.start(
        new ClientCall.Listener<>() {
          @Override
          public void onClose(Status status, Metadata trailers) {
            try {
              if (isFault(status)) {
                record(target, request, status);
              }
            } finally {
              inFlight.release();
            }
          }
        },
        new Metadata());
    call.request(100);
    call.sendMessage(request);
    call.halfClose();
  }

  private static boolean isFault(Status status) {
    return switch (status.getCode()) {
      case INTERNAL, UNKNOWN, DATA_LOSS, UNIMPLEMENTED -> true;
      default -> false;
    };
  }

  private synchronized void record(Target target, byte[] request, Status status) {
    if (faults.size() < 20) {
      byte[] head = java.util.Arrays.copyOf(request, Math.min(request.length, 200));
      faults.add(
          target.method().getFullMethodName()
              + " -> "
              + status
              + " for "
              + request.length
              + " bytes starting "
              + HexFormat.of().formatHex(head));
    } else {
      faults.add(target.method().getFullMethodName() + " -> " + status.getCode());
    }
  }

  /** Waits until every request sent so far was answered. */
  void drain() throws InterruptedException {
    inFlight.acquire(CONCURRENCY);
    inFlight.release(CONCURRENCY);
  }

  synchronized List<String> faults() {
    return List.copyOf(faults);
  }

  synchronized int sent() {
    return sent;
  }
}
