#!/usr/bin/env bash
# The main job on embedded defaults: an issuer funds Alice, Alice pays Bob offline through a
# file, Bob verifies and returns a signed receipt, Alice records it; then the same through QR
# codes (a request image, the payment as an animated code); then a double spend is attempted
# and refused with evidence.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh
swift build -c release --product tender
tender="$PWD/.build/release/tender"

work=$(mktemp -d /tmp/tender-demo.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
echo "demo passphrase" > passphrase
export TENDER_PASSPHRASE_FILE="$work/passphrase"
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }

step "$tender" init --data-dir alice --scrypt-n 16384
step "$tender" init --data-dir bob --scrypt-n 16384
step "$tender" issuer init --data-dir issuer --scrypt-n 16384
issuer=$("$tender" issuer address --data-dir issuer)
alice=$("$tender" address --data-dir alice)
bob=$("$tender" address --data-dir bob)
step "$tender" trust add "$issuer" --data-dir alice
step "$tender" trust add "$issuer" --data-dir bob
step "$tender" issuer issue --data-dir issuer --to "$alice" --amount 500 --count 4 --out notes.tender
step "$tender" receive notes.tender --data-dir alice
step "$tender" balance --data-dir alice
step "$tender" pay --data-dir alice --to "$bob" --amount 1250 --memo "market stall" --out payment.tender
step "$tender" inspect payment.tender
step "$tender" receive payment.tender --data-dir bob --receipt-out receipt.tender
step "$tender" receipt receipt.tender --data-dir alice
step "$tender" balance --data-dir alice
step "$tender" balance --data-dir bob
step "$tender" history --data-dir alice

# No Bluetooth, no files: a request as a QR code, the payment back as an animated code.
step "$tender" request --data-dir bob --amount 300 --memo "QR demo" --qr png --out request.png
step "$tender" scan --image request.png
uri=$("$tender" scan --image request.png | tail -n 1)
step "$tender" pay --data-dir alice --request "$uri" --out qr-payment.tender
step "$tender" show qr-payment.tender --fragment 300 --frames-out payment.grey
printf '\n\033[1m$ %s\033[0m\n' "tender receive --data-dir bob --frames 640x480 --qr < payment.grey"
"$tender" receive --data-dir bob --frames 640x480 --qr --receipt-out qr-receipt.tender <payment.grey
step "$tender" receipt qr-receipt.tender --data-dir alice
step "$tender" balance --data-dir bob

# Alice's wallet is copied (as a cheat would) and the same coins are paid to Carol as well.
cp -r alice alice-copy
step "$tender" init --data-dir carol --scrypt-n 16384
carol=$("$tender" address --data-dir carol)
step "$tender" trust add "$issuer" --data-dir carol
step "$tender" pay --data-dir alice-copy --to "$carol" --amount 120 --out second.tender
step "$tender" pay --data-dir alice --to "$carol" --amount 100 --out first.tender
step "$tender" receive first.tender --data-dir carol --receipt-out carol-receipt.tender
echo "(the second payment spends the same change coin: Carol must refuse it)"
if "$tender" receive second.tender --data-dir carol; then
    echo "demo: the double spend was accepted" >&2
    exit 1
fi
step "$tender" evidence --data-dir carol
echo
echo "Demo complete."
