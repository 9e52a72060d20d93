#!/usr/bin/env bash
# Smoke test of the Cashu rig: makes the venv, starts a mint (sat) on a free port in a temp dir,
# mints 1000 sat into wallet A, sends 100 to wallet B as a cashuB token with DLEQ proofs, checks
# both balances, sends a P2PK-locked token to B's key (another wallet cannot take it, B can),
# checks the tokens over the bare HTTP API (GET /v1/keys, /v1/keysets, POST /v1/checkstate for
# the proofs' Ys, POST /v1/swap) with probe.py, then starts a second mint with units sat and usd
# and moves $2.50 between two usd wallets. Stops the mints and removes the temp dirs; exits
# non-zero on the first failure, saying what failed.
#
#   Rigs/cashu-mint/smoke.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
python="$(bash "$here/venv.sh")"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/cashu-smoke.XXXXXX")"
mints=()
step_no=0

cleanup() {
    local rc=$?
    for data in "${mints[@]}"; do bash "$here/stop.sh" "$data" >/dev/null || true; done
    rm -rf "$tmp"
    if ((rc == 0)); then echo "smoke: PASSED"; else echo "smoke: FAILED (exit $rc)" >&2; fi
}
trap cleanup EXIT

fail() {
    echo "smoke: FAILED at: $*" >&2
    for data in "${mints[@]}"; do
        echo "--- last lines of $data/mint.log" >&2
        tail -n 15 "$data/mint.log" >&2 || true
    done
    exit 1
}

# run LABEL COMMAND...: runs COMMAND, keeps its stdout in $out (and $tmp/steps/N.out), shows
# it indented; on failure shows stdout and stderr and stops.
run() {
    local label="$1"
    shift
    step_no=$((step_no + 1))
    mkdir -p "$tmp/steps"
    local file="$tmp/steps/$step_no"
    echo "== $label"
    if ! "$@" >"$file.out" 2>"$file.err"; then
        sed 's/^/   | /' "$file.out" "$file.err" >&2
        fail "$label: $*"
    fi
    out="$(cat "$file.out")"
    sed 's/^/   | /' "$file.out"
}

