#!/usr/bin/env python3
"""How long the disk takes to make one small write durable, as a durable queue pays it per commit.

Writes 4 KiB at a fixed offset of a 1 MiB file in DIR (default: the system's temporary directory)
and times fsync and fdatasync after each write, ROUNDS times each (default 400), then prints the
median and the 90th percentile of each in milliseconds. A SQLite commit in WAL mode with
synchronous=FULL ends in one fsync of the WAL, and Redis with appendfsync always in one fdatasync
of its append-only file, so a one-call-in-flight Enqueue cannot answer faster than these on the
same disk at the same time; run it next to a side-by-side run to read the figures against the disk.

    python3 bench/profile/disk-sync.py [DIR] [ROUNDS]
"""

import os
import sys
import tempfile
import time

BLOCK = b"x" * 4096


def timed(fd, sync, rounds):
    samples = []
    for _ in range(rounds):
        os.pwrite(fd, BLOCK, 0)
        start = time.perf_counter()
        sync(fd)
        samples.append(time.perf_counter() - start)
    samples.sort()
    return samples[len(samples) // 2] * 1e3, samples[int(len(samples) * 0.9)] * 1e3


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else tempfile.gettempdir()
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    fd, path = tempfile.mkstemp(prefix="disk-sync-", dir=directory)
    try:
        os.pwrite(fd, b"\0" * (1 << 20), 0)
        os.fsync(fd)
        for name, sync in (("fsync", os.fsync), ("fdatasync", os.fdatasync)):
            p50, p90 = timed(fd, sync, rounds)
            print(f"{name}: p50 {p50:.3f} ms, p90 {p90:.3f} ms ({rounds} writes of 4 KiB, {directory})")
    finally:
        os.close(fd)
        os.unlink(path)


if __name__ == "__main__":
    main()
