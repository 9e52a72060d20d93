# One payment by the payee's code, over the air (Noise IK): Bob's `tender receive --ble --once`
# shows his request as a code (its URI carries his session key, k=); Alice pays that request
# with `tender pay --ble --request URI`: she finds Bob by the request's advertised tag and the
# payment rides in the session's first message (one round trip). Balances checked on both.
BLE_READY="ready: advertising"
BLE_TIMEOUT=180
. "$(dirname "${BASH_SOURCE[0]}")/../nodes/payment.sh"

peripheral() { receive_one_payment; }

central() {
    use_wallet alice
    local uri
    uri=$(grep -a -m1 '^tender:' "$BLE_SHARED/bob.out") || { echo "no request URI from Bob"; return 1; }
    "$TENDER" pay --ble --request "$uri" --data-dir "$BLE_WORK/alice" || return $?
    check_both_balances
}
