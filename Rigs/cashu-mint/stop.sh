#!/usr/bin/env bash
# Stops the mint start.sh started with --data DIR (or, with --port N, the one in the default
# Rigs/cashu-mint/.run/N). Leaves DIR and its database in place.
#
#   Rigs/cashu-mint/stop.sh DIR | --port N
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
case "${1:-}" in
    --port) data="$here/.run/$2" ;;
    ""|-*) echo "usage: $0 DIR | --port N" >&2; exit 64 ;;
    *) data="$1" ;;
esac
pidfile="$data/mint.pid"
if [ ! -f "$pidfile" ]; then
    echo "cashu-mint: nothing started from $data"
    exit 0
fi
pid=$(cat "$pidfile")
if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    deadline=$((SECONDS + 5))
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.1; done
    # A mint started with SIGTERM blocked (some process spawners leave it so) goes now.
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid"; fi
    echo "cashu-mint: stopped the mint of $data (pid $pid)"
else
    echo "cashu-mint: the mint of $data was not running"
fi
rm -f "$pidfile"
