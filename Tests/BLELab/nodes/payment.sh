# Shared by the payment scenarios (sourced by them, in both VMs and on the host): Alice holds
# notes from a trusted issuer (three of 100 unless the scenario sets NOTE_COUNT and
# NOTE_AMOUNT), Bob takes payments of 100 and reports his balance; after paying, Alice checks
# both nodes.
NOTE_COUNT=${NOTE_COUNT:-3}
NOTE_AMOUNT=${NOTE_AMOUNT:-100}

# Host side, before the boot: the wallets (Bob and each of PAYERS, alice unless set), the
# payers' notes, Bob's address.
prepare() { prepare_wallets; }

prepare_wallets() {
    local shared=$BLE_SHARED payer issuer
    echo "ble lab passphrase" >"$shared/passphrase"
    export TENDER_PASSPHRASE_FILE=$shared/passphrase
    "$TENDER" init --data-dir "$shared/bob" --scrypt-n 1024 >/dev/null
    "$TENDER" issuer init --data-dir "$shared/issuer" --scrypt-n 1024 >/dev/null
    issuer=$("$TENDER" issuer address --data-dir "$shared/issuer")
    "$TENDER" trust add "$issuer" --data-dir "$shared/bob" >/dev/null
    for payer in ${PAYERS:-alice}; do
        "$TENDER" init --data-dir "$shared/$payer" --scrypt-n 1024 >/dev/null
        "$TENDER" trust add "$issuer" --data-dir "$shared/$payer" >/dev/null
        "$TENDER" issuer issue --data-dir "$shared/issuer" \
            --to "$("$TENDER" address --data-dir "$shared/$payer")" --amount "$NOTE_AMOUNT" \
            --count "$NOTE_COUNT" --out "$shared/$payer.notes" >/dev/null
        "$TENDER" receive "$shared/$payer.notes" --data-dir "$shared/$payer" >/dev/null
    done
    "$TENDER" address --data-dir "$shared/bob" >"$shared/bob.address"
}

# Each node works on its own copy in the VM's memory (SQLite in WAL mode wants local files).
use_wallet() { # use_wallet NAME
    export TENDER_PASSPHRASE_FILE=$BLE_SHARED/passphrase
    cp -r "$BLE_SHARED/$1" "$BLE_WORK/$1"
}

# VM A: Bob takes one payment of 100 (his output, with his request's URI, in bob.out); extra
# arguments go to `tender receive`.
receive_one_payment() {
    use_wallet bob
    "$TENDER" receive --ble --amount 100 --once --data-dir "$BLE_WORK/bob" "$@" | tee "$BLE_SHARED/bob.out"
    [ "${PIPESTATUS[0]}" = 0 ] || return 1
    report_bob_balance
    sleep 600
}

# VM A: Bob's `tender receive --ble` (no --once) serves until N payments landed (a payment
# offered again is reported "already accepted" and not counted), then reports his balance.
receive_payments() { # receive_payments N
    use_wallet bob
    "$TENDER" receive --ble --amount 100 --data-dir "$BLE_WORK/bob" | tee "$BLE_SHARED/bob.out" &
    local waited=0
    until [ "$(grep -a '^Received 100' "$BLE_SHARED/bob.out" | grep -vc 'already accepted')" -ge "$1" ]; do
        sleep 1
        waited=$((waited + 1))
        [ $waited -lt 300 ] || { echo "Bob did not get $1 payments"; return 1; }
    done
    report_bob_balance
    sleep 600
}

# VM B: `tender peers` (a scan of 8 s, its JSON in FILE) until CHECK passes, four scans at most:
# on a busy machine BlueZ may report an advertiser only after the first scan ended.
peers_until() { # peers_until FILE CHECK...
    local file=$1 attempt
    shift
    for attempt in 1 2 3 4; do
        "$TENDER" peers --seconds 8 --json >"$file"
        "$@" && { cat "$file"; return 0; }
        echo "tender peers, scan $attempt: not yet"
    done
    cat "$file"
    return 1
}

report_bob_balance() {
    "$TENDER" balance --json --data-dir "$BLE_WORK/bob" >"$BLE_SHARED/bob.balance"
    lab_signal bob-done
}

# Fields of the native coin's balance in a `tender balance --json` file (0 when the wallet
# holds none of it), on one line. One Python for all of them: each start costs the emulated VM
# about half a second.
balance_of() { # balance_of FILE FIELD...
    python3 -c 'import json, sys
assets = json.load(open(sys.argv[1]))["assets"]
print(*(sum(int(a[f]) for a in assets if int(a["asset"], 16) == 0) for f in sys.argv[2:]))' "$@"
}

# VM B, after Alice paid: Alice's spendable balance ALICE (200 unless given) with nothing
# pending or in doubt, Bob's BOB (100 unless given).
check_both_balances() { # check_both_balances [ALICE BOB]
    local alice=${1:-200} bob=${2:-100}
    "$TENDER" payments list --data-dir "$BLE_WORK/alice"
    "$TENDER" balance --json --data-dir "$BLE_WORK/alice" | tee "$BLE_SHARED/alice.balance"
    lab_wait bob-done 60 || { echo "Bob never reported his balance"; return 1; }
    cat "$BLE_SHARED/bob.balance"
    [ "$(balance_of "$BLE_SHARED/alice.balance" spendable pending inDoubt)" = "$alice 0 0" ] \
        || { echo "Alice's balance is wrong (expected $alice spendable, none pending)"; return 1; }
    [ "$(balance_of "$BLE_SHARED/bob.balance" spendable)" = "$bob" ] \
        || { echo "Bob's balance is wrong (expected $bob)"; return 1; }
    echo "$BLE_SCENARIO: PASS"
}

# VM B: Alice pays Bob's current request by his address (Noise XX), prints the payment's
# figures and checks both nodes (arguments as check_both_balances).
pay_bob_and_check() { # pay_bob_and_check [ALICE BOB]
    use_wallet alice
    pay_bob || return 1
    check_both_balances "$@"
}

# VM B: Alice pays Bob 100 by his address (extra arguments go to `tender pay`) and prints the
# payment's figures.
pay_bob() { # pay_bob [ARGUMENTS...]
    "$TENDER" pay --ble --to "$(cat "$BLE_SHARED/bob.address")" --amount 100 \
        --data-dir "$BLE_WORK/alice" "$@" | tee "$BLE_SHARED/alice.out"
    [ "${PIPESTATUS[0]}" = 0 ] || return 1
    report_air "$BLE_SHARED/alice.out"
}

# The figures a payment leaves on the payer's terminal ("On the air (PATH): …"), for
# BENCHMARKS.md.
report_air() { # report_air FILE
    grep -a '^On the air' "$1" | sed "s/^/$BLE_SCENARIO: /"
}
