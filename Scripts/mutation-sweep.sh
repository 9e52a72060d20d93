#!/usr/bin/env bash
# The full mutation sweep (Docs/MUTATION-SWEEP.md): every truncation and bits 0 and 7 of every
# byte (all 8 bits with --all-bits) of each file kind, Cashu tokens included, each run through
# the real CLI against a fresh copy of the receiving store; then the tender: URI sweep. The
# sweep itself is the Swift test (Tests/EndToEndTests/MutationSweep*.swift and
# CashuMutationSweep*.swift, Tests/PaymentCodesTests/URIMutationTests.swift); this script runs
# it in full and prints the figures (the filter's MutationSweepTests matches
# CashuMutationSweepTests too). The Cashu kinds start the rig's mint (Rigs/cashu-mint) to make
# their tokens, then take every mutation offline.
#
#   Scripts/mutation-sweep.sh [--all-bits] [--jobs N] [--skip-build] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

mode=full
jobs=3
build=yes
out=.build/mutation-sweep
while (($#)); do
    case "$1" in
        --all-bits) mode=all-bits ;;
        --jobs) jobs="$2"; shift ;;
        --skip-build) build=no ;;
        --out) out="$2"; shift ;;
        *) echo "usage: $0 [--all-bits] [--jobs N] [--skip-build] [--out DIR]" >&2; exit 64 ;;
    esac
    shift
done

[[ $build == yes ]] && swift build --build-tests
rm -rf "$out"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

start=$(date +%s)
status=0
TENDER_SWEEP="$mode" TENDER_SWEEP_JOBS="$jobs" TENDER_SWEEP_REPORT="$out" \
    swift test --skip-build --filter 'MutationSweepTests|URIMutationTests' \
    >"$out/test-output.txt" 2>&1 || status=$?
elapsed=$(($(date +%s) - start))

echo "Mutation sweep ($mode, $jobs runs at a time), $(date -u +%Y-%m-%d), ${elapsed} s in all"
echo
echo "| file | bytes | mutations | refused | accepted as harmless | not refused properly | time |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for kind in notes payment receipt evidence cashu cashu-locked; do
    if [[ -f "$out/$kind.row" ]]; then cat "$out/$kind.row"; else echo "| $kind | (no figures) |"; fi
done
echo
for kind in notes payment receipt evidence cashu cashu-locked uri; do
    [[ -f "$out/$kind.md" ]] && cat "$out/$kind.md" && echo
done
if ((status != 0)); then
    echo "FAILED (exit $status); the test output is in $out/test-output.txt:" >&2
    grep -E "✘|error|NOT REFUSED" "$out/test-output.txt" | head -40 >&2 || true
fi
exit "$status"
