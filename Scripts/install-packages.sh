#!/usr/bin/env bash
# Installs those of the named Debian packages that are not installed yet (nothing, and no
# `apt-get update`, when all are). Every apt run waits for the dpkg lock, so set-ups that run
# beside each other (Scripts/test.sh) take turns instead of failing. Used by Scripts/setup.sh
# and by each lab for the tools only it needs.
#
#   bash Scripts/install-packages.sh [--recommends] [--quiet] PACKAGE...
#
# --recommends  install the packages' recommendations too (apt's default; off here otherwise)
# --quiet       say nothing (otherwise "installing: …" when something is missing)
set -euo pipefail
recommends=--no-install-recommends
quiet=0
while [ $# -gt 0 ]; do
    case $1 in
        --recommends) recommends=""; shift ;;
        --quiet) quiet=1; shift ;;
        *) break ;;
    esac
done
missing=()
for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
        || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
[ "$quiet" = 1 ] || echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
    $recommends "${missing[@]}" >/dev/null
