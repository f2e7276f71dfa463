package io.antrean.coordinator.grpc;

import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a request whose bytes are not the method's message {@code INVALID_ARGUMENT}, and counts
 * it in a {@link ThrottledWarning} instead of logging a stack trace per request.
 *
 * <p>Left to gRPC, a marshaller's parse failure escapes the call's listener: the client gets {@code
 * UNKNOWN} and the server logs a SEVERE stack trace for every such request. {@link #guard}
 * therefore serves each method with raw bytes on the wire and parses them itself, before the
 * service's handler sees them. Thread-safe.
 */
final class UnparseableRequests {
  private static final Logger log = LoggerFactory.getLogger(UnparseableRequests.class);
  static final Duration REPORT_INTERVAL = Duration.ofMinutes(1);

  private static final MethodDescriptor.Marshaller<InputStream> RAW =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(InputStream value) {
          return value;
        }

        @Override
        public InputStream parse(InputStream stream) {
          return stream;
        }
      };

  private final ThrottledWarning warning;

  UnparseableRequests(LongSupplier nanoTime) {
    this.warning =
        new ThrottledWarning("unparseable gRPC requests", REPORT_INTERVAL, nanoTime, log::warn);
  }

  /** Requests rejected as unparseable so far. */
  long total() {
    return warning.total();
  }

  /** The service with every method's requests parsed by this guard. */
  ServerServiceDefinition guard(ServerServiceDefinition service) {
    ServiceDescriptor original = service.getServiceDescriptor();
    // The schema descriptor stays, so server reflection still describes the service.
    ServiceDescriptor.Builder descriptor =
        ServiceDescriptor.newBuilder(original.getName())
            .setSchemaDescriptor(original.getSchemaDescriptor());
    List<ServerMethodDefinition<InputStream, ?>> methods = new ArrayList<>();
    for (ServerMethodDefinition<?, ?> method : service.getMethods()) {
      ServerMethodDefinition<InputStream, ?> guarded = guard(method);
      descriptor.addMethod(guarded.getMethodDescriptor());
      methods.add(guarded);
    }
    ServerServiceDefinition.Builder b = ServerServiceDefinition.builder(descriptor.build());
    methods.forEach(b::addMethod);
    return b.build();
  }

  private <ReqT, RespT> ServerMethodDefinition<InputStream, RespT> guard(
      ServerMethodDefinition<ReqT, RespT> definition) {
    MethodDescriptor<ReqT, RespT> typed = definition.getMethodDescriptor();
    MethodDescriptor<InputStream, RespT> wire =
        typed.toBuilder(RAW, typed.getResponseMarshaller()).build();
    ServerCallHandler<ReqT, RespT> handler = definition.getServerCallHandler();
    return ServerMethodDefinition.create(
        wire,
        (call, headers) -> {
          ServerCall<ReqT, RespT> typedCall = new ParsedRequestCall<>(call, typed);
          return new Listener<>(typedCall, handler.startCall(typedCall, headers));
        });
  }

  /** Parses each request; on the first that fails, closes the call and passes nothing more on. */
  private final class Listener<ReqT, RespT> extends ServerCall.Listener<InputStream> {
    private final ServerCall<ReqT, RespT> call;
    private final ServerCall.Listener<ReqT> next;
    private boolean rejected;

    Listener(ServerCall<ReqT, RespT> call, ServerCall.Listener<ReqT> next) {
      this.call = call;
      this.next = next;
    }

    @Override
    public void onMessage(InputStream bytes) {
      if (rejected) {
        close(bytes);
        return;
      }
      MethodDescriptor<ReqT, RespT> method = call.getMethodDescriptor();
      ReqT request;
      try {
        request = method.parseRequest(bytes);
      } catch (RuntimeException e) {
        rejected = true;
        String type = method.getFullMethodName();
        warning.record(type + ": " + Status.fromThrowable(e).getDescription());
        call.close(
            Status.INVALID_ARGUMENT.withDescription(
                "the request is not a valid protobuf message for " + type),
            new Metadata());
        return;
      } finally {
        close(bytes);
      }
      next.onMessage(request);
    }

    @Override
    public void onHalfClose() {
      if (!rejected) {
        next.onHalfClose();
      }
    }

    @Override
    public void onCancel() {
      next.onCancel();
    }

    @Override
    public void onComplete() {
      next.onComplete();
    }

    @Override
    public void onReady() {
      if (!rejected) {
        next.onReady();
      }
    }
  }

  private static void close(InputStream bytes) {
    try {
      bytes.close();
    } catch (IOException e) {
      // A message buffer that cannot be released has nothing left to tell.
    }
  }
}
