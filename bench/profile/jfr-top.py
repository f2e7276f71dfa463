#!/usr/bin/env python3
"""Where a JVM spent its CPU, from the execution samples of a JFR recording.

    jfr-top.py RECORDING.jfr [TOP]

Prints the share of samples per thread (pool numbers dropped), per top frame (self time), and per
io.antrean method anywhere on the stack (inclusive time), from `jfr print --events
jdk.ExecutionSample`. Execution samples see Java code only: time in native code and in the kernel
(fsync, socket writes, futex waits) is not in them, so read the shares next to /proc CPU times.
"""
import collections
import re
import subprocess
import sys


def samples(path):
    text = subprocess.run(
        ["jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", "64", path],
        check=True, capture_output=True, text=True).stdout
    for block in text.split("jdk.ExecutionSample {")[1:]:
        thread = re.search(r'sampledThread = "([^"]*)"', block)
        frames = re.findall(r"^\s+([\w$.<>]+)\(.*\)\s+line:", block, re.M)
        if frames:
            yield (thread.group(1) if thread else "?"), frames


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    threads, self_frames, antrean = (collections.Counter() for _ in range(3))
    total = 0
    for thread, frames in samples(path):
        total += 1
        threads[re.sub(r"-\d+$", "", thread)] += 1
        self_frames[frames[0]] += 1
        for method in {f for f in frames if f.startswith("io.antrean.")}:
            antrean[method] += 1
    if not total:
        print("  no execution samples")
        return
    print(f"  {total} execution samples")
    for title, counter in (("threads", threads), ("self (top frame)", self_frames),
                           ("io.antrean methods (inclusive)", antrean)):
        print(f"  -- {title}")
        for name, count in counter.most_common(top):
            print(f"  {100.0 * count / total:5.1f}%  {name}")


if __name__ == "__main__":
    main()
