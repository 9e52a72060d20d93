#!/usr/bin/env bash
# End to end over Bluetooth LE between two real BlueZ stacks (Hardware/ble-lab: two QEMU guests,
# btvirt as the air), one boot for every scenario in Tests/BLELab/scenarios/:
#   smoke                     advertise, discover by service UUID, connect, notify, write, read
#   fault-restart-bluetoothd  the peripheral survives its bluetoothd restarting and registers again
#   fault-kill-peripheral     the peripheral's process is SIGKILLed and started again
#   fault-air-cut             the air is cut for 6 s: both sides see the link end, then reconnect
#   fault-air-stall           the air stalls 5 s: a write completes after it, the link stays up
#   ceiling-gatt, ceiling-l2cap   the raw link's figures ("ble-ceiling: PATH RATE kB/s DELIVERED %")
#   swift-gatt, swift-link    Tender's D-Bus, BlueZ and link layers (Benchmarks/BLEProbe, built
#                             beside tender) on the same air ("ble-probe: ...")
#   pay-one, pay-by-code      a payment through the product: XX by address, IK by the payee's code
#                             read from an image ("On the air: ..." figures)
#   pay-fifty-coins           a payment of 50 coins
#   pay-two-payers            one payee, two payers one after the other
#   pay-after-restart         bluetoothd restarted under a running payee, then a payment
#   pay-node                  `tender node` as the payee: charged through its API, paid by address
#                             and by the code it draws (IK), its events, metrics and name checked
#   pay-resume                the link cut at each message boundary (a node killed), resolved
#                             by the next contact; both nodes checked after each
#   hostile-payer             garbage, floods, wrong keys, altered/replayed records, a forged
#                             payment (Tests/BLELab/Hostile); the payee serves on, memory bounded
#   pay-cashu                 Cashu tokens over the air to `tender node`, offline: given from
#                             Alice's Tender wallet and made by nutshell; after the boots, the
#                             host swaps what Bob's node took at the mint (below)
# A scenario is one file in that folder (see Hardware/ble-lab/run.sh for the interface); its
# functions get TENDER (the binary below), BLE_WORK (a fresh folder of the VM's own) and
# BLE_SHARED (a folder both VMs share). Failures are retried once in a fresh boot.
#   TENDER=.build/debug/tender bash Tests/BLELab/ble-tests.sh [SCENARIO.sh ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
tender=${TENDER:-.build/debug/tender}
if [ -x "$tender" ]; then export TENDER; TENDER=$(realpath "$tender"); else export TENDER=""; fi
export BLE_LAB_DIR=${BLE_LAB_DIR:-$PWD/.ble-lab}
if [ $# -eq 0 ]; then set -- Tests/BLELab/scenarios; fi
# Prints progress, any retry with its log tails, the ceiling lines, the per-scenario table
# (also $BLE_LAB_DIR/results/summary.tsv) and, last, "ble-lab: N passed, N failed, N retried".
status=0
bash Hardware/ble-lab/run.sh "$@" || status=$?
[ "${BLE_LAB_SETUP_ONLY:-0}" = 1 ] && exit $status

# pay-cashu, once the VMs are down: what Bob's node took offline (its wallet as it left it,
# shared/bob-after) is swapped by `tender cashu sync` at the mint its prepare() left running;
# then every such mint is stopped.
for shared in "$BLE_LAB_DIR"/results/boot*/pay-cashu/shared; do
    [ -d "$shared/mint" ] || continue
    if [ -d "$shared/bob-after" ] && [ "$(cat "$shared/../verdict" 2>/dev/null)" = "A=0 B=0" ]; then
        if TENDER_PASSPHRASE_FILE=$shared/passphrase "$TENDER" cashu sync \
            --data-dir "$shared/bob-after" >"$shared/host-sync.out" 2>&1 &&
            "$TENDER" cashu balance --json --data-dir "$shared/bob-after" | python3 -c '
import json, sys
held = [b for b in json.load(sys.stdin) if b["unit"] == "sat"]
sys.exit(0 if sum(int(b["spendable"]) for b in held) == 29 and
         sum(int(b["atRisk"]) for b in held) == 0 else 1)'; then
            echo "ble-lab: pay-cashu (host): Bob's node took 21 + 8 sat over the air; swapped at the mint, 29 sat spendable"
        else
            echo "ble-lab: pay-cashu (host): FAILED: the swap of what Bob's node took: $(tail -n 3 "$shared/host-sync.out")"
            status=1
        fi
    fi
    bash Rigs/cashu-mint/stop.sh "$shared/mint" >/dev/null 2>&1 || true
done
exit $status
