#!/usr/bin/env bash
# The suite on a loaded machine, as issue reports found it flaky: a fresh clone of the
# committed HEAD, two CPU-bound processes beside it, RUNS whole runs of scripts/test.sh
# in a row (default 3), then one more with PYTEST_WORKERS=4. Stops at the first red run.
# Prints each run's time and result; the logs stay in the clone's folder.
#   scripts/test.sh --stress [RUNS]      (or scripts/stress.sh [RUNS])
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
case "$runs" in ''|*[!0-9]*) echo "stress: RUNS must be a whole number, not '$runs'" >&2; exit 2;; esac
dir="$(mktemp -d "${TMPDIR:-/tmp}/pitch-stress.XXXXXX")"
git clone -q "$PWD" "$dir/pitch"
echo "stress: fresh clone of $(git rev-parse --short HEAD) in $dir/pitch (uncommitted changes are not in it)"
hogs=()
stop_hogs() { [ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null || true; }
trap stop_hogs EXIT
for _ in 1 2; do python3 -c 'while True: pass' & hogs+=($!); done
echo "stress: two CPU hogs running (pids ${hogs[*]})"
run() {  # run NAME [ENV=VALUE...]: one whole scripts/test.sh in the clone
  local name="$1"; shift
  local log="$dir/$name.log" start rc
  start=$(date +%s)
  set +e
  (cd "$dir/pitch" && env "$@" bash scripts/test.sh >"$log" 2>&1)
  rc=$?
  set -e
  local secs=$(( $(date +%s) - start ))
  local summary
  summary="$(grep -E '^[0-9]+ (passed|failed)|passed|failed' "$log" | tail -1 || true)"
  printf 'stress: %-10s rc=%s  %dm%02ds  %s\n' "$name" "$rc" $((secs / 60)) $((secs % 60)) "$summary"
  if [ "$rc" != 0 ]; then
    grep -E '^(FAILED|ERROR) ' "$log" | head -20 || true
    echo "stress: red run; log at $log" >&2
    exit 1
  fi
}
for i in $(seq 1 "$runs"); do run "run$i"; done
run "workers4" PYTEST_WORKERS=4
echo "stress: all green ($runs runs with two CPU hogs, then one with 4 workers)"
