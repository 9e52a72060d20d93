# One payment over the air through the real product: Bob's `tender receive --ble --once`
# advertises a request of 100; Alice's `tender pay --ble --to BOB --amount 100` finds him,
# opens a Noise XX session, pays and records his receipt. Balances are checked on both nodes;
# the payer's figures (bytes on the air, round trips, time from discovery) are printed.
BLE_READY="ready: advertising"
BLE_TIMEOUT=180
. "$(dirname "${BASH_SOURCE[0]}")/../nodes/payment.sh"

peripheral() { receive_one_payment; }

central() { pay_bob_and_check; }