free_port() {
    "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# expect_balance URL WALLET_DIR EXPECTED [-u UNIT]: EXPECTED as the CLI prints it ("900 sat", "$7.50 USD").
expect_balance() {
    local url="$1" dir="$2" expected="$3"
    shift 3
    run "balance of $(basename "$dir") is $expected" bash "$here/wallet.sh" "$url" "$dir" "$@" balance
    [ "$out" = "Balance: $expected" ] || fail "balance of $(basename "$dir"): got '$out', expected 'Balance: $expected'"
}

token_in() {
    grep -o 'cashu[AB][A-Za-z0-9_=-]*' <<<"$1" | tail -n 1 || true
}

ms_since() { echo $(((${EPOCHREALTIME/./} - $1) / 1000)); }

# ---- a sat mint
port="$(free_port)"
mints+=("$tmp/mint")
started=${EPOCHREALTIME/./}
run "start a mint on port $port" bash "$here/start.sh" --port "$port" --data "$tmp/mint"
echo "   (start-up $(ms_since "$started") ms)"
url="$(tail -n 1 <<<"$out")"
[ "$url" = "http://127.0.0.1:$port" ] || fail "start.sh printed '$url', not the mint's URL"
wallet() { bash "$here/wallet.sh" "$url" "$@"; }
A="$tmp/wallet-a" B="$tmp/wallet-b" C="$tmp/wallet-c"

round=${EPOCHREALTIME/./}
run "mint 1000 sat into wallet A (FakeWallet pays the invoice)" wallet "$A" invoice 1000
grep -q "Invoice paid" <<<"$out" || fail "invoice 1000: no 'Invoice paid'"
expect_balance "$url" "$A" "1000 sat"

run "wallet A sends 100 sat as a cashuB token with DLEQ proofs" wallet "$A" send --dleq 100
token="$(token_in "$out")"
[[ "$token" == cashuB* ]] || fail "send --dleq 100 printed no cashuB token"
run "wallet B receives it" wallet "$B" receive "$token"
grep -q "Received 100 sat" <<<"$out" || fail "receive: no 'Received 100 sat'"
echo "   (mint + send + receive: $(ms_since "$round") ms)"
expect_balance "$url" "$A" "900 sat"
expect_balance "$url" "$B" "100 sat"
run "probe the received token: keysets, keys, DLEQ, checkstate says SPENT" \
    "$python" "$here/probe.py" "$url" "$token" --expect-state SPENT

run "wallet B's P2PK receiving key" wallet "$B" locks
lock="$(grep -o 'P2PK:0[23][0-9a-f]\{64\}' <<<"$out" | head -n 1 || true)"
[ -n "$lock" ] || fail "locks printed no P2PK:<pubkey>"
run "wallet A sends 50 sat locked to $lock" wallet "$A" send --dleq --lock "$lock" 50
locked="$(token_in "$out")"
[[ "$locked" == cashuB* ]] || fail "send --lock printed no cashuB token"
run "decode the locked token" wallet "$A" decode "$locked"
grep -q '\\"P2PK\\", {\\"data\\": \\"'"${lock#P2PK:}" <<<"$out" || fail "the locked token's secrets are not P2PK to ${lock#P2PK:}"
run "probe the locked token: DLEQ, checkstate says UNSPENT" \
    "$python" "$here/probe.py" "$url" "$locked" --expect-state UNSPENT
echo "== wallet C cannot receive the locked token"
if wallet "$C" receive "$locked" >"$tmp/c.out" 2>&1; then
    cat "$tmp/c.out" >&2
    fail "wallet C received a token locked to wallet B"
fi
grep -q "Witness is missing" "$tmp/c.out" || { cat "$tmp/c.out" >&2; fail "wallet C's receive failed for another reason than the missing witness"; }
sed 's/^/   | /' <(grep -v '^20..-' "$tmp/c.out" || true)
run "wallet B receives the locked token (signs with its key)" wallet "$B" receive "$locked"
expect_balance "$url" "$A" "850 sat"
expect_balance "$url" "$B" "150 sat"

run "wallet A sends 13 sat (not received by a wallet)" wallet "$A" send --dleq 13
raw="$(token_in "$out")"
run "swap its proofs over POST /v1/swap, check states before and after, double spend refused" \
    "$python" "$here/probe.py" "$url" "$raw" --expect-state UNSPENT --swap

# ---- a mint with units sat and usd
port2="$(free_port)"
mints+=("$tmp/mint-usd")
run "start a sat+usd mint on port $port2" bash "$here/start.sh" --port "$port2" --data "$tmp/mint-usd" --units sat,usd
url2="$(tail -n 1 <<<"$out")"
run "keysets of the sat+usd mint" "$python" -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())' "$url2/v1/keysets"
grep -q '"unit":"usd","active":true' <<<"$out" || fail "no active usd keyset on $url2"
U="$tmp/wallet-usd-u" V="$tmp/wallet-usd-v"
run "mint \$10.00 into usd wallet U (the CLI takes dollars: 10 = 1000 cents)" \
    bash "$here/wallet.sh" "$url2" "$U" -u usd invoice 10
run "wallet U sends \$2.50 with DLEQ" bash "$here/wallet.sh" "$url2" "$U" -u usd send --dleq 2.5
usd_token="$(token_in "$out")"
[[ "$usd_token" == cashuB* ]] || fail "usd send printed no cashuB token"
run "decode: unit usd, amounts in cents" bash "$here/wallet.sh" "$url2" "$U" decode "$usd_token"
grep -q '"u": "usd"' <<<"$out" || fail "the usd token's unit is not usd"
run "wallet V receives it" bash "$here/wallet.sh" "$url2" "$V" receive "$usd_token"
expect_balance "$url2" "$U" '$7.50 USD' -u usd
expect_balance "$url2" "$V" '$2.50 USD' -u usd

for data in "${mints[@]}"; do run "stop the mint of $(basename "$data")" bash "$here/stop.sh" "$data"; done
mints=()
