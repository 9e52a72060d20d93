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
#     says it waits for the camera and serves on, then stops cleanly on SIGTERM.
#   TENDER=.build/debug/tender bash Tests/CameraLab/camera-tests.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
tender=$(realpath "${TENDER:-.build/debug/tender}")
work=$(mktemp -d /tmp/tender-camera.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "camera test passphrase" >"$work/passphrase"
export TENDER_PASSPHRASE_FILE=$work/passphrase

"$tender" init --data-dir "$work/alice" --scrypt-n 1024 >/dev/null
"$tender" init --data-dir "$work/bob" --scrypt-n 1024 >/dev/null
"$tender" issuer init --data-dir "$work/issuer" --scrypt-n 1024 >/dev/null
issuer=$("$tender" issuer address --data-dir "$work/issuer")
bob=$("$tender" address --data-dir "$work/bob")
"$tender" trust add "$issuer" --data-dir "$work/alice" >/dev/null
"$tender" trust add "$issuer" --data-dir "$work/bob" >/dev/null
"$tender" issuer issue --data-dir "$work/issuer" --to "$("$tender" address --data-dir "$work/alice")" \
    --amount 100 --count 4 --out "$work/notes"
"$tender" receive "$work/notes" --data-dir "$work/alice" >/dev/null
# Test 1's payment, as a clip: small fragments make an animated loop; each code held 6 video
# frames = 10 codes a second.
"$tender" pay --data-dir "$work/alice" --to "$bob" --amount 100 --out "$work/payment" >/dev/null
"$tender" show "$work/payment" --fragment 300 --hold 6 --frames-out "$work/clip.grey" >/dev/null
# Bob's receipt for that payment, as a screen: in test 2 it is still on show when Alice pays
# again, and must not be taken for the new payment's receipt.
"$tender" receive "$work/payment" --data-dir "$work/bob" --receipt-out "$work/old-receipt" >/dev/null
"$tender" show "$work/old-receipt" --frames-out "$work/old-receipt.grey" >/dev/null

lab=${CAMERA_LAB_DIR:-$PWD/.camera-lab}
guest_env="TENDER='$tender' WORK='$work' BOB='$bob' TENDER_PASSPHRASE_FILE='$work/passphrase'"
CAMERAS=2 SCAN_TIMEOUT=1200 CAMERA_LAB_TIMEOUT=1320 \
    SCAN_CMD="$guest_env sh '$PWD/Tests/CameraLab/in-guest.sh'" \
    EXPECT="camera-tests: all passed" CAMERA_LAB_DIR=$lab \
    bash Hardware/camera-lab/run.sh >"$work/lab.log" || true
grep -a '^guest:' "$work/lab.log" || true
grep -a -E '^(PASS|FAIL)' "$lab/out/scan.out" || true
if grep -q "camera-lab: 1 passed" "$work/lab.log"; then
    echo "camera-lab: $(grep -c '^PASS' "$lab/out/scan.out") passed, 0 failed"
else
    tail -n 20 "$work/lab.log"
    echo "camera-lab: $(grep -c '^PASS' "$lab/out/scan.out" 2>/dev/null || echo 0) passed, failures above (logs in $lab/out)"
    exit 1
fi
