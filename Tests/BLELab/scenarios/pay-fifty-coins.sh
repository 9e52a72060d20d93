# A payment of 50 coins (fragmentation on the link and records in the session): Alice holds
# 50 notes of 2 and pays Bob's request of 100 with all of them. Balances checked on both.
NOTE_COUNT=50
NOTE_AMOUNT=2
BLE_READY="ready: advertising"
BLE_TIMEOUT=240
. "$(dirname "${BASH_SOURCE[0]}")/../nodes/payment.sh"

peripheral() { receive_one_payment; }

central() { pay_bob_and_check 0 100; }
