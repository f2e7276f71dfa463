#!/usr/bin/env bash
# What a backlog of pending jobs costs a SQLite coordinator: for each BACKLOGS size (0, 1M, 10M
# pending jobs in one queue) its heap, its restart time and its Lease latency, the last against an
# empty queue in the same run.
#
# Per backlog N:
#   1. Fill: a coordinator on a fresh data directory, then `antrean bench batch --queue backlog
#      --jobs N` (EnqueueBatch calls of 1,000 jobs, one in flight: the rows a real enqueue writes;
#      a queue named with --queue is never drained). The coordinator is stopped with SIGTERM.
#      With FILLED=DIR a filled data directory is kept as DIR/backlog-N and copied from there on
#      later runs instead of filling again (10M jobs take tens of minutes on two cores).
#   2. Restart: the coordinator (heap capped by HEAP, -Xmx512m) is started once unmeasured (it runs
#      any migration a newer build brings), then RESTARTS times measured: from launching the JVM to
#      its --ready-file appearing (the gRPC server listens) and to GET /readyz answering 200 (the
#      store answered a read), polled every 10 ms. Each measured start with bin/antrean's class
#      archive follows one without it (ANTREAN_CDS=0), for a same-run comparison. The last start
#      stays up.
#   3. Lease: PAIRS pairs of `antrean bench lease --jobs LEASE_ROUNDS`, alternating: on a fresh
#      queue (each round enqueues one job, then times a Lease of one job and completes it) and on
#      the queue `backlog` (the same, so the Lease takes the head of the backlog through the
#      jobs_pending index: its jobs are due). Medians of the runs' p50 and p99.
#   4. Heap: `jcmd PID GC.run`, then the used heap from `jcmd PID GC.heap_info`, after the lease
#      runs.
# One JSON line per backlog goes to stdout and to OUT_DIR/backlog.jsonl (bench/profile/chart.py
# reads it).
#
#   bench/profile/backlog.sh [OUT_DIR]     env: BACKLOGS ("0 1000000 10000000"), FILLED (a directory
#                                          of filled data directories to reuse), HEAP (-Xmx512m),
#                                          RESTARTS (3), PAIRS (3), LEASE_ROUNDS (2000),
#                                          TIMEOUT (120s, each call's deadline)
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=coordinator.sh
source bench/profile/coordinator.sh
out="${1:-$(mktemp -d /tmp/antrean-backlog.XXXXXX)}"
mkdir -p "$out"
backlogs="${BACKLOGS:-0 1000000 10000000}"
heap="${HEAP:--Xmx512m}"
restarts="${RESTARTS:-3}"
pairs="${PAIRS:-3}"
lease_rounds="${LEASE_ROUNDS:-2000}"
timeout="${TIMEOUT:-120s}"
queue=backlog
: >"$out/backlog.jsonl"

now_ms() { date +%s%3N; }

trap stop_coordinator EXIT

# start_timed DATA_DIR RUN_DIR: starts the coordinator in the background on DATA_DIR with the heap
# cap, timed; sets coordinator, target, ready_ms (launch to ready file) and readyz_ms (launch to
# /readyz 200).
start_timed() {
  local data=$1 dir=$2
  rm -f "$dir/port" "$dir/http-port"
  local launched
  launched=$(now_ms)
  ANTREAN_JAVA_OPTS="$heap" bin/antrean coordinator --data-dir "$data" --grpc-port 0 --http-port 0 \
    --http-port-file "$dir/http-port" --ready-file "$dir/port" >>"$dir/coordinator.log" 2>&1 &
  coordinator=$!
  ready_ms=""
  readyz_ms=""
  for _ in $(seq 1 30000); do
    if [[ -z "$ready_ms" && -s "$dir/port" ]]; then
      ready_ms=$(($(now_ms) - launched))
    fi
    if [[ -s "$dir/http-port" ]] &&
      curl -sf -o /dev/null --max-time 1 "http://127.0.0.1:$(cat "$dir/http-port")/readyz"; then
      readyz_ms=$(($(now_ms) - launched))
    fi
    [[ -n "$ready_ms" && -n "$readyz_ms" ]] && break
    kill -0 "$coordinator" 2>/dev/null || {
      tail -20 "$dir/coordinator.log" >&2
      exit 1
    }
    sleep 0.01
  done
  [[ -n "$ready_ms" && -n "$readyz_ms" ]] || {
    echo "backlog: the coordinator did not get ready" >&2
    exit 1
  }
  target="127.0.0.1:$(cat "$dir/port")"
}

bench() {
  bin/antrean --coordinator "$target" --timeout "$timeout" bench "$@" --no-progress --json
}

# heap_used_bytes PID: the used heap after a full collection: the sum of every generation's "used"
# (the parallel collector reports its young and old generations on lines of their own, G1 one
# line for its whole heap; metaspace, which has no "total", is not heap).
heap_used_bytes() {
  jcmd "$1" GC.run >/dev/null
  jcmd "$1" GC.heap_info | awk '/ total [0-9]+[KMG], used / {
      for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); sub(/,$/, "", v); break }
      n = v + 0; if (v ~ /K$/) n *= 1024; else if (v ~ /M$/) n *= 1048576; else if (v ~ /G$/) n *= 1073741824
      sum += n }
    END { print sum + 0 }'
}

