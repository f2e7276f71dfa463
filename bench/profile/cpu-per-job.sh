#!/usr/bin/env bash
# CPU per job on the real path, and where it goes: a fresh SQLite coordinator, two worker processes
# (bin/antrean worker --concurrency 25 --types bench.noop) and `antrean bench end-to-end` against
# them. One unmeasured run warms every JVM; then CPU time (utime + stime from /proc/PID/stat) of the
# coordinator and of each worker is read before and after ROUNDS measured runs, and divided by the
# jobs those runs ran (each end-to-end runs min(N, 2000) warm-up jobs before its N). With PROFILE=1
# the three JVMs record JFR (jcmd JFR.start, profile settings) during the measured runs only, and
# jfr-top.py prints where each spent its CPU.
#
#   bench/profile/cpu-per-job.sh [OUT_DIR]     env: JOBS (20000), ROUNDS (1), PROFILE (0|1),
#                                              CONCURRENCY (25), WORKERS (2), TIMEOUT (60s),
#                                              WORKER_JAR (a runnable worker jar to run instead of
#                                              this checkout's, for before/after pairs),
#                                              JFR_SETTINGS (a .jfc file; default: profile),
#                                              RATE (measure `bench latency` at RATE jobs/s for
#                                              DURATION, 20s, against the same warm workers instead
#                                              of end-to-end: CPU per job at a fixed rate, so batch
#                                              sizes do not follow the machine's speed, and the
#                                              enqueue-to-handler-start latency of warm workers),
#                                              ASYNC_PROFILER (path of async-profiler's
#                                              libasyncProfiler.so: the coordinator is profiled
#                                              from its start, warm-up included, native frames
#                                              too, into coordinator.collapsed when it stops;
#                                              the first worker likewise into worker-1.collapsed),
#                                              WORKER_JAVA_OPTS (JVM options of the workers only),
#                                              WORKER_ARGS (options of their command lines),
#                                              COORDINATOR_JAVA_OPTS (of the coordinator only),
#                                              COORDINATOR_ARGS (options of its command line).
# Also prints the Lease and CompleteBatch calls per job of the measured runs (from /metrics).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=coordinator.sh
source bench/profile/coordinator.sh
out="${1:-$(mktemp -d /tmp/antrean-cpu.XXXXXX)}"
mkdir -p "$out"
jobs="${JOBS:-20000}"
rounds="${ROUNDS:-1}"
concurrency="${CONCURRENCY:-25}"
workers="${WORKERS:-2}"
rate="${RATE:-}"
duration="${DURATION:-20s}"
ticks=$(getconf CLK_TCK)

cpu_ticks() { # utime + stime of PID $1, in clock ticks
  awk '{ print $14 + $15 }' "/proc/$1/stat"
}

switches() { # voluntary and involuntary context switches of all threads of PID $1
  cat /proc/"$1"/task/*/status 2>/dev/null |
    awk '/^voluntary_ctxt_switches/ { v += $2 } /^nonvoluntary_ctxt_switches/ { n += $2 } END { print v, n }'
}

thread_ticks() { # "name ticks" per thread of PID $1 (pool numbers dropped, summed)
  for task in /proc/"$1"/task/*; do
    # comm is field 2 in parentheses and may hold spaces; utime and stime follow the state.
    sed -E 's/^[0-9]+ \((.*)\) [A-Za-z] (.*)$/\1|\2/' "$task/stat" 2>/dev/null |
      awk -F'|' '{ split($2, f, " "); name = $1; gsub(/[-#]?[0-9]+$/, "", name); print name "|" f[11] + f[12] }' ||
      true # a thread that ended since the glob
  done | awk -F'|' '{ t[$1] += $2 } END { for (n in t) print n "|" t[n] }' | sort
}

worker_calls() { # Lease and CompleteBatch calls the coordinator has answered so far, from /metrics
  local port
  port=$(sed -n 's/.*HttpApiServer - HTTP API.* listening on [0-9.]*:\([0-9]*\) .*/\1/p' "$out/coordinator.log" | head -1)
  curl -s "http://127.0.0.1:$port/metrics" |
    awk '/^antrean_rpc_duration_seconds_count/ && /WorkerService\/(Lease|CompleteBatch)"/ { s += $2 } END { print s + 0 }'
}

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

