package io.antrean.it;

import com.example.handlers.ProbeWork;
import io.grpc.antreanprobe.TransportWork;

/**
 * Run in a JVM of its own by {@link CompilerFilesIT}: a loop in Antrean's own packages ({@link
 * #ownWork}), one in the transport's ({@link TransportWork#work}) and one in a user's handler's
 * ({@link ProbeWork#work}), each called often enough to be compiled by C2 where allowed.
 */
final class CompilerProbe {
  private static final int ROUNDS = 20_000;

  private CompilerProbe() {}

  public static void main(String[] args) {
    long sum = 0;
    for (int round = 0; round < ROUNDS; round++) {
      sum += ownWork(round);
      sum += TransportWork.work(round);
      sum += ProbeWork.work(round);
    }
    System.out.println("sum " + sum);
  }

  static long ownWork(int seed) {
    long acc = seed;
    for (int i = 0; i < 200; i++) {
      acc = acc * 31 + (i ^ seed);
    }
    return acc;
  }
}
