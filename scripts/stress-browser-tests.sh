#!/usr/bin/env bash
# Every Chromium test of the hosted pages and the console, run RUNS times in a row (default 20)
# while one busy loop per core (or stress-ng, when installed) keeps the CPU saturated: a test that
# passes only on an idle machine fails here. Each run is a fresh `vitest run` of those files (its
# own servers), so no run leans on the one before. Prints a line per run and a closing count; the
# logs of failed runs stay in .data/stress/. Exits 1 when any run failed.
#   bash scripts/stress-browser-tests.sh [RUNS] [vitest args...]
set -uo pipefail
cd "$(dirname "$0")/.."
runs="${1:-20}"
shift || true

# The hosted pages (embed, respond, sign) and the console, driven in Chromium.
mapfile -t files < <(
  ls test/integration/console/*.test.ts
  grep -l -E "playwright|support/(browser|sign-browser|sign-page-world)'" \
    test/integration/forms/*.test.ts test/integration/signatures/*.test.ts | grep -v -E "render-pdf|intake-completion"
)

mkdir -p .data/stress
load_pids=()
stop_load() { for pid in "${load_pids[@]}"; do kill "$pid" 2>/dev/null; done; }
trap stop_load EXIT
cores="$(nproc)"
if command -v stress-ng >/dev/null 2>&1; then
  stress-ng --cpu "$cores" --quiet & load_pids+=($!)
  load="stress-ng --cpu $cores"
else
  for _ in $(seq "$cores"); do (while :; do :; done) & load_pids+=($!); done
  load="$cores busy loops"
fi

echo "stress: ${#files[@]} files, $runs runs, under $load"
printf '  %s\n' "${files[@]}"
failed=0
for run in $(seq "$runs"); do
  log=".data/stress/run-$run.log"
  start=$(date +%s)
  status=0
  CI=true npx vitest run "${files[@]}" "$@" > "$log" 2>&1 || status=$?
  tests="$(sed -E 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^ +Tests ' | tail -n 1 | sed -E 's/^ +//')"
  if [ "$status" -eq 0 ]; then
    verdict=passed
    rm -f "$log"
  else
    verdict="FAILED (log: $log)"
    failed=$((failed + 1))
  fi
  echo "run $run/$runs: $verdict in $(( $(date +%s) - start )) s, load $(cut -d' ' -f1 /proc/loadavg) ${tests}"
done
echo "stress: $((runs - failed)) of $runs runs passed"
[ "$failed" -eq 0 ]
