# The node takes payments over the air: Bob runs `tender node` with its Bluetooth payee on
# ([payee] bluetooth = "on", name "Bob's stall" through the environment) and charges through
# the API as the point-of-sale page does (POST /api/requests). Alice pays the first request by
# Bob's address (Noise XX), then the second from its code as the API draws it (its URI carries
# the node's session key: Noise IK, one round trip). Bob's node shows each request paid, its
# event stream carried "paying" then "payment", tender_ble_sessions_total{outcome="paid"} is 2;
# a third request left unpaid is withdrawn when it expires; `tender peers` saw the advertised
# name. Balances checked on both nodes.
BLE_READY="node: charging"
BLE_TIMEOUT=240
. "$(dirname "${BASH_SOURCE[0]}")/../nodes/payment.sh"

# The API on a Unix socket: the VMs have no loopback interface up.
node_api() { python3 "$BLE_SCENARIO_DIR/../nodes/node_api.py" "$BLE_WORK/bob" "$BLE_WORK/api.sock" "$@"; }

peripheral() {
    use_wallet bob
    TENDER_PAYEE_BLUETOOTH=on TENDER_PAYEE_NAME="Bob's stall" \
        "$TENDER" node --no-sync --data-dir "$BLE_WORK/bob" --listen "unix:$BLE_WORK/api.sock" \
        >"$BLE_SHARED/bob-node.log" 2>&1 &
    local verdict=$BLE_SHARED/bob-node.verdict first second
    echo "failed" >"$verdict"
    node_api wait-bluetooth || return 1
    node_api events "$BLE_SHARED/bob-events.txt" &
    first=$(node_api request 100) || return 1
    echo "node: charging $first"
    node_api wait-paid "$first" || return 1
    second=$(node_api request 100) || return 1
    node_api code "$second" "$BLE_SHARED/bob-code.png" || return 1
    lab_signal second-request
    node_api wait-paid "$second" || return 1
    # A request left unpaid stops being advertised when it expires.
    local unpaid
    unpaid=$(node_api request 100 2) || return 1
    local waited=0
    until grep -q "request $unpaid expired; not advertised" "$BLE_SHARED/bob-node.log"; do
        sleep 0.5
        waited=$((waited + 1))
        [ $waited -lt 240 ] || break  # two minutes; the verdict below names what is missing
    done
    local sessions
    sessions=$(node_api metric 'tender_ble_sessions_total{outcome="paid"}')
    {
        grep -q '^event: paying' "$BLE_SHARED/bob-events.txt" || echo "no paying event"
        [ "$(grep -c '^event: payment' "$BLE_SHARED/bob-events.txt")" = 2 ] || echo "not two payment events"
        [ "$sessions" = 2 ] || echo "tender_ble_sessions_total{outcome=\"paid\"} is $sessions, not 2"
        grep -q "request $unpaid expired; not advertised" "$BLE_SHARED/bob-node.log" \
            || echo "the expired request $unpaid was not withdrawn"
    } >"$verdict"
    [ -s "$verdict" ] || echo ok >"$verdict"
    report_bob_balance
    sleep 600
}

central() {
    use_wallet alice
    peers_until "$BLE_SHARED/peers.json" grep -q "Bob's stall" "$BLE_SHARED/peers.json" \
        || { echo "tender peers did not list Bob's stall"; return 1; }
    pay_bob || return 1
    lab_wait second-request 120 || { echo "Bob's node issued no second request"; return 1; }
    "$TENDER" pay --ble --image "$BLE_SHARED/bob-code.png" --data-dir "$BLE_WORK/alice" \
        | tee "$BLE_SHARED/alice-code.out"
    [ "${PIPESTATUS[0]}" = 0 ] || return 1
    grep -q '1 round trips' "$BLE_SHARED/alice-code.out" || { echo "IK took more than one round trip"; return 1; }
    lab_wait bob-done 120 || { echo "Bob's node never saw both payments"; tail -20 "$BLE_SHARED/bob-node.log"; return 1; }
    [ "$(cat "$BLE_SHARED/bob-node.verdict")" = ok ] \
        || { echo "Bob's node: $(cat "$BLE_SHARED/bob-node.verdict")"; return 1; }
    check_both_balances 100 200
}
