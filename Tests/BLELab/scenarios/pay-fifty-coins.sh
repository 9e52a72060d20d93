# Payments of 50 coins, both ways a payer can reach a payee: Alice holds 100 notes of 2 and
# pays two of Bob's requests of 100 with 50 coins each, first over GATT (`--channel gatt`: the
# windowed link fragments the offer), then as `--channel auto` chooses for that many coins:
# Bob's LE L2CAP channel, which his info characteristic offers. The figures of both are
# printed; balances checked on both nodes.
NOTE_COUNT=100
NOTE_AMOUNT=2
BLE_READY="ready: advertising"
BLE_TIMEOUT=300
. "$(dirname "${BASH_SOURCE[0]}")/../nodes/payment.sh"

peripheral() { receive_payments 2; }

central() {
    use_wallet alice
    pay_bob --channel gatt || return 1
    grep -q '^On the air (GATT)' "$BLE_SHARED/alice.out" || { echo "not over GATT"; return 1; }
    pay_bob || return 1
    grep -q '^On the air (L2CAP channel)' "$BLE_SHARED/alice.out" \
        || { echo "auto did not take the L2CAP channel for 50 coins"; return 1; }
    check_both_balances 0 200
}
