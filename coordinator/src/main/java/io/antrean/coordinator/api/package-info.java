/**
 * The coordinator's API without a transport, between {@code grpc}/{@code http} and {@code core}:
 * request messages mapped to domain commands and back ({@link
 * io.antrean.coordinator.api.JobMapper}), the calls of each service ({@link
 * io.antrean.coordinator.api.JobServiceCalls}, {@link
 * io.antrean.coordinator.api.AdminServiceCalls}), page tokens, the caller's identity, and the one
 * error classification ({@link io.antrean.coordinator.api.ApiError}) that each transport maps once
 * to its own codes. It imports protobuf messages and the call-scoped {@code io.grpc.Context}, never
 * a transport.
 */
package io.antrean.coordinator.api;
