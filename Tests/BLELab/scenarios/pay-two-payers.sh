# Two payers one after the other: Bob's `tender receive --ble` (no --once) serves Alice, then
# Carol (another wallet on VM B), with a fresh request after each payment; first `tender
# peers` lists him with his request. Balances checked on all three.
PAYERS="alice carol"
BLE_READY="ready: advertising"
BLE_TIMEOUT=240
. "$(dirname "${BASH_SOURCE[0]}")/../nodes/payment.sh"

peripheral() {
    use_wallet bob
    "$TENDER" receive --ble --amount 100 --data-dir "$BLE_WORK/bob" | tee "$BLE_SHARED/bob.out" &
    local waited=0
    until [ "$(grep -ac '^Received 100' "$BLE_SHARED/bob.out")" -ge 2 ]; do
        sleep 1
        waited=$((waited + 1))
        [ $waited -lt 200 ] || { echo "Bob did not get two payments"; return 1; }
    done
    report_bob_balance
    sleep 600
}

central() {
    local bob payer id
    bob=$(cat "$BLE_SHARED/bob.address")
    # `tender peers` lists Bob with his request's amount and id prefix, as advertised.
    "$TENDER" peers --seconds 8 --json | tee "$BLE_SHARED/peers.json"
    id=$(grep -a -m1 '^tender:' "$BLE_SHARED/bob.out" | sed 's/.*[?&]id=\([0-9a-f]\{8\}\).*/\1/')
    python3 -c 'import json, sys
peers = json.load(open(sys.argv[1]))
assert any(p.get("amount") == "100" and p.get("requestIdPrefix") == sys.argv[2] for p in peers), peers' \
        "$BLE_SHARED/peers.json" "$id" || { echo "tender peers did not list Bob's request $id"; return 1; }
    for payer in alice carol; do
        use_wallet $payer
        "$TENDER" pay --ble --to "$bob" --amount 100 --data-dir "$BLE_WORK/$payer" \
            | tee "$BLE_SHARED/$payer.out"
        [ "${PIPESTATUS[0]}" = 0 ] || { echo "$payer could not pay"; return 1; }
    done
    "$TENDER" balance --json --data-dir "$BLE_WORK/carol" | tee "$BLE_SHARED/carol.balance"
    [ "$(balance_of "$BLE_SHARED/carol.balance" spendable)" = 200 ] || { echo "Carol's balance is wrong"; return 1; }
    check_both_balances 200 200
}
