# Two payers one after the other: Bob's `tender receive --ble` (no --once) serves Alice, then
# Carol (another wallet on VM B), with a fresh request after each payment; first `tender
# peers` lists him with his request; Carol pays over Bob's LE L2CAP channel. Balances
# checked on all three.
PAYERS="alice carol"
BLE_READY="ready: advertising"
BLE_TIMEOUT=240
. "$(dirname "${BASH_SOURCE[0]}")/../nodes/payment.sh"

peripheral() { receive_payments 2; }

central() {
    local bob payer id
    bob=$(cat "$BLE_SHARED/bob.address")
    # `tender peers` lists Bob with his request's amount and id prefix, as advertised.
    lists_bob() {
        id=$(grep -a -m1 '^tender:' "$BLE_SHARED/bob.out" | sed 's/.*[?&]id=\([0-9a-f]\{8\}\).*/\1/')
        python3 -c 'import json, sys
peers = json.load(open(sys.argv[1]))
assert any(p.get("amount") == "100" and p.get("requestIdPrefix") == sys.argv[2]
           and p.get("name") == "Tender" for p in peers), peers' "$BLE_SHARED/peers.json" "$id"
    }
    peers_until "$BLE_SHARED/peers.json" lists_bob || { echo "tender peers did not list Bob's request $id"; return 1; }
    # Carol asks for Bob's L2CAP channel: the whole session (XX included) runs over it.
    for payer in alice carol; do
        use_wallet $payer
        "$TENDER" pay --ble --to "$bob" --amount 100 --data-dir "$BLE_WORK/$payer" \
            $([ $payer = carol ] && echo --channel l2cap) | tee "$BLE_SHARED/$payer.out"
        [ "${PIPESTATUS[0]}" = 0 ] || { echo "$payer could not pay"; return 1; }
    done
    grep -q '^On the air (L2CAP channel)' "$BLE_SHARED/carol.out" || { echo "Carol not over L2CAP"; return 1; }
    "$TENDER" balance --json --data-dir "$BLE_WORK/carol" | tee "$BLE_SHARED/carol.balance"
    [ "$(balance_of "$BLE_SHARED/carol.balance" spendable)" = 200 ] || { echo "Carol's balance is wrong"; return 1; }
    check_both_balances 200 200
}
