#!/usr/bin/env bash
# End to end through a real V4L2 camera (Hardware/camera-lab): `tender show` turns a payment
# into an animated QR loop, the lab plays it into vivid's loopback, `tender scan --camera`
# reads /dev/video0 and must return the payment byte for byte.
#   TENDER=.build/debug/tender bash Tests/CameraLab/scan-camera.sh
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
"$tender" trust add "$issuer" --data-dir "$work/alice" >/dev/null
"$tender" issuer issue --data-dir "$work/issuer" --to "$("$tender" address --data-dir "$work/alice")" \
    --amount 100 --count 3 --out "$work/notes"
"$tender" receive "$work/notes" --data-dir "$work/alice" >/dev/null
"$tender" pay --data-dir "$work/alice" --to "$("$tender" address --data-dir "$work/bob")" \
    --amount 250 --out "$work/payment" >/dev/null
# Small fragments make an animated loop; each code held 6 video frames = 10 codes a second.
"$tender" show "$work/payment" --fragment 300 --hold 6 --frames-out "$work/clip.grey"

lab=${CAMERA_LAB_DIR:-$PWD/.camera-lab}
FEED_FILE=$work/clip.grey \
    SCAN_CMD="'$tender' scan --camera \"\$CAMERA\" --timeout 60 --out \"\$LAB_OUT/scanned\" && echo SCANNED-OK" \
    EXPECT=SCANNED-OK CAMERA_LAB_DIR=$lab \
    bash Hardware/camera-lab/run.sh | tail -n 4
if cmp -s "$work/payment" "$lab/out/scanned"; then
    echo "camera-lab: the payment came back byte for byte through /dev/video0"
    echo "camera-lab: 1 passed, 0 failed"
else
    echo "camera-lab: the scanned payment differs from the one shown"
    echo "camera-lab: 0 passed, 1 failed"
    exit 1
fi