coordinator_opts="${ANTREAN_JAVA_OPTS:-} ${COORDINATOR_JAVA_OPTS:-}"
if [[ -n "${ASYNC_PROFILER:-}" ]]; then
  coordinator_opts+=" -agentpath:$ASYNC_PROFILER=start,event=itimer,interval=1ms,collapsed,file=$out/coordinator.collapsed"
fi
start_coordinator "$out" "ANTREAN_JAVA_OPTS=$coordinator_opts"
pids+=("$coordinator")
worker_pids=()
for i in $(seq 1 "$workers"); do
  worker_command=(bin/antrean worker)
  [[ -n "${WORKER_JAR:-}" ]] && worker_command=(java ${ANTREAN_JAVA_OPTS:-} -jar "$WORKER_JAR")
  worker_profiler=(env "ANTREAN_JAVA_OPTS=${ANTREAN_JAVA_OPTS:-} ${WORKER_JAVA_OPTS:-}")
  if [[ -n "${ASYNC_PROFILER:-}" && $i == 1 ]]; then
    worker_profiler=(env "ANTREAN_JAVA_OPTS=${ANTREAN_JAVA_OPTS:-} ${WORKER_JAVA_OPTS:-} -agentpath:$ASYNC_PROFILER=start,event=itimer,interval=1ms,collapsed,file=$out/worker-1.collapsed")
  fi
  "${worker_profiler[@]}" "${worker_command[@]}" --coordinator "$target" \
    --queue bench-real --concurrency "$concurrency" --types bench.noop \
    --worker-id "cpu-worker-$i" ${WORKER_ARGS:-} >"$out/worker-$i.log" 2>&1 &
  worker_pids+=("$!")
  pids+=("$!")
done

warm() {
  bin/antrean --coordinator "$target" --timeout "${TIMEOUT:-60s}" bench end-to-end --queue bench-real --jobs "$jobs" \
    --no-progress --json
}

bench() {
  if [[ -n "$rate" ]]; then
    bin/antrean --coordinator "$target" --timeout "${TIMEOUT:-60s}" bench latency --queue bench-real \
      --worker-processes 0 --rate "$rate" --duration "$duration" --no-progress --json
  else
    warm
  fi
}

warm >"$out/warm.json"
declare -A before before_switches
calls_before=$(worker_calls)
for pid in "$coordinator" "${worker_pids[@]}"; do
  before[$pid]=$(cpu_ticks "$pid")
  before_switches[$pid]=$(switches "$pid")
  thread_ticks "$pid" >"$out/threads-before-$pid"
done
if [[ "${PROFILE:-0}" == 1 ]]; then
  # JFR_SETTINGS: a .jfc file, e.g. one with jdk.ExecutionSample every 1 ms (profile: 10 ms).
  jfr_settings="${JFR_SETTINGS:-profile}"
  jcmd "$coordinator" JFR.start name=measured settings="$jfr_settings" filename="$out/coordinator.jfr" >/dev/null
  i=1
  for pid in "${worker_pids[@]}"; do
    jcmd "$pid" JFR.start name=measured settings="$jfr_settings" filename="$out/worker-$i.jfr" >/dev/null
    i=$((i + 1))
  done
fi
if [[ -n "$rate" ]]; then
  # latency sends one job, then one second at the rate unmeasured, then RATE x DURATION.
  seconds=${duration%s}
  per_round=$(echo "1 + $rate + $rate * $seconds" | bc | cut -d. -f1)
  jobs=$((per_round - rate - 1))
  warm_up=$((rate + 1))
else
  warm_up=$((jobs < 2000 ? jobs : 2000))
