package io.antrean.channel;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.MethodDescriptor;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** A one-method test protocol: the request is ignored and the answer is the server's name. */
final class Echo {
  static final String SERVICE = "antrean.test.Echo";

  static final MethodDescriptor<String, String> CALL =
      MethodDescriptor.<String, String>newBuilder()
          .setType(MethodDescriptor.MethodType.UNARY)
          .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "Call"))
          .setRequestMarshaller(new Utf8())
          .setResponseMarshaller(new Utf8())
          .build();

  private Echo() {}

  /** Makes one call with a 5 s deadline and returns the name of the server that answered. */
  static String call(Channel channel) {
    return ClientCalls.blockingUnaryCall(
        channel, CALL, CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS), "ping");
  }

  private static final class Utf8 implements MethodDescriptor.Marshaller<String> {
    @Override
    public InputStream stream(String value) {
      return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String parse(InputStream stream) {
      try (stream) {
        return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
