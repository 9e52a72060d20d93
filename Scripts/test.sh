#!/usr/bin/env bash
# Sets up a fresh Debian machine if needed, builds, and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh
export TENDER_REFEREE_PYTHON="$PWD/.venv-referee/bin/python"
swift build --build-tests
swift test --skip-build 2>&1 | tee .build/test-output.txt
