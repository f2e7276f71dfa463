package io.grpc.antreanprobe;

/**
 * Code in the transport's packages, as {@code io.antrean.it.CompilerProbe} calls it: a test class
 * placed under {@code io/grpc} so that the compiler files' patterns for gRPC match it.
 */
public final class TransportWork {
  private TransportWork() {}

  /** A loop hot enough for C2. */
  public static long work(int seed) {
    long acc = seed;
    for (int i = 0; i < 200; i++) {
      acc = acc * 13 + (i ^ seed);
    }
    return acc;
  }
}
