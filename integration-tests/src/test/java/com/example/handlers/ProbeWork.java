package com.example.handlers;

/** A user's handler code, as {@code io.antrean.it.CompilerProbe} calls it. */
public final class ProbeWork {
  private ProbeWork() {}

  /** A loop hot enough for C2. */
  public static long work(int seed) {
    long acc = seed;
    for (int i = 0; i < 200; i++) {
      acc = acc * 17 + (i ^ seed);
    }
    return acc;
  }
}
