# Cashu tokens over the air, offline (Docs/CASHU.md, "Over Bluetooth"): Bob runs `tender node`
# with its Bluetooth payee and takes Cashu tokens ([payee] cashu = on) with no request open;
# it stays advertised for them. A nutshell mint (FakeWallet) on the host funds, before the
# boot, Alice's Tender Cashu wallet (63 sat, minted with `tender cashu mint`) and a nutshell
# wallet, which sends a token of 8 sat. In the VMs nothing reaches the mint:
#   Alice gives 21 sat from her own proofs (`tender pay --ble --cashu --amount 21 --to BOB`:
#   Bob's hello names his mint, his terms are signed by his wallet key);
#   Alice hands over nutshell's token (`--token FILE`), then the same token again, which Bob
#   answers as held already;
# Bob's node holds 29 sat at risk, says each in its log and metrics; Alice holds 42 spendable.
# After the lab, the host's sync swaps what Bob's copy took at the mint (Tests/BLELab/ble-tests.sh).
BLE_READY="node: taking cashu"
BLE_TIMEOUT=240
. "$(dirname "${BASH_SOURCE[0]}")/../nodes/payment.sh"

node_api() { python3 "$BLE_SCENARIO_DIR/../nodes/node_api.py" "$BLE_WORK/bob" "$BLE_WORK/api.sock" "$@"; }

# Host: the wallets, the mint (left running for the swap after the lab: its folder is
# shared/mint, its URL shared/mint-url), Alice's 63 sat and nutshell's token of 8.
prepare() {
    prepare_wallets
    local rig=$BLE_SCENARIO_DIR/../../../Rigs/cashu-mint port url
    port=$(python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
    url=$(bash "$rig/start.sh" --port "$port" --data "$BLE_SHARED/mint" | tail -n 1)
    echo "$url" >"$BLE_SHARED/mint-url"
    "$TENDER" cashu mint add "$url" --data-dir "$BLE_SHARED/bob"
    "$TENDER" cashu mint add "$url" --data-dir "$BLE_SHARED/alice"
    "$TENDER" cashu mint 63 --mint "$url" --wait 120 --data-dir "$BLE_SHARED/alice"
    bash "$rig/fund.sh" "$url" "$BLE_SHARED/nutshell" 16
    bash "$rig/wallet.sh" "$url" "$BLE_SHARED/nutshell" send 8 -d |
        grep -o 'cashu[AB][A-Za-z0-9_=-]*' | head -n 1 >"$BLE_SHARED/nutshell-token.txt"
    [ -s "$BLE_SHARED/nutshell-token.txt" ]
}

peripheral() {
    use_wallet bob
    TENDER_PAYEE_BLUETOOTH=on TENDER_PAYEE_NAME="Bob's stall" \
        "$TENDER" node --no-sync --data-dir "$BLE_WORK/bob" --listen "unix:$BLE_WORK/api.sock" \
        >"$BLE_SHARED/bob-node.log" 2>&1 &
    local node=$! verdict=$BLE_SHARED/bob-node.verdict taken repeated
    echo "failed" >"$verdict"
    node_api wait-bluetooth || return 1
    echo "node: taking cashu"
    node_api cashu-at-risk 29 || { echo "Bob's node does not hold 29 sat at risk"; return 1; }
    # The repeat comes after the second token: wait for it before reading the metrics.
    local waited=0
    until [ "$(node_api metric 'tender_cashu_tokens_total{outcome="repeated"}')" = 1 ]; do
        sleep 0.5
        waited=$((waited + 1))
        [ $waited -lt 240 ] || break  # two minutes; the verdict below names what is missing
    done
    taken=$(node_api metric 'tender_cashu_tokens_total{outcome="taken"}')
    repeated=$(node_api metric 'tender_cashu_tokens_total{outcome="repeated"}')
    {
        grep -q 'bluetooth payee: took a Cashu token of 21 sat' "$BLE_SHARED/bob-node.log" \
            || echo "the log does not say the 21 sat were taken"
        grep -q 'bluetooth payee: took a Cashu token of 8 sat' "$BLE_SHARED/bob-node.log" \
            || echo "the log does not say the 8 sat were taken"
        [ "$taken" = 2 ] || echo "tender_cashu_tokens_total{outcome=\"taken\"} is $taken, not 2"
        [ "$repeated" = 1 ] || echo "tender_cashu_tokens_total{outcome=\"repeated\"} is $repeated, not 1"
    } >"$verdict"
    [ -s "$verdict" ] || echo ok >"$verdict"
    # Stopped before its wallet is copied for the host's swap (SQLite closed cleanly).
    kill -TERM "$node"
    wait "$node" || true
    cp -r "$BLE_WORK/bob" "$BLE_SHARED/bob-after"
    lab_signal bob-done
    sleep 600
}

central() {
    use_wallet alice
    local bob out=$BLE_SHARED/alice.out
    bob=$(cat "$BLE_SHARED/bob.address")
    "$TENDER" pay --ble --cashu --amount 21 --to "$bob" --data-dir "$BLE_WORK/alice" | tee "$out"
    [ "${PIPESTATUS[0]}" = 0 ] || return 1
    grep -q "Paid 21 sat in Cashu from .* to $bob" "$out" \
        || { echo "Alice's pay does not say Bob took 21 sat"; return 1; }
    "$TENDER" pay --ble --cashu --token "$BLE_SHARED/nutshell-token.txt" --to "$bob" \
        --data-dir "$BLE_WORK/alice" | tee "$out"
    [ "${PIPESTATUS[0]}" = 0 ] || return 1
    grep -q "Paid 8 sat in Cashu" "$out" || { echo "Bob did not take nutshell's 8 sat"; return 1; }
    # The same token again (as after a link lost once the token left): Bob holds it already.
    "$TENDER" pay --ble --cashu --token "$BLE_SHARED/nutshell-token.txt" --to "$bob" \
        --data-dir "$BLE_WORK/alice" | tee "$out"
    [ "${PIPESTATUS[0]}" = 0 ] || return 1
    grep -q "holds this token already" "$out" || { echo "the repeat is not said to be held"; return 1; }
    lab_wait bob-done 240 || { echo "Bob's node never held 29 sat"; tail -20 "$BLE_SHARED/bob-node.log"; return 1; }
    [ "$(cat "$BLE_SHARED/bob-node.verdict")" = ok ] \
        || { echo "Bob's node: $(cat "$BLE_SHARED/bob-node.verdict")"; return 1; }
    local spendable
    spendable=$("$TENDER" cashu balance --json --data-dir "$BLE_WORK/alice" |
        python3 -c 'import json, sys; print(sum(int(b["spendable"]) for b in json.load(sys.stdin) if b["unit"] == "sat"))')
    [ "$spendable" = 42 ] || { echo "Alice holds $spendable sat spendable, not 63 - 21 = 42"; return 1; }
    echo "$BLE_SCENARIO: PASS"
}
