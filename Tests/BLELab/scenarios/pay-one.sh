# One payment over the air through the real product: Bob's `tender receive --ble --once`
# advertises a request of 100; Alice's `tender pay --ble --to BOB --amount 100` finds him,
# opens a Noise XX session, pays and records his receipt. Balances are checked on both nodes.
BLE_READY="ready: advertising"
BLE_TIMEOUT=180
. "$(dirname "${BASH_SOURCE[0]}")/../nodes/payment.sh"

peripheral() { receive_one_payment; }

central() {
    use_wallet alice
    "$TENDER" pay --ble --to "$(cat "$BLE_SHARED/bob.address")" --amount 100 \
        --data-dir "$BLE_WORK/alice" || return $?
    check_both_balances
}
