#!/usr/bin/env bash
# Installs everything Tender needs on a fresh Debian 12 machine with Swift 6.3 on PATH:
# the C libraries (apt), the Python referees the cross-implementation tests run (a venv), and
# the dev chain with the vault's toolchain (Rigs/dev-chain/.venv, pinned).
#
#   bash Scripts/setup.sh [system|python]   # both parts by default
# system: the apt packages (the build needs them); python: the two venvs (the tests need them,
# the build does not, so Scripts/test.sh makes them while it builds).
set -euo pipefail
cd "$(dirname "$0")/.."
part=${1:-all}
case $part in
    all | system | python) ;;
    *) echo "usage: $0 [system|python]" >&2; exit 2 ;;
esac

setup_system() {
    apt_packages=(
        pkg-config zlib1g-dev libsecp256k1-dev libqrencode-dev libzbar-dev libzxing-dev libdbus-1-dev libbluetooth-dev
        libsqlite3-dev python3 python3-venv
        # Test rigs: independent QR decoders and image tools (never used by the product at run time).
        zbar-tools imagemagick poppler-utils ffmpeg
        # The node lab drives the node's HTTP API with curl; script(1) gives sync a terminal.
        curl bsdutils
    )
    bash Scripts/install-packages.sh --recommends "${apt_packages[@]}" | sed 's/^/setup: /'
}

setup_python() {
    # Independent implementations that check our formats (never part of the product). The venv
    # is rebuilt whenever Tests/referee-requirements.txt changes (its copy in the venv differs).
    venv=.venv-referee
    requirements=Tests/referee-requirements.txt
    if [ ! -x "$venv/bin/python" ] || ! cmp -s "$requirements" "$venv/requirements.txt"; then
        echo "setup: creating $venv with the Python referees"
        rm -rf "$venv"
        python3 -m venv "$venv"
        "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements"
        cp "$requirements" "$venv/requirements.txt"
    fi

    # The dev chain, Vyper and the contract tests (Rigs/dev-chain/requirements.txt), made again
    # only when its requirements change.
    bash Rigs/dev-chain/venv.sh >/dev/null
    # A real Cashu mint and wallet (nutshell, Rigs/cashu-mint/requirements.txt), the same way.
    bash Rigs/cashu-mint/venv.sh >/dev/null
}

[ "$part" = python ] || setup_system
[ "$part" = system ] || setup_python
