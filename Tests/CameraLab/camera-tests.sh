#!/usr/bin/env bash
# End to end through real V4L2 cameras (Hardware/camera-lab, two looped vivid pairs), one boot:
#  1. scan: a payment shown as an animated loop comes back byte for byte through /dev/video0,
#     with a frame rate asked for and the granted one reported;
#  2. two-sided QR payment: Alice's `pay --qr --camera` plays the payment into Bob's camera,
#     Bob's `receive --camera --qr` accepts it and shows the receipt into Alice's camera, and
#     Alice's node records it (payment spent, change spendable) while her loop plays; an
#     earlier payment's receipt left on Bob's screen is not taken for this one;
#  3. the camera vanishes mid-scan (vivid's simulated unplug): a clear error, exit 74;
#  4. a webcam-type camera grants the frame rates asked for (15, 30) and the scan reports them;
#  5. (run before 3) Bob's `tender node` with `[payee] camera`: Alice's `pay --qr` plays into
#     his camera, the node accepts the payment, serves its receipt (envelope and code) through
#     the API, Alice's camera reads it off Bob's screen (spent); his camera unplugged, the node
#     says it waits for the camera and serves on, then stops cleanly on SIGTERM;
#  6. Cashu through the camera (the second one, beside 1): `tender cashu receive --camera`
#     takes a token that nutshell's wallet made (`send N -d`, DLEQ proofs) shown as one code,
#     and one animated as Cashu wallets do (BC-UR ur:bytes, NUT-16; drawn by ur-bytes-clip.py,
#     an encoder of its own): Bob's Cashu wallet holds both as received, offline (the guest
#     has no network);
#  7. (in 5's node run) Bob's node takes a Cashu token shown to its camera (its log says so,
#     /api/cashu/payments lists it received); shown again later, it is refused as taken
#     already: one payment;
#  8. animated codes at 30 frames/s (two S-Video pairs at NTSC, 720x480 at 29.97), fragment and
#     hold chosen from what the camera reports: a 50-coin payment loop with every fifth frame lost
#     comes back byte for byte through `tender scan --camera`, which says how long it took from
#     its first code (the payload rate is printed); then a 50-coin `pay --qr` and its receipt
#     pass both ways between two cameras (the seconds from the first frame are printed).
# Then on the host, the mint up: Bob's wallet as the guest left it (copied out of the guest)
# holds the three tokens at risk; `tender cashu sync` swaps them, and the amounts add up
# (Bob's and the payer's balances).
#   TENDER=.build/debug/tender bash Tests/CameraLab/camera-tests.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
tender=$(realpath "${TENDER:-.build/debug/tender}")
work=$(mktemp -d /tmp/tender-camera.XXXXXX)
rig=$PWD/Rigs/cashu-mint
cleanup() {
    bash "$rig/stop.sh" "$work/mint" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
echo "camera test passphrase" >"$work/passphrase"
export TENDER_PASSPHRASE_FILE=$work/passphrase

# Tests 6 and 7's Cashu tokens, made while the Tender side is prepared: a nutshell mint
# (FakeWallet) on the host, and its wallet CLI as the payer; each token sent with DLEQ proofs.
# The mint stays up for the swap after the lab; the guest never reaches it.
cashu_port=$(python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
(
    set -e
    url=$(bash "$rig/start.sh" --port "$cashu_port" --data "$work/mint" 2>/dev/null | tail -n 1)
    bash "$rig/fund.sh" "$url" "$work/payer" 64
    for token in single:5 animated:21 node:8; do
        bash "$rig/wallet.sh" "$url" "$work/payer" send "${token#*:}" -d 2>/dev/null |
            grep -o 'cashu[AB][A-Za-z0-9_=-]*' | head -n 1 | tr -d '\n' >"$work/cashu-${token%:*}.txt"
        [ -s "$work/cashu-${token%:*}.txt" ]
    done
    echo "$url" >"$work/mint-url"
) >"$work/cashu-prep.log" 2>&1 &
cashu_prep=$!

"$tender" issuer init --data-dir "$work/issuer" --scrypt-n 1024 >/dev/null
issuer=$("$tender" issuer address --data-dir "$work/issuer")
pair() { # pair PAYER PAYEE AMOUNT COUNT: two wallets that trust the issuer, COUNT notes of
    # AMOUNT to the payer
    for name in "$1" "$2"; do
        "$tender" init --data-dir "$work/$name" --scrypt-n 1024 >/dev/null
        "$tender" trust add "$issuer" --data-dir "$work/$name" >/dev/null
    done
    "$tender" issuer issue --data-dir "$work/issuer" --amount "$3" --count "$4" \
        --to "$("$tender" address --data-dir "$work/$1")" --out "$work/notes-$1"
    "$tender" receive "$work/notes-$1" --data-dir "$work/$1" >/dev/null
}
pair alice bob 100 4
bob=$("$tender" address --data-dir "$work/bob")
# Test 1's payment, as a clip: small fragments make an animated loop; each code held 6 video
# frames = 10 codes a second.
"$tender" pay --data-dir "$work/alice" --to "$bob" --amount 100 --out "$work/payment" >/dev/null
"$tender" show "$work/payment" --fragment 300 --hold 6 --frames-out "$work/clip.grey" >/dev/null
# Test 8's wallets: Alice30 holds 110 coins of 10; one payment of 50 coins is made here (the
# loop 8a scans), the other live in the guest (8b).
pair alice30 bob30 10 110
bob30=$("$tender" address --data-dir "$work/bob30")
"$tender" pay --data-dir "$work/alice30" --to "$bob30" --amount 500 --out "$work/payment50" >/dev/null
# Bob's receipt for that payment, as a screen: in test 2 it is still on show when Alice pays
# again, and must not be taken for the new payment's receipt.
"$tender" receive "$work/payment" --data-dir "$work/bob" --receipt-out "$work/old-receipt" >/dev/null
"$tender" show "$work/old-receipt" --frames-out "$work/old-receipt.grey" >/dev/null

# The Cashu tokens as the payer's screen: one code (`tender show` shows a file's bytes as one
# code when they fit), and a ur:bytes loop; the node's token as one code. Bob's wallet holds
# the mint's keys (fetched now, online), so the guest takes tokens offline.
prepared=$(date +%s)
if ! wait $cashu_prep; then
    echo "camera-lab: the Cashu mint or wallet failed:"
    tail -n 5 "$work/cashu-prep.log" "$work/mint/mint.log" 2>/dev/null
    exit 1
fi
echo "host: the Cashu tokens came $(($(date +%s) - prepared)) s after the Tender side was ready ($((prepared - started)) s)"
mint_url=$(cat "$work/mint-url")
"$tender" cashu mint add "$mint_url" --data-dir "$work/bob" >/dev/null
"$tender" show "$work/cashu-single.txt" --frames-out "$work/cashu-single.grey" >/dev/null
"$tender" show "$work/cashu-node.txt" --frames-out "$work/cashu-node.grey" >/dev/null
"$PWD/.venv-referee/bin/python" Tests/CameraLab/ur-bytes-clip.py "$work/cashu-animated.txt" \
    "$work/cashu-animated.grey" 200 6 >/dev/null

lab=${CAMERA_LAB_DIR:-$PWD/.camera-lab}
guest_env="TENDER='$tender' WORK='$work' BOB='$bob' BOB30='$bob30' MINT='$mint_url' TENDER_PASSPHRASE_FILE='$work/passphrase'"
CAMERAS=2 SCAN_TIMEOUT=1800 CAMERA_LAB_TIMEOUT=1920 \
    SCAN_CMD="$guest_env sh '$PWD/Tests/CameraLab/in-guest.sh'" \
    EXPECT="camera-tests: all passed" CAMERA_LAB_DIR=$lab \
    bash Hardware/camera-lab/run.sh >"$work/lab.log" || true
grep -a '^guest:' "$work/lab.log" || true
grep -a -E '^(PASS|FAIL)' "$lab/out/scan.out" || true

# After the lab, online again: Bob's wallet as the guest left it (copied to LAB_OUT, since the
# guest's writes to the host's folders stay in its overlay) swaps the tokens it took offline.
host_failed=0
host_passed=0
host_pass() { echo "PASS $1"; host_passed=$((host_passed + 1)); }
host_fail() { echo "FAIL $1"; host_failed=1; }
cashu_balance() { # cashu_balance DIR FIELD: sat at the mint, as `tender cashu balance --json` says
    "$tender" cashu balance --data-dir "$1" --json | python3 -c "import json, sys
print(sum(int(b['$2']) for b in json.load(sys.stdin) if b['unit'] == 'sat'))"
}
if [ -d "$lab/out/bob" ]; then
    held=$(cashu_balance "$lab/out/bob" atRisk) || true
    if [ "$held" = 34 ] && [ "$(cashu_balance "$lab/out/bob" spendable)" = 0 ]; then
        host_pass "cashu (host): Bob's wallet as the guest left it holds 5 + 21 + 8 = 34 sat taken offline, at risk"
    else
        host_fail "cashu (host): Bob's wallet as the guest left it holds '$held' sat at risk, not 34"
    fi
    synced=0
    "$tender" cashu sync --data-dir "$lab/out/bob" >"$work/sync.out" 2>&1 || synced=$?
    spendable=$(cashu_balance "$lab/out/bob" spendable) || true
    at_risk=$(cashu_balance "$lab/out/bob" atRisk) || true
    payer=$(bash "$rig/wallet.sh" "$mint_url" "$work/payer" balance 2>/dev/null | grep -o '[0-9]* sat' | head -n 1) || true
    if [ $synced -eq 0 ] && grep -q "swapped 34 sat" "$work/sync.out" && [ "$spendable" = 34 ] &&
        [ "$at_risk" = 0 ] && [ "$payer" = "30 sat" ]; then
        host_pass "cashu sync (host): swapped 34 sat at the mint; Bob holds 5 + 21 + 8 = 34 sat spendable, the payer 64 - 34 = 30"
    else
        host_fail "cashu sync (host): exit $synced, spendable '$spendable', at risk '$at_risk', payer '$payer': $(tail -n 3 "$work/sync.out")"
    fi
else
    host_fail "cashu sync (host): the guest left no copy of Bob's wallet in $lab/out/bob"
fi

passed=$(grep -c '^PASS' "$lab/out/scan.out" 2>/dev/null) || true
passed=$((${passed:-0} + host_passed))
elapsed=$(($(date +%s) - started))
if grep -q "camera-lab: 1 passed" "$work/lab.log" && [ $host_failed -eq 0 ]; then
    echo "camera-lab: $passed passed, 0 failed in $elapsed s"
else
    tail -n 20 "$work/lab.log"
    echo "camera-lab: $passed passed, failures above in $elapsed s (logs in $lab/out)"
    exit 1
fi
