/**
 * The Java client of Antrean: {@link io.antrean.client.AntreanClient} and its gRPC implementation
 * {@link io.antrean.client.GrpcAntreanClient}, the {@link io.antrean.client.JobSpec} builder, the
 * dead-letter queue's operator view {@link io.antrean.client.DeadLetters} with {@link
 * io.antrean.client.DeadLetterSelection}, and the unchecked exceptions every failed call is
 * translated into ({@link io.antrean.client.AntreanException} and its subclasses). Request and
 * response types are the generated {@code io.antrean.proto.v1} messages.
 */
package io.antrean.client;
