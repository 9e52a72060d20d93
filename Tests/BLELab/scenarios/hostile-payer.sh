# A hostile payer against a running payee (Tests/BLELab/Hostile): garbage and truncated
# datagrams, declared lengths beyond any message, floods of link and message ids, an IK session
# to the wrong static key, an altered and a replayed record, a forged payment (refused by name)
# and a real one (Mallory's, from a file) offered twice (the same receipt; credited once), and
# a flood of Cashu offers in one session (each refused, the link ended past 8).
# Bob's `tender receive --ble` serves on: Alice then pays him over the air as usual. Bob's
# memory before and after the attacks is printed and must grow by less than 32 MiB.
PAYERS="alice mallory"
BLE_TIMEOUT=420
. "$(dirname "${BASH_SOURCE[0]}")/../nodes/payment.sh"

prepare() {
    prepare_wallets
    "$TENDER" pay --to "$(cat "$BLE_SHARED/bob.address")" --amount 100 \
        --out "$BLE_SHARED/mallory.payment" --data-dir "$BLE_SHARED/mallory" >/dev/null
}

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

peripheral() {
    use_wallet bob
    "$TENDER" receive --ble --amount 100 --data-dir "$BLE_WORK/bob" >"$BLE_SHARED/bob.out" 2>&1 &
    local pid=$! waited=0
    until grep -aq '^ready: advertising' "$BLE_SHARED/bob.out"; do
        sleep 0.5
        waited=$((waited + 1))
        [ $waited -lt 120 ] || { cat "$BLE_SHARED/bob.out"; return 1; }
    done
    local before after
    before=$(rss_kib $pid)
    lab_signal bob-ready
    lab_wait attacks-done 400 || { echo "the attacks never ended"; cat "$BLE_SHARED/bob.out"; return 1; }
    after=$(rss_kib $pid)
    echo "$before $after" >"$BLE_SHARED/bob.rss"
    echo "hostile-payer: Bob's memory $before KiB before the attacks, $after KiB after"
    lab_signal bob-measured
    waited=0
    # Mallory's payment, then Alice's (the replayed one is reported "already accepted").
    until [ "$(grep -a '^Received 100' "$BLE_SHARED/bob.out" | grep -vc 'already accepted')" -ge 2 ]; do
        sleep 1
        waited=$((waited + 1))
        [ $waited -lt 200 ] || { echo "Bob was not paid by Alice"; cat "$BLE_SHARED/bob.out"; return 1; }
    done
    cat "$BLE_SHARED/bob.out"
    report_bob_balance
    sleep 600
}

central() {
    lab_wait bob-ready 120 || { echo "Bob never advertised"; return 1; }
    "$(dirname "$TENDER")/BLEHostile" "$BLE_SHARED/mallory.payment"
    local status=$?
    lab_signal attacks-done
    [ $status = 0 ] || return 1
    lab_wait bob-measured 60 || return 1
    read -r before after <"$BLE_SHARED/bob.rss"
    [ $((after - before)) -lt 32768 ] || { echo "Bob's memory grew by $((after - before)) KiB"; return 1; }
    use_wallet alice
    "$TENDER" pay --ble --to "$(cat "$BLE_SHARED/bob.address")" --amount 100 \
        --data-dir "$BLE_WORK/alice" || return 1
    check_both_balances 200 200
}