for n in $backlogs; do
  dir="$out/backlog-$n"
  rm -rf "$dir"
  mkdir -p "$dir"
  fill_json=null
  if [[ -n "${FILLED:-}" && -f "${FILLED}/backlog-$n/filled" ]]; then
    cp -a "${FILLED}/backlog-$n/data" "$dir/data"
    fill_json=$(cat "${FILLED}/backlog-$n/filled")
  else
    start_timed "$dir/data" "$dir"
    if [[ "$n" -gt 0 ]]; then
      bench batch --queue "$queue" --jobs "$n" >"$dir/fill.json"
      fill_json=$(jq -c '.results[0] | {seconds, jobsPerSecond}' "$dir/fill.json")
    fi
    stop_coordinator
    if [[ -n "${FILLED:-}" ]]; then
      mkdir -p "$FILLED/backlog-$n"
      rm -rf "$FILLED/backlog-$n/data"
      cp -a "$dir/data" "$FILLED/backlog-$n/data"
      echo "$fill_json" >"$FILLED/backlog-$n/filled"
    fi
  fi
  data_bytes=$(du -sb "$dir/data" | cut -f1)
  # Unmeasured: a newer build's migrations run here.
  start_timed "$dir/data" "$dir"
  stop_coordinator
  : >"$dir/restarts.tsv"
  : >"$dir/restarts-no-cds.tsv"
  for r in $(seq 1 "$restarts"); do
    # Alternating: without the launcher's class archive, then with it (the last start stays up).
    ANTREAN_CDS=0 start_timed "$dir/data" "$dir"
    printf '%s\t%s\n' "$ready_ms" "$readyz_ms" >>"$dir/restarts-no-cds.tsv"
    stop_coordinator
    start_timed "$dir/data" "$dir"
    printf '%s\t%s\n' "$ready_ms" "$readyz_ms" >>"$dir/restarts.tsv"
    [[ "$r" == "$restarts" ]] || stop_coordinator
  done
  heap_at_start=$(heap_used_bytes "$coordinator")
  : >"$dir/lease.tsv"
  for p in $(seq 1 "$pairs"); do
    bench lease --jobs "$lease_rounds" >"$dir/lease-empty-$p.json"
    bench lease --queue "$queue" --jobs "$lease_rounds" >"$dir/lease-backlog-$p.json"
    printf '%s\t%s\t%s\t%s\n' \
      "$(jq '.results[0].latency.p50Ms' "$dir/lease-empty-$p.json")" \
      "$(jq '.results[0].latency.p99Ms' "$dir/lease-empty-$p.json")" \
      "$(jq '.results[0].latency.p50Ms' "$dir/lease-backlog-$p.json")" \
      "$(jq '.results[0].latency.p99Ms' "$dir/lease-backlog-$p.json")" >>"$dir/lease.tsv"
  done
  heap_after=$(heap_used_bytes "$coordinator")
  stop_coordinator
  rm -rf "$dir/data"
  col() { cut -f"$1" "$2" | median; }
  empty_p99=$(col 2 "$dir/lease.tsv")
  backlog_p99=$(col 4 "$dir/lease.tsv")
  line=$(
    jq -cn \
      --argjson backlog "$n" --argjson fill "$fill_json" --argjson dataBytes "$data_bytes" \
      --argjson readyMs "$(col 1 "$dir/restarts.tsv")" \
      --argjson readyzMs "$(col 2 "$dir/restarts.tsv")" \
      --rawfile restarts "$dir/restarts.tsv" \
      --argjson noCdsReadyzMs "$(col 2 "$dir/restarts-no-cds.tsv")" \
      --rawfile restartsNoCds "$dir/restarts-no-cds.tsv" \
      --argjson heapStart "$heap_at_start" --argjson heapAfter "$heap_after" \
      --argjson emptyP50 "$(col 1 "$dir/lease.tsv")" --argjson emptyP99 "$empty_p99" \
      --argjson backlogP50 "$(col 3 "$dir/lease.tsv")" --argjson backlogP99 "$backlog_p99" \
      --rawfile leases "$dir/lease.tsv" \
      --arg heap "$heap" --arg load "$(cut -d' ' -f1-3 /proc/loadavg)" \
      --arg at "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
      '{at: $at, backlog: $backlog, fill: $fill, dataDirBytes: $dataBytes, heapOption: $heap,
        restartToReadyFileMs: $readyMs, restartToReadyzMs: $readyzMs,
        restarts: [$restarts | split("\n")[] | select(length > 0) | split("\t")
          | {readyFileMs: (.[0] | tonumber), readyzMs: (.[1] | tonumber)}],
        restartWithoutClassArchiveToReadyzMs: $noCdsReadyzMs,
        restartsWithoutClassArchive: [$restartsNoCds | split("\n")[] | select(length > 0)
          | split("\t") | {readyFileMs: (.[0] | tonumber), readyzMs: (.[1] | tonumber)}],
        heapUsedAfterFullGcAtStartBytes: $heapStart,
        heapUsedAfterFullGcAfterLeasesBytes: $heapAfter,
        leaseEmptyP50Ms: $emptyP50, leaseEmptyP99Ms: $emptyP99,
        leaseBacklogP50Ms: $backlogP50, leaseBacklogP99Ms: $backlogP99,
        leaseP99Ratio: (if $emptyP99 > 0 then ($backlogP99 / $emptyP99 * 100 | round) / 100
          else null end),
        leaseRuns: [$leases | split("\n")[] | select(length > 0) | split("\t")
          | {emptyP50Ms: (.[0] | tonumber), emptyP99Ms: (.[1] | tonumber),
             backlogP50Ms: (.[2] | tonumber), backlogP99Ms: (.[3] | tonumber)}],
        loadAverage: $load}'
  )
  echo "$line"
  echo "$line" >>"$out/backlog.jsonl"
done
echo "results in $out/backlog.jsonl" >&2
