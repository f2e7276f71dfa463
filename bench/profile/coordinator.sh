# Shared by the scripts of bench/profile, which source it after `cd` to the repository's root:
# starting and stopping the coordinator under measurement, and the median of a column of numbers.

coordinator=""
target=""

# start_coordinator DIR [NAME=VALUE...]: starts `bin/antrean coordinator` in the background on
# DIR/data, on free ports, with the environment additions given (ANTREAN_JAVA_OPTS=..., for
# example), its output in DIR/coordinator.log; waits up to 60 s for its ready file. COORDINATOR_ARGS
# (environment) adds options to the command (`--network-threads 1`, for example). Sets coordinator
# (its pid) and target (HOST:PORT); exits the script if it fails to start.
start_coordinator() {
  local dir=$1
  shift
  rm -f "$dir/port"
  local -a extra
  read -r -a extra <<<"${COORDINATOR_ARGS:-}"
  env "$@" bin/antrean coordinator --data-dir "$dir/data" --grpc-port 0 --http-port 0 \
    --ready-file "$dir/port" "${extra[@]}" >"$dir/coordinator.log" 2>&1 &
  coordinator=$!
  for _ in $(seq 1 600); do
    [[ -s "$dir/port" ]] && break
    kill -0 "$coordinator" 2>/dev/null || {
      cat "$dir/coordinator.log" >&2
      exit 1
    }
    sleep 0.1
  done
  [[ -s "$dir/port" ]] || {
    echo "$(basename "$0"): the coordinator did not get ready in 60 s" >&2
    stop_coordinator
    exit 1
  }
  target="127.0.0.1:$(cat "$dir/port")"
}

# stop_coordinator: SIGTERM to the coordinator started last, if any, and waits for it to end.
stop_coordinator() {
  if [[ -n "$coordinator" ]]; then
    kill "$coordinator" 2>/dev/null || true
    wait "$coordinator" 2>/dev/null || true
    coordinator=""
  fi
}

median() { # the median of the numbers on stdin (the lower middle one of an even count)
  sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
