package io.antrean.worker;

import com.example.handlers.ProbeWork;

/**
 * Run in a JVM of its own by {@link WorkerCompilerFilesTest}: a loop in a package of the worker
 * ({@link #libraryWork}) and one in a package of a user's handler ({@link ProbeWork#work}), each
 * called until both have run long enough to be compiled by C2 where allowed (at most three
 * seconds).
 */
final class CompilerProbe {
  private static final int ROUNDS = 20_000;
  private static final long MOST_NANOS = 3_000_000_000L;

  private CompilerProbe() {}

  public static void main(String[] args) {
    long end = System.nanoTime() + MOST_NANOS;
    long sum = 0;
    for (int round = 0; round < ROUNDS && System.nanoTime() < end; round++) {
      sum += libraryWork(round);
      sum += ProbeWork.work(round);
    }
    System.out.println("sum " + sum);
  }

  static long libraryWork(int seed) {
    long acc = seed;
    for (int i = 0; i < 200; i++) {
      acc = acc * 31 + (i ^ seed);
    }
    return acc;
  }
}
