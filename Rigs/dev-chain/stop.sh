#!/usr/bin/env bash
# Stops dev chains start.sh started: the one on --port (default 8545), or --all of them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ports=()
case "${1:-}" in
    --all) for dir in "$here"/.run/*/; do [ -d "$dir" ] && ports+=("$(basename "$dir")"); done ;;
    --port) ports=("$2") ;;
    "") ports=(8545) ;;
    *) echo "usage: $0 [--port N | --all]" >&2; exit 64 ;;
esac
for port in "${ports[@]}"; do
    pidfile="$here/.run/$port/server.pid"
    if [ ! -f "$pidfile" ]; then
        echo "dev-chain: nothing started on port $port"
        continue
    fi
    pid=$(cat "$pidfile")
    if kill -0 "$pid" 2>/dev/null; then
        kill "$pid"
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        # A server started with SIGTERM blocked (some process spawners leave it so) goes now.
        if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid"; sleep 0.2; fi
        echo "dev-chain: stopped port $port (pid $pid)"
    else
        echo "dev-chain: port $port was not running"
    fi
    rm -f "$pidfile"
done
