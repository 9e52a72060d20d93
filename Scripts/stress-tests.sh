#!/usr/bin/env bash
# Runs the Swift test suites while every core is kept busy by another process, as on a shared
# CI machine: a test that needs the scheduler to be kind (a fixed sleep before a negative
# check, a deadline too short for a starved task) fails here first.
#
#   bash Scripts/stress-tests.sh [--runs N] [--hogs N] [-- SWIFT TEST ARGUMENTS]
#
# --runs N   run the suites N times (default 1); every run must pass
# --hogs N   busy processes beside the tests (default: one per core); each spins on a core
# After "--": arguments for `swift test` (e.g. --filter BackupTests).
# Builds the tests first (not under load). Prints each run's time and, last,
# "stress: N passed, N failed" (runs). Exit status 0 when every run passed.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=1
hogs=$(nproc)
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --hogs) hogs=$2; shift 2 ;;
        --) shift; break ;;
        *) echo "usage: $0 [--runs N] [--hogs N] [-- SWIFT TEST ARGUMENTS]" >&2; exit 2 ;;
    esac
done

export TENDER_REFEREE_PYTHON=${TENDER_REFEREE_PYTHON:-$PWD/.venv-referee/bin/python}
swift build --build-tests

hog_pids=()
stop_hogs() {
    [ ${#hog_pids[@]} -gt 0 ] && kill "${hog_pids[@]}" 2>/dev/null
    wait 2>/dev/null || true
}
trap stop_hogs EXIT
# `yes` into /dev/null: a process that never sleeps and needs nothing installed.
for _ in $(seq "$hogs"); do
    yes >/dev/null &
    hog_pids+=($!)
done
echo "stress: $hogs busy processes beside the tests ($(nproc) cores)"

passed=0 failed=0
mkdir -p .build
for run in $(seq "$runs"); do
    started=$SECONDS
    log=.build/stress-run-$run.txt
    if swift test --skip-build "$@" >"$log" 2>&1; then
        passed=$((passed + 1))
        verdict=passed
    else
        failed=$((failed + 1))
        verdict=FAILED
        grep -E "✘|error:|failed" "$log" | grep -v "^✘ Suite\|passed after" | head -n 40 || true
    fi
    echo "stress: run $run $verdict in $((SECONDS - started)) s ($(grep -aE '^(✔|✘) Test run with' "$log" | tail -n 1)); log $log"
done
echo "stress: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
