#!/usr/bin/env bash
# Sets up a fresh Debian machine if needed, builds, and runs every test: the Swift test suites,
# the vault contract's suite on the dev chain (Contracts/test.sh, with its gas figures), the
# CLI's settlement end to end on two dev chains (Tests/ChainLab), `tender node` through its
# HTTP API on a dev chain, its point-of-sale page in headless Chromium and a kill -9 soak
# (Tests/NodeLab), backup and restore of a running node (Tests/Backup), the .deb installed
# with its hardened unit, udev rules and D-Bus policy checked (Tests/Hardware), then
# the camera lab (a real V4L2 device in a QEMU guest; see Hardware/camera-lab), then the BLE
# lab (two QEMU guests with real BlueZ; see Hardware/ble-lab).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh
export TENDER_REFEREE_PYTHON="$PWD/.venv-referee/bin/python"
swift build --build-tests
swift test --skip-build 2>&1 | tee .build/test-output.txt
bash Contracts/test.sh --quick
TENDER="$PWD/.build/debug/tender" bash Tests/ChainLab/settle-tests.sh
TENDER="$PWD/.build/debug/tender" bash Tests/NodeLab/node-tests.sh
TENDER="$PWD/.build/debug/tender" bash Tests/NodeLab/pos-tests.sh
TENDER="$PWD/.build/debug/tender" python3 Tests/NodeLab/soak.py --seconds 60
TENDER="$PWD/.build/debug/tender" bash Tests/Backup/backup-tests.sh
TENDER="$PWD/.build/debug/tender" bash Tests/Hardware/hardware-tests.sh
TENDER="$PWD/.build/debug/tender" bash Tests/CameraLab/camera-tests.sh
TENDER="$PWD/.build/debug/tender" bash Tests/BLELab/ble-tests.sh
