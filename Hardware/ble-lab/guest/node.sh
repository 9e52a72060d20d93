#!/bin/bash
# Runs one half of a BLE lab scenario (peripheral or central) in its own session; started by
# Hardware/ble-lab/guest/agent.sh with the scenario's environment (BLE_* variables).
. "$BLE_LAB_HOME/lib/lab.sh"
# shellcheck disable=SC1090
. "$BLE_SCENARIO_FILE"
cd "$BLE_WORK" || exit 96
"$1"
