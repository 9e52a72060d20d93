#!/usr/bin/env bash
# Makes the Cashu rig's venv (Rigs/cashu-mint/.venv) from requirements.txt, once: it is made
# again only when requirements.txt changes. Prints the venv's python.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/.venv"
requirements="$here/requirements.txt"
if [ ! -x "$venv/bin/python" ] || ! cmp -s "$requirements" "$venv/requirements.txt"; then
    echo "cashu-mint: creating $venv (pinned packages, a minute or two)" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements" >&2
    cp "$requirements" "$venv/requirements.txt"
fi
echo "$venv/bin/python"
