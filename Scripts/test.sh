#!/usr/bin/env bash
# Sets up a fresh Debian machine if needed, builds, and runs every test: the Swift test suites,
# the vault contract's suite on the dev chain (Contracts/test.sh, with its gas figures), the
# CLI's settlement end to end on two dev chains (Tests/ChainLab), a deployment as the documents
# give it on a vault not at the default address (Tests/DeploymentLab), `tender node` through its
# HTTP API on a dev chain, its point-of-sale page in headless Chromium and a kill -9 soak
# (Tests/NodeLab), backup and restore of a running node (Tests/Backup), the .deb installed
# with its hardened unit, udev rules and D-Bus policy checked (Tests/Hardware), Cashu tokens
# taken offline, swapped and given against a real mint and wallet (Tests/CashuLab), then
# the camera lab (a real V4L2 device in a QEMU guest; see Hardware/camera-lab), then the BLE
# lab (two QEMU guests with real BlueZ; see Hardware/ble-lab).
#
# Each step is timed ("==> STEP: passed in N s"). Set-up and build stop the run when they fail;
# a failing test step is named and the others still run, then the run fails. The last lines
# are a table of the steps and "steps: N passed, N failed".
#
# Work that does not need the CPU the build needs runs beside it: the Python venvs and the
# BLE lab's set-up are made while Swift builds; the BLE lab, the longest step (two QEMU guests
# that wait on the emulated air much of the time), runs beside the Swift tests and the other
# labs, its output kept in .build/ble-lab.txt and shown when it ends. TENDER_TEST_SERIAL=1
# runs everything one step after the other instead.
set -uo pipefail
cd "$(dirname "$0")/.."

run_started=$SECONDS
step_names=() step_results=() step_seconds=()
declare -A step_status=()
serial=${TENDER_TEST_SERIAL:-0}

# record NAME STATUS SECONDS
record() {
    step_names+=("$1")
    step_status[$1]=$2
    step_seconds+=("$3")
    if [ "$2" = 0 ]; then
        step_results+=(passed)
        echo "==> $1: passed in $3 s"
    else
        step_results+=("FAILED (exit $2)")
        echo "==> $1: FAILED (exit $2) after $3 s"
    fi
}

# step NAME COMMAND...: runs it, timed and recorded; its status is returned.
step() {
    local name=$1 started=$SECONDS status=0
    shift
    echo "==> $name"
    mkdir -p .build/steps
    "$@" 2>&1 | tee ".build/steps/$name.txt" || status=$?
    record "$name" "$status" $((SECONDS - started))
    return "$status"
}

# Beside the steps: start NAME COMMAND... runs it in the background (output in
# .build/NAME.txt); finish NAME waits for it, shows its output and records it.
declare -A beside_pid=() beside_started=()
start() {
    local name=$1
    shift
    if [ "$serial" = 1 ]; then
        step "$name" "$@"
        return
    fi
    echo "==> $name: started beside the next steps (output in .build/$name.txt)"
    "$@" >".build/$name.txt" 2>&1 &
    beside_pid[$name]=$!
    beside_started[$name]=$SECONDS
}
finish() {
    local name=$1 status=0
    [ -n "${beside_pid[$name]:-}" ] || return "${step_status[$name]}"  # it ran as a step
    wait "${beside_pid[$name]}" || status=$?
    unset "beside_pid[$name]"
    echo "==> $name (ran beside the steps above):"
    cat ".build/$name.txt"
    record "$name" "$status" $((SECONDS - ${beside_started[$name]}))
    return "$status"
}

summary() {
    local i failed=0
    echo
    echo "Steps (whole run $((SECONDS - run_started)) s):"
    for i in "${!step_names[@]}"; do
        printf '  %-14s %6s s  %s\n' "${step_names[$i]}" "${step_seconds[$i]}" "${step_results[$i]}"
        [ "${step_results[$i]}" = passed ] || failed=$((failed + 1))
    done
    # A failing step's last lines again, at the end where a truncated log still shows them.
    for i in "${!step_names[@]}"; do
        local name=${step_names[$i]} output
        [ "${step_results[$i]}" = passed ] && continue
        output=.build/steps/$name.txt
        [ -f "$output" ] || output=.build/$name.txt
        [ -f "$output" ] || continue
        echo
        echo "--- $name: its last lines ($output)"
        tail -n 30 "$output"
    done
    echo "steps: $((${#step_names[@]} - failed)) passed, $failed failed"
    [ "$failed" -eq 0 ]
}

export TENDER_REFEREE_PYTHON="$PWD/.venv-referee/bin/python"
export TENDER="$PWD/.build/debug/tender"
mkdir -p .build

# Set-up and build: nothing else can run without them.
if ! step setup-system bash Scripts/setup.sh system; then
    summary
    exit 1
fi
start setup-python bash Scripts/setup.sh python
start ble-lab-setup env BLE_LAB_SETUP_ONLY=1 bash Tests/BLELab/ble-tests.sh
step build swift build --build-tests
build=$?
finish setup-python
python=$?
finish ble-lab-setup
ble_setup=$?
if [ "$build" != 0 ] || [ "$python" != 0 ]; then
    summary
    exit 1
fi

# The BLE lab only after its own set-up (it would install again beside the labs' apt runs).
[ "$ble_setup" = 0 ] && start ble-lab bash Tests/BLELab/ble-tests.sh
swift_tests() { swift test --skip-build 2>&1 | tee .build/test-output.txt; }
step swift-test swift_tests
step contracts bash Contracts/test.sh --quick
step chain-lab bash Tests/ChainLab/settle-tests.sh
step deployment-lab bash Tests/DeploymentLab/deploy-tests.sh
step node-lab bash Tests/NodeLab/node-tests.sh
step pos-lab bash Tests/NodeLab/pos-tests.sh
step soak python3 Tests/NodeLab/soak.py --seconds 60
step backup bash Tests/Backup/backup-tests.sh
step cashu-lab bash Tests/CashuLab/cashu-tests.sh
step hardware bash Tests/Hardware/hardware-tests.sh
step camera-lab bash Tests/CameraLab/camera-tests.sh
if [ "$ble_setup" = 0 ]; then
    finish ble-lab
else
    step ble-lab bash Tests/BLELab/ble-tests.sh
fi

summary
