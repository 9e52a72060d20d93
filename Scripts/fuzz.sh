#!/usr/bin/env bash
# Fuzzes every decoder of untrusted bytes (Fuzz/TenderFuzz, Docs/FUZZING.md): builds TenderFuzz
# with libFuzzer and AddressSanitizer, seeds each target's corpus, runs the targets one after
# another, and prints executions and findings per target. Exits non-zero on any finding.
#
#   bash Scripts/fuzz.sh [--seconds N | --runs N] [--jobs 1|2] [target...]
#   bash Scripts/fuzz.sh --seeds-only      only write fresh CLI seeds to .build-fuzz/generated
#
# --seconds N: each target runs N seconds (default 300). --runs N: each runs N inputs instead.
# --jobs 2: two targets at a time (the machine has two cores; the default keeps one free).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=300
runs=""
jobs=1
seeds_only=false
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; runs=""; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --seeds-only) seeds_only=true; shift ;;
        -h | --help) sed -n '2,10p' "$0"; exit 0 ;;
        -*) echo "fuzz.sh: unknown option $1" >&2; exit 64 ;;
        *) targets+=("$1"); shift ;;
    esac
done

scratch=.build-fuzz
fuzzer="$scratch/release/TenderFuzz"

# Per target: longest generated input (-max_len) and largest single allocation allowed
# (-malloc_limit_mb). libFuzzer reports an allocation of N MiB or more when the limit is N,
# so 1 means "nothing of 1 MiB or more": every cap below is 1 MiB or less for inputs this
# size (see Docs/FUZZING.md). PNG and PGM may allocate their 1-megapixel output: 2.
declare -A max_len=(
    [envelope]=65536 [cbor]=65536 [frames]=65536 [ur]=65536
    [tender-uri]=4096 [payment-codes]=8192 [png]=65536 [pgm]=65536 [link]=4096
    [evidence]=8192 [session]=65536 [api-bodies]=8192
)
declare -A malloc_limit_mb=(
    [envelope]=1 [cbor]=1 [frames]=1 [ur]=1 [tender-uri]=1 [payment-codes]=1 [png]=2 [pgm]=2
    [link]=1 [evidence]=1 [session]=1 [api-bodies]=1
)
rss_limit_mb=1024
timeout_seconds=10

build_fuzzer() {
    echo "fuzz.sh: building TenderFuzz with -sanitize=fuzzer,address in $scratch"
    # ld.gold warns "Cannot export local symbol '__asan_…'" for every sanitizer symbol: harmless.
    nice -n 10 swift build -c release --scratch-path "$scratch" --product TenderFuzz \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
        -Xswiftc -enable-experimental-feature -Xswiftc Extern \
        2> >(grep -v "Cannot export local symbol" >&2)
}

