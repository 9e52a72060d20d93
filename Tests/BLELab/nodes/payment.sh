# Shared by the payment scenarios (sourced by them, in both VMs and on the host): Alice holds
# three notes of 100 from a trusted issuer, Bob takes one payment of 100 and reports his
# balance; after paying, Alice checks both nodes.

# Host side, before the boot: the wallets, the notes, Bob's address.
prepare() {
    local shared=$BLE_SHARED
    echo "ble lab passphrase" >"$shared/passphrase"
    export TENDER_PASSPHRASE_FILE=$shared/passphrase
    "$TENDER" init --data-dir "$shared/alice" --scrypt-n 1024 >/dev/null
    "$TENDER" init --data-dir "$shared/bob" --scrypt-n 1024 >/dev/null
    "$TENDER" issuer init --data-dir "$shared/issuer" --scrypt-n 1024 >/dev/null
    local issuer
    issuer=$("$TENDER" issuer address --data-dir "$shared/issuer")
    "$TENDER" trust add "$issuer" --data-dir "$shared/alice" >/dev/null
    "$TENDER" trust add "$issuer" --data-dir "$shared/bob" >/dev/null
    "$TENDER" issuer issue --data-dir "$shared/issuer" \
        --to "$("$TENDER" address --data-dir "$shared/alice")" --amount 100 --count 3 \
        --out "$shared/notes" >/dev/null
    "$TENDER" receive "$shared/notes" --data-dir "$shared/alice" >/dev/null
    "$TENDER" address --data-dir "$shared/bob" >"$shared/bob.address"
}

# Each node works on its own copy in the VM's memory (SQLite in WAL mode wants local files).
use_wallet() { # use_wallet NAME
    export TENDER_PASSPHRASE_FILE=$BLE_SHARED/passphrase
    cp -r "$BLE_SHARED/$1" "$BLE_WORK/$1"
}

# VM A: Bob takes one payment of 100 (his output, with his request's URI, in bob.out).
receive_one_payment() {
    use_wallet bob
    "$TENDER" receive --ble --amount 100 --once --data-dir "$BLE_WORK/bob" | tee "$BLE_SHARED/bob.out"
    [ "${PIPESTATUS[0]}" = 0 ] || return 1
    "$TENDER" balance --json --data-dir "$BLE_WORK/bob" >"$BLE_SHARED/bob.balance"
    lab_signal bob-done
    sleep 600
}

# VM B, after Alice paid: Alice 200 spendable and nothing pending, Bob 100 received.
check_both_balances() {
    "$TENDER" payments list --data-dir "$BLE_WORK/alice"
    "$TENDER" balance --json --data-dir "$BLE_WORK/alice" | tee "$BLE_SHARED/alice.balance"
    lab_wait bob-done 60 || { echo "Bob never reported his balance"; return 1; }
    cat "$BLE_SHARED/bob.balance"
    grep -q '"spendable" *: *"200"' "$BLE_SHARED/alice.balance" \
        && grep -q '"pending" *: *"0"' "$BLE_SHARED/alice.balance" \
        || { echo "Alice's balance is wrong"; return 1; }
    grep -q '"spendable" *: *"100"' "$BLE_SHARED/bob.balance" || { echo "Bob's balance is wrong"; return 1; }
    echo "$BLE_SCENARIO: PASS"
}
