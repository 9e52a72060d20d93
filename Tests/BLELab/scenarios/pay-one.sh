# One payment over the air through the real product: Bob's `tender receive --ble --once`
# advertises a request of 100; Alice's `tender pay --ble --to BOB --amount 100` finds him,
# opens a Noise XX session, pays and records his receipt. Balances are checked on both nodes.
BLE_READY="ready: advertising"
BLE_TIMEOUT=180

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
peripheral() {
    export TENDER_PASSPHRASE_FILE=$BLE_SHARED/passphrase
    cp -r "$BLE_SHARED/bob" "$BLE_WORK/bob"
    "$TENDER" receive --ble --amount 100 --once --data-dir "$BLE_WORK/bob" || return $?
    "$TENDER" balance --json --data-dir "$BLE_WORK/bob" >"$BLE_SHARED/bob.balance"
    lab_signal bob-done
    sleep 600
}

central() {
    export TENDER_PASSPHRASE_FILE=$BLE_SHARED/passphrase
    cp -r "$BLE_SHARED/alice" "$BLE_WORK/alice"
    "$TENDER" pay --ble --to "$(cat "$BLE_SHARED/bob.address")" --amount 100 \
        --data-dir "$BLE_WORK/alice" || return $?
    "$TENDER" payments list --data-dir "$BLE_WORK/alice"
    "$TENDER" balance --json --data-dir "$BLE_WORK/alice" | tee "$BLE_SHARED/alice.balance"
    lab_wait bob-done 60 || { echo "Bob never reported his balance"; return 1; }
    cat "$BLE_SHARED/bob.balance"
    # Alice: 200 spendable, nothing pending; Bob: 100 received.
    grep -q '"spendable" *: *"200"' "$BLE_SHARED/alice.balance" && grep -q '"pending" *: *"0"' "$BLE_SHARED/alice.balance" || { echo "Alice's balance is wrong"; return 1; }
    grep -q '"spendable" *: *"100"' "$BLE_SHARED/bob.balance" || { echo "Bob's balance is wrong"; return 1; }
    echo "pay-one: PASS"
}