# Fresh envelopes and tender: codes from the CLI, so seeds follow the current wire format: a
# payment, its receipt, issued notes, double-spend evidence, a request and a payee code.
generate_cli_seeds() {
    local out="$PWD/$scratch/generated"
    rm -rf "$out"
    mkdir -p "$out/envelope" "$out/tender-uri" "$out/payment-codes" "$out/evidence"
    if ! nice -n 10 swift build --product tender >/dev/null 2>&1; then
        echo "fuzz.sh: the tender CLI does not build now; no fresh envelope seeds" >&2
        return 0
    fi
    local tender="$PWD/.build/debug/tender"
    local work
    work=$(mktemp -d /tmp/tender-fuzz-seeds.XXXXXX)
    (
        set -e
        cd "$work"
        echo "fuzz seeds" >passphrase
        export TENDER_PASSPHRASE_FILE="$work/passphrase"
        for wallet in alice bob carol; do "$tender" init --data-dir $wallet --scrypt-n 1024; done
        "$tender" issuer init --data-dir issuer --scrypt-n 1024
        issuer=$("$tender" issuer address --data-dir issuer)
        for wallet in alice bob carol; do "$tender" trust add "$issuer" --data-dir $wallet; done
        alice=$("$tender" address --data-dir alice)
        bob=$("$tender" address --data-dir bob)
        carol=$("$tender" address --data-dir carol)
        "$tender" issuer issue --data-dir issuer --to "$alice" --amount 500 --count 3 \
            --out notes.tender
        "$tender" receive notes.tender --data-dir alice
        "$tender" pay --data-dir alice --to "$bob" --amount 700 --memo "fuzz seed" \
            --out payment.tender
        "$tender" receive payment.tender --data-dir bob --receipt-out receipt.tender
        "$tender" receipt receipt.tender --data-dir alice
        "$tender" request --data-dir bob --amount 300 --memo "fuzz seed" --qr png \
            --out request.png
        printf %s "$("$tender" scan --image request.png | tail -n 1)" >request.uri
        "$tender" print --data-dir bob --name "Fuzz stall" --qr png --out payee.png
        printf %s "$("$tender" scan --image payee.png | tail -n 1)" >payee.uri
        "$tender" pay --data-dir alice --request "$(cat request.uri)" --out requested.tender
        # A double spend: a copied wallet pays the same change coin twice.
        cp -r alice alice-copy
        "$tender" pay --data-dir alice-copy --to "$carol" --amount 120 --out second.tender
        "$tender" pay --data-dir alice --to "$carol" --amount 100 --out first.tender
        "$tender" receive first.tender --data-dir carol
        "$tender" receive second.tender --data-dir carol || true
        mkdir evidence
        "$tender" evidence list --data-dir carol --out evidence
    ) >"$work/log" 2>&1 || {
        mkdir -p "$scratch/logs"
        cp "$work/log" "$scratch/logs/cli-seeds.log"
        echo "fuzz.sh: CLI seed flow stopped early (see $scratch/logs/cli-seeds.log)" >&2
    }
    for file in "$work"/*.tender "$work"/evidence/*; do
        if [ -f "$file" ]; then cp "$file" "$out/envelope/cli-$(basename "$file")"; fi
    done
    # The evidence target reads an envelope after its mode byte (0).
    for file in "$work"/evidence/*; do
        if [ -f "$file" ]; then
            { printf '\0'; cat "$file"; } >"$out/evidence/cli-$(basename "$file")"
        fi
    done
    for file in "$work"/*.uri; do
        [ -s "$file" ] || continue
        cp "$file" "$out/tender-uri/cli-$(basename "$file")"
        cp "$file" "$out/payment-codes/cli-$(basename "$file")"
    done
    if [ -f "$work/payment.tender" ]; then
        cp "$work/payment.tender" "$out/payment-codes/cli-payment"
    fi
    echo "fuzz.sh: CLI seeds: $(find "$out" -type f | wc -l) files in $out"
    rm -rf "$work"
}

# Runs one target; writes its log and a result line (executions, seconds, peak RSS, findings).
run_target() {
    local target="$1"
    local corpus="$scratch/corpus/$target"
    local findings="$scratch/findings/$target"
    local log="$scratch/logs/$target.log"
    mkdir -p "$corpus" "$findings" "$scratch/logs"
    rm -f "$scratch/logs/$target.result"
    rm -f "$findings"/*
    # New inputs go to the first directory; the committed and CLI seeds are read only.
    local inputs=("$corpus")
    for seeds in "Fuzz/Seeds/$target" "$scratch/generated/$target"; do
        if [ -d "$seeds" ]; then inputs+=("$seeds"); fi
    done
    local limit=(-max_total_time="$seconds")
    if [ -n "$runs" ]; then limit=(-runs="$runs"); fi
    local dict=()
    if [ -f "Fuzz/Dictionaries/$target.dict" ]; then
        dict=(-dict="Fuzz/Dictionaries/$target.dict")
    fi
    local start end status=0
    start=$(date +%s)
    # AddressSanitizer keeps every distinct allocation stack and 256 MB of freed memory by
    # default; Swift's recursive decoders make distinct stacks without end, so RSS would grow
    # past any useful limit. Two frames and a 16 MB quarantine keep it flat.
    # SWIFT_BACKTRACE: Swift's own crash backtracer hangs under the sanitizer.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=quarantine_size_mb=16:malloc_context_size=2 \
        TENDER_FUZZ_TARGET="$target" nice -n 10 "$fuzzer" "${inputs[@]}" "${limit[@]}" \
        "${dict[@]}" -max_len="${max_len[$target]}" \
        -malloc_limit_mb="${malloc_limit_mb[$target]}" -rss_limit_mb="$rss_limit_mb" \
        -timeout="$timeout_seconds" -print_final_stats=1 -artifact_prefix="$findings/" \
        >"$log" 2>&1 || status=$?
    end=$(date +%s)
    local executions peak
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    peak=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -n 1)
    local count
    count=$(find "$findings" -type f | wc -l)
    echo "$target ${executions:-0} $((end - start)) ${peak:-?} $count $status" \
        >"$scratch/logs/$target.result"
}

mkdir -p "$scratch"
if $seeds_only; then
    generate_cli_seeds
    exit 0
fi
build_fuzzer
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <("$fuzzer" --list | cut -f1)
fi
for target in "${targets[@]}"; do
    [ -n "${max_len[$target]:-}" ] || { echo "fuzz.sh: unknown target $target" >&2; exit 64; }
done
generate_cli_seeds

running=0
for target in "${targets[@]}"; do
    budget="$seconds s"
    if [ -n "$runs" ]; then budget="$runs runs"; fi
    echo "fuzz.sh: $target ($budget), log $scratch/logs/$target.log"
    run_target "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
wait

failed=0
printf '\n%-14s %13s %8s %9s %9s %8s\n' target executions seconds exec/s "rss MB" crashes
for target in "${targets[@]}"; do
    if [ ! -f "$scratch/logs/$target.result" ]; then
        echo "$target: no result (see $scratch/logs/$target.log)"
        failed=1
        continue
    fi
    read -r name executions elapsed peak count status <"$scratch/logs/$target.result"
    rate=$((executions / (elapsed > 0 ? elapsed : 1)))
    printf '%-14s %13s %8s %9s %9s %8s\n' "$name" "$executions" "$elapsed" "$rate" "$peak" "$count"
    if [ "$count" -gt 0 ] || [ "$status" -ne 0 ]; then
        failed=1
        echo "  findings in $scratch/findings/$target/ (log $scratch/logs/$target.log):"
        find "$scratch/findings/$target" -type f -printf '    %f\n'
        grep -m 3 -E "fuzz invariant|ERROR: |Fatal error" "$scratch/logs/$target.log" \
            "$scratch/logs/$target.log.leaks" | sed 's/^/    /' || true
    fi
done
exit "$failed"
