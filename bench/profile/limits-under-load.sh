#!/usr/bin/env bash
# Concurrency limits under the end-to-end load of issue H: one fresh SQLite coordinator, two worker
# processes (bin/antrean worker --concurrency 25 --types bench.noop), and `antrean bench end-to-end`
# on their queue, alternating rounds without a limit and with `queue limit --max-running MAX`
# (below the 50 worker slots, so the limit binds). For every round it prints jobs/s and the most
# jobs of the queue RUNNING at once in the store's committed state, sampled as fast as a sqlite3
# process can read it, which must never pass MAX in a limited round.
#
#   bench/profile/limits-under-load.sh [OUT_DIR]    env: JOBS (20000), ROUNDS (2), MAX (30)
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=coordinator.sh
source bench/profile/coordinator.sh
out="${1:-$(mktemp -d /tmp/antrean-limits.XXXXXX)}"
mkdir -p "$out"
jobs="${JOBS:-20000}"
rounds="${ROUNDS:-2}"
max="${MAX:-30}"
queue=bench-real
db="$out/data/antrean.db"

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

start_coordinator "$out"
pids+=("$coordinator")
for i in 1 2; do
  bin/antrean worker --coordinator "$target" --queue "$queue" --concurrency 25 --types bench.noop \
    --worker-id "limits-worker-$i" >"$out/worker-$i.log" 2>&1 &
  pids+=("$!")
done

# Samples the queue's RUNNING count from committed snapshots (a read-only connection in WAL mode
# sees each commit whole) until the file $1 exists; prints the largest count seen and the samples.
# The attempts' timestamps cannot tell: each is the `now` its call read before the writer ran it,
# so two leases and ends that the writer ordered correctly may carry times a few ms apart the
# other way round.
sample_running() {
  local most=0 samples=0 n
  while [[ ! -e "$1" ]]; do
    n=$(sqlite3 "file:$db?mode=ro" "SELECT count(*) FROM jobs WHERE queue = '$queue' AND state = 'RUNNING'" 2>/dev/null || echo 0)
    ((n > most)) && most=$n
    samples=$((samples + 1))
  done
  echo "$most in $samples samples"
}

run() { # label
  local rate done_file="$out/done-$RANDOM"
  sample_running "$done_file" >"$out/sampled" &
  local sampler=$!
  rate=$(bin/antrean --coordinator "$target" --timeout 120s bench end-to-end --queue "$queue" \
    --jobs "$jobs" --no-progress --json | grep -o '"jobsPerSecond": [0-9.]*' | awk '{ print $2 }')
  touch "$done_file"
  wait "$sampler"
  echo "$1: $rate jobs/s, most RUNNING at once: $(cat "$out/sampled")"
}

for r in $(seq 1 "$rounds"); do
  bin/antrean --coordinator "$target" queue limit "$queue" --clear >/dev/null
  run "round $r, no limit          "
  bin/antrean --coordinator "$target" queue limit "$queue" --max-running "$max" >/dev/null
  run "round $r, --max-running $max"
done
echo "output in $out"
