#!/usr/bin/env bash
# How cost grows with worker processes and with payload size, on the real path: for each point a
# fresh SQLite coordinator and `antrean bench end-to-end`, which starts and stops its own real
# worker processes (the runnable worker, --concurrency CONCURRENCY --types bench.noop). The points:
# 1, 2 and 4 worker processes with 100-byte payloads, and payloads of 100 B, 10 KiB and 100 KiB
# with 2 worker processes (the 2-worker, 100 B point is measured once and serves both series).
#
# Per point, one unmeasured end-to-end run warms the coordinator's JIT; then ROUNDS measured runs,
# each bracketed by readings of the coordinator's CPU time (utime + stime from /proc/PID/stat) and
# of the bytes it caused to be written to disk (write_bytes from /proc/PID/io: the WAL, checkpoints
# into the database file, and anything else it writes). Each run's jobs are its N plus the
# min(N, 2000) warm-up jobs the bench runs before its measurement (they go through the same
# coordinator). Per point the script prints one JSON line with the median of the rounds (and every
# round's figures) to stdout and appends it to OUT_DIR/points.jsonl; bench/profile/chart.py reads
# that file.
#
#   bench/profile/cost-growth.sh [OUT_DIR]     env: JOBS (10000), ROUNDS (1), CONCURRENCY (25),
#                                              TIMEOUT (60s, each call's deadline), WAIT (120s),
#                                              WORKER_COUNTS ("1 2 4"), PAYLOADS ("100 10240
#                                              102400"), KEEP (0|1: keep each point's data dir)
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=coordinator.sh
source bench/profile/coordinator.sh
out="${1:-$(mktemp -d /tmp/antrean-growth.XXXXXX)}"
mkdir -p "$out"
jobs="${JOBS:-10000}"
rounds="${ROUNDS:-1}"
concurrency="${CONCURRENCY:-25}"
worker_counts="${WORKER_COUNTS:-1 2 4}"
payloads="${PAYLOADS:-100 10240 102400}"
ticks=$(getconf CLK_TCK)
warm_up=$((jobs < 2000 ? jobs : 2000))
ran=$((jobs + warm_up))
: >"$out/points.jsonl"

cpu_ticks() { # utime + stime of PID $1, in clock ticks
  awk '{ print $14 + $15 }' "/proc/$1/stat"
}

written() { # bytes PID $1 caused to be written to the storage layer
  awk '/^write_bytes:/ { print $2 }' "/proc/$1/io"
}

trap stop_coordinator EXIT

# measure_point WORKERS PAYLOAD_BYTES: one JSON line on stdout and in points.jsonl.
measure_point() {
  local workers=$1 payload=$2
  local dir="$out/w$workers-p$payload"
  rm -rf "$dir"
  mkdir -p "$dir"
  start_coordinator "$dir"
  run() { # one end-to-end run, its JSON into $1
    bin/antrean --coordinator "$target" --timeout "${TIMEOUT:-60s}" bench end-to-end \
      --worker-processes "$workers" --worker-concurrency "$concurrency" \
      --payload-bytes "$payload" --jobs "$jobs" --wait "${WAIT:-120s}" --no-progress --json \
      >"$1" 2>>"$dir/bench.err"
  }
  run "$dir/warm.json"
  local r cpu0 io0 cpu1 io1 rate cpu_us disk
  : >"$dir/rounds.tsv"
  for r in $(seq 1 "$rounds"); do
    cpu0=$(cpu_ticks "$coordinator")
    io0=$(written "$coordinator")
    run "$dir/run-$r.json"
    cpu1=$(cpu_ticks "$coordinator")
    io1=$(written "$coordinator")
    rate=$(jq '.results[0].jobsPerSecond' "$dir/run-$r.json")
    cpu_us=$(echo "scale=1; ($cpu1 - $cpu0) * 1000000 / $ticks / $ran" | bc)
    disk=$(echo "($io1 - $io0) / $ran" | bc)
    printf '%s\t%s\t%s\n' "$rate" "$cpu_us" "$disk" >>"$dir/rounds.tsv"
  done
  local db_bytes
  db_bytes=$(du -sb "$dir/data" | cut -f1)
  stop_coordinator
  [[ "${KEEP:-0}" == 1 ]] || rm -rf "$dir/data"
  local line
  line=$(
    jq -cn \
      --argjson workers "$workers" --argjson payload "$payload" --argjson jobs "$jobs" \
      --argjson ran "$ran" --argjson rounds "$rounds" \
      --argjson rate "$(cut -f1 "$dir/rounds.tsv" | median)" \
      --argjson cpu "$(cut -f2 "$dir/rounds.tsv" | median)" \
      --argjson disk "$(cut -f3 "$dir/rounds.tsv" | median)" \
      --argjson dbBytes "$db_bytes" \
      --arg load "$(cut -d' ' -f1-3 /proc/loadavg)" \
      --arg at "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
      --rawfile all "$dir/rounds.tsv" \
      '{at: $at, workers: $workers, payloadBytes: $payload, jobs: $jobs,
        jobsPerRound: $ran, rounds: $rounds, jobsPerSecond: $rate,
        coordinatorCpuMicrosPerJob: $cpu, diskBytesWrittenPerJob: $disk,
        dataDirBytesAtEnd: $dbBytes, loadAverage: $load,
        perRound: [$all | split("\n")[] | select(length > 0) | split("\t")
          | {jobsPerSecond: (.[0] | tonumber), coordinatorCpuMicrosPerJob: (.[1] | tonumber),
             diskBytesWrittenPerJob: (.[2] | tonumber)}]}'
  )
  echo "$line"
  echo "$line" >>"$out/points.jsonl"
}

for workers in $worker_counts; do
  measure_point "$workers" 100
done
for payload in $payloads; do
  # The 2-worker point at 100 B belongs to both series; measure it once.
  if [[ "$payload" == 100 && " $worker_counts " == *" 2 "* ]]; then
    continue
  fi
  measure_point 2 "$payload"
done
echo "points in $out/points.jsonl" >&2
