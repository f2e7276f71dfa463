package io.antrean.coordinator.grpc;

import io.grpc.Attributes;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.SecurityLevel;
import io.grpc.ServerCall;
import io.grpc.Status;
import java.io.InputStream;
import javax.annotation.Nullable;

/**
 * A call received as raw request bytes, shown to a service's handler as the typed call it expects:
 * everything is passed through to the wire call, and the method descriptor is the service's own.
 * The requests themselves are parsed by {@link UnparseableRequests}. Not thread-safe beyond what
 * {@link ServerCall} promises.
 */
final class ParsedRequestCall<ReqT, RespT> extends ServerCall<ReqT, RespT> {
  private final ServerCall<InputStream, RespT> wire;
  private final MethodDescriptor<ReqT, RespT> method;

  ParsedRequestCall(ServerCall<InputStream, RespT> wire, MethodDescriptor<ReqT, RespT> method) {
    this.wire = wire;
    this.method = method;
  }

  @Override
  public void request(int numMessages) {
    wire.request(numMessages);
  }

  @Override
  public void sendHeaders(Metadata headers) {
    wire.sendHeaders(headers);
  }

  @Override
  public void sendMessage(RespT message) {
    wire.sendMessage(message);
  }

  @Override
  public boolean isReady() {
    return wire.isReady();
  }

  @Override
  public void close(Status status, Metadata trailers) {
    wire.close(status, trailers);
  }

  @Override
  public boolean isCancelled() {
    return wire.isCancelled();
  }

  @Override
  public void setMessageCompression(boolean enabled) {
    wire.setMessageCompression(enabled);
  }

  @Override
  public void setCompression(String compressor) {
    wire.setCompression(compressor);
  }

  @Override
  public void setOnReadyThreshold(int numBytes) {
    wire.setOnReadyThreshold(numBytes);
  }

  @Override
  public SecurityLevel getSecurityLevel() {
    return wire.getSecurityLevel();
  }

  @Override
  public Attributes getAttributes() {
    return wire.getAttributes();
  }

  @Nullable
  @Override
  public String getAuthority() {
    return wire.getAuthority();
  }

  @Override
  public MethodDescriptor<ReqT, RespT> getMethodDescriptor() {
    return method;
  }
}
