# One payment by the payee's code, over the air (Noise IK): Bob's `tender receive --ble --once`
# shows his request as a code (its URI carries his session key, k=); Alice pays that request
# with `tender pay --ble --request URI`: she finds Bob by the request's advertised tag and the
# payment rides in the session's first message (one round trip). Balances checked on both.
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
    "$TENDER" receive --ble --amount 100 --once --data-dir "$BLE_WORK/bob" | tee "$BLE_SHARED/bob.out"
    [ "${PIPESTATUS[0]}" = 0 ] || return 1
    "$TENDER" balance --json --data-dir "$BLE_WORK/bob" >"$BLE_SHARED/bob.balance"
    lab_signal bob-done
    sleep 600
}

central() {
    export TENDER_PASSPHRASE_FILE=$BLE_SHARED/passphrase
    cp -r "$BLE_SHARED/alice" "$BLE_WORK/alice"
    local uri
    uri=$(grep -a -m1 '^tender:' "$BLE_SHARED/bob.out") || { echo "no request URI from Bob"; return 1; }
    "$TENDER" pay --ble --request "$uri" --data-dir "$BLE_WORK/alice" || return $?
    "$TENDER" payments list --data-dir "$BLE_WORK/alice"
    "$TENDER" balance --json --data-dir "$BLE_WORK/alice" | tee "$BLE_SHARED/alice.balance"
    lab_wait bob-done 60 || { echo "Bob never reported his balance"; return 1; }
    cat "$BLE_SHARED/bob.balance"
    # Alice: 200 spendable, nothing pending; Bob: 100 received.
    grep -q '"spendable" *: *"200"' "$BLE_SHARED/alice.balance" && grep -q '"pending" *: *"0"' "$BLE_SHARED/alice.balance" || { echo "Alice's balance is wrong"; return 1; }
    grep -q '"spendable" *: *"100"' "$BLE_SHARED/bob.balance" || { echo "Bob's balance is wrong"; return 1; }
    echo "pay-by-code: PASS"
}