fi
start=$(date +%s.%N)
for r in $(seq 1 "$rounds"); do
  round_before=()
  for pid in "$coordinator" "${worker_pids[@]}"; do round_before+=("$(cpu_ticks "$pid")"); done
  bench >"$out/run-$r.json"
  # CPU per job of this round alone, per process: shows whether the JVMs are warm yet.
  line="round $r: us CPU per job:"
  i=0
  for pid in "$coordinator" "${worker_pids[@]}"; do
    d=$(($(cpu_ticks "$pid") - round_before[i]))
    line+=" $([[ $i == 0 ]] && echo coordinator || echo "worker-$i") $(echo "scale=1; $d * 1000000 / $ticks / $((jobs + warm_up))" | bc)"
    i=$((i + 1))
  done
  echo "$line" >>"$out/rounds.txt"
done
elapsed=$(echo "$(date +%s.%N) - $start" | bc)
declare -A after after_switches
calls_after=$(worker_calls)
for pid in "$coordinator" "${worker_pids[@]}"; do
  after[$pid]=$(cpu_ticks "$pid")
  after_switches[$pid]=$(switches "$pid")
  thread_ticks "$pid" >"$out/threads-after-$pid"
done
if [[ "${PROFILE:-0}" == 1 ]]; then
  for pid in "$coordinator" "${worker_pids[@]}"; do jcmd "$pid" JFR.stop name=measured >/dev/null; done
fi

ran=$(((jobs + warm_up) * rounds))
per_job() { echo "scale=1; ($1) * 1000000 / $ticks / $ran" | bc; }
echo "jobs run in the measured runs: $ran ($([[ -n "$rate" ]] && echo "latency at $rate/s for $duration" || echo "end-to-end N=$jobs") plus $warm_up warm-up, x$rounds), $elapsed s wall"
cat "$out/rounds.txt"
for r in $(seq 1 "$rounds"); do
  grep -o '"jobsPerSecond": [0-9.]*\|"p[059]*Ms": [0-9.]*' "$out/run-$r.json" | tr '\n' ' ' | sed "s/^/run $r: /"
  echo
done
c=$((after[$coordinator] - before[$coordinator]))
echo "coordinator: $(per_job "$c") us CPU per job"
total=$c
i=1
for pid in "${worker_pids[@]}"; do
  w=$((after[$pid] - before[$pid]))
  total=$((total + w))
  echo "worker $i: $(per_job "$w") us CPU per job run by the pair (both workers share the jobs)"
  i=$((i + 1))
done
echo "all three processes: $(per_job "$total") us CPU per job"
echo "Lease and CompleteBatch calls per job: $(echo "scale=3; ($calls_after - $calls_before) / $ran" | bc)"
# A thread that blocks and is woken again is a voluntary switch: one per thread hand-off.
for pid in "$coordinator" "${worker_pids[@]}"; do
  read -r v0 n0 <<<"${before_switches[$pid]}"
  read -r v1 n1 <<<"${after_switches[$pid]}"
  echo "context switches per job, pid $pid: voluntary $(echo "scale=2; ($v1 - $v0) / $ran" | bc)," \
    "involuntary $(echo "scale=2; ($n1 - $n0) / $ran" | bc)"
done
for pid in "$coordinator" "${worker_pids[@]}"; do
  echo "-- threads of pid $pid ($([[ $pid == "$coordinator" ]] && echo coordinator || echo worker)): us CPU per job"
  join -t'|' "$out/threads-before-$pid" "$out/threads-after-$pid" |
    awk -F'|' -v tck="$ticks" -v n="$ran" '{ d = $3 - $2; if (d > 0) printf "  %8.1f  %s\n", d * 1e6 / tck / n, $1 }' |
    sort -rn | head -12
done
if [[ "${PROFILE:-0}" == 1 ]]; then
  for f in "$out"/coordinator.jfr "$out"/worker-*.jfr; do
    echo "== $(basename "$f" .jfr): top frames (self) and where the CPU goes"
    python3 bench/profile/jfr-top.py "$f"
  done
fi
echo "output in $out"
