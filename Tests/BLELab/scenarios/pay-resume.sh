# Exactly once when the link is cut at each message boundary: the node at one end is killed
# (SIGKILL, TENDER_CRASH_AT) and started again, and the payer's next `tender pay --ble` to Bob
# settles what the cut left. Rounds, each checked on Alice's node:
#   1. Bob dies on the payer's first message: no payment was made (400 spendable).
#   2. Bob, restarted, is paid (300 left).
#   3. Bob dies with the payment offered, unchecked: Alice's payment is in doubt; paying again
#      sends the same payment, Bob accepts it now (200 left, nothing new paid).
#   4. Bob dies after accepting, before answering: in doubt; paying again gets the receipt he
#      signed before, and he is not credited twice (100 left).
#   5. Alice dies with the payment handed over: pending; paying the same request again sends
#      that payment, not a new one (0 left).
# At the end Bob holds exactly 400.
NOTE_COUNT=4
BLE_TIMEOUT=600
. "$(dirname "${BASH_SOURCE[0]}")/../nodes/payment.sh"

# One `tender receive --ble --once` of Bob's (crashing at CRASH_POINT when given); its output in
# bob.N.out, "bob-ready-N" signalled once it advertises.
serve() { # serve N [CRASH_POINT]
    local out=$BLE_SHARED/bob.$1.out waited=0
    TENDER_CRASH_AT=${2:-} "$TENDER" receive --ble --amount 100 --once \
        --data-dir "$BLE_WORK/bob" >"$out" 2>&1 &
    local pid=$!
    until grep -aq '^ready: advertising' "$out"; do
        sleep 0.5
        waited=$((waited + 1))
        [ $waited -lt 120 ] || { echo "Bob's node $1 never advertised"; cat "$out"; return 1; }
    done
    lab_signal "bob-ready-$1"
    wait $pid
    echo "Bob's node $1 (${2:-no crash}) exited with status $?"
    cat "$out"
}

peripheral() {
    use_wallet bob
    serve 1 receive.connected
    serve 2
    serve 3 receive.offered
    serve 4
    serve 5 receive.accepted
    serve 6
    serve 7
    report_bob_balance
    sleep 600
}

# Alice pays Bob's node N (waiting until it advertises); output in alice.N.out.
pay_bob() { # pay_bob N
    lab_wait "bob-ready-$1" 120 || { echo "Bob's node $1 never came"; return 99; }
    "$TENDER" pay --ble --to "$(cat "$BLE_SHARED/bob.address")" --amount 100 \
        --data-dir "$BLE_WORK/alice" >"$BLE_SHARED/alice.$1.out" 2>&1
    local status=$?
    echo "Alice's payment to node $1 exited with status $status"
    cat "$BLE_SHARED/alice.$1.out"
    return $status
}

# Alice's balance has SPENDABLE spendable and PENDING pending + in doubt, after round ROUND.
expect_alice() { # expect_alice ROUND SPENDABLE PENDING
    local file=$BLE_WORK/alice.balance spendable pending in_doubt
    "$TENDER" balance --json --data-dir "$BLE_WORK/alice" >"$file"
    "$TENDER" payments list --data-dir "$BLE_WORK/alice"
    read -r spendable pending in_doubt <<<"$(balance_of "$file" spendable pending inDoubt)"
    [ "$spendable" = "$2" ] && [ $((pending + in_doubt)) = "$3" ] \
        || { echo "round $1: Alice's balance is wrong (expected $2 spendable, $3 unsettled):"; cat "$file"; return 1; }
    echo "round $1: Alice has $2 spendable, $3 unsettled"
}

central() {
    use_wallet alice
    ! pay_bob 1 || { echo "round 1: paid although Bob died"; return 1; }
    expect_alice 1 400 0 || return 1

    pay_bob 2 || return 1
    expect_alice 2 300 0 || return 1

    ! pay_bob 3 || { echo "round 3: paid although Bob died"; return 1; }
    grep -q 'in doubt' "$BLE_SHARED/alice.3.out" || { echo "round 3: not reported in doubt"; return 1; }
    expect_alice 3 200 100 || return 1
    pay_bob 4 || return 1
    grep -q 'Nothing new paid' "$BLE_SHARED/alice.4.out" || { echo "round 3: paid anew"; return 1; }
    expect_alice 4 200 0 || return 1

    ! pay_bob 5 || { echo "round 4: paid although Bob died"; return 1; }
    expect_alice 5 100 100 || return 1
    pay_bob 6 || return 1
    grep -q 'Nothing new paid' "$BLE_SHARED/alice.6.out" || { echo "round 4: paid anew"; return 1; }
    expect_alice 6 100 0 || return 1

    TENDER_CRASH_AT=pay.handed-over pay_bob 7 && { echo "round 5: Alice did not die"; return 1; }
    expect_alice 7 0 100 || return 1
    "$TENDER" pay --ble --to "$(cat "$BLE_SHARED/bob.address")" --amount 100 \
        --data-dir "$BLE_WORK/alice" | tee "$BLE_SHARED/alice.8.out"
    [ "${PIPESTATUS[0]}" = 0 ] || return 1
    grep -q '^Paid 100' "$BLE_SHARED/alice.8.out" || { echo "round 5: the payment was not settled"; return 1; }
    check_both_balances 0 400
}
