# bluetoothd restarted under a running payee: Bob's `tender receive --ble --once` sees it go
# (SIGTERM: the adapter powers off, every registration is gone) and come back, registers its
# service and advertisement again, and Alice then pays him. Balances checked on both.
BLE_READY="ready: advertising"
BLE_TIMEOUT=240
. "$(dirname "${BASH_SOURCE[0]}")/../nodes/payment.sh"

peripheral() { receive_one_payment; }

central() {
    lab_fault restart-bluetoothd A term
    local waited=0
    until grep -aq 'registered again' "$BLE_SHARED/bob.out"; do
        sleep 1
        waited=$((waited + 1))
        [ $waited -lt 60 ] || { echo "Bob never registered again"; return 1; }
    done
    pay_bob_and_check
}
