# QR to Bluetooth (Noise IK): Bob's `tender receive --ble --once` writes his request's code
# as an image (`--code-out`; its URI carries his session key, k=); Alice reads the payee's
# request from that image (`tender pay --ble --image`, the same path as `--camera`), finds Bob
# by the request's advertised tag, and the payment rides in the session's first message (one
# round trip). Balances checked on both nodes.
BLE_READY="ready: advertising"
BLE_TIMEOUT=180
. "$(dirname "${BASH_SOURCE[0]}")/../nodes/payment.sh"

peripheral() { receive_one_payment --code-out "$BLE_SHARED/bob-code.png"; }

central() {
    use_wallet alice
    "$TENDER" pay --ble --image "$BLE_SHARED/bob-code.png" --data-dir "$BLE_WORK/alice" \
        | tee "$BLE_SHARED/alice.out"
    [ "${PIPESTATUS[0]}" = 0 ] || return 1
    grep -q '1 round trips' "$BLE_SHARED/alice.out" || { echo "IK took more than one round trip"; return 1; }
    report_air "$BLE_SHARED/alice.out"
    check_both_balances
}
