#!/usr/bin/env bash
# Starts Tender's dev chain (server.py) in the background: makes the pinned venv once, starts
# the server, waits until it answers eth_chainId, and prints its URL, dev accounts and start-up
# time. Instances on different ports run side by side.
#
#   Rigs/dev-chain/start.sh [--port 8545] [--chain-id 31337] [server.py options...]
#   Rigs/dev-chain/stop.sh [--port 8545 | --all]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
port=8545
args=()
while (($#)); do
    case "$1" in
        --port) port="$2"; args+=("$1" "$2"); shift ;;
        *) args+=("$1") ;;
    esac
    shift
done
python="$(bash "$here/venv.sh")"
run="$here/.run/$port"
mkdir -p "$run"
url="http://127.0.0.1:$port"

if [ -f "$run/server.pid" ] && kill -0 "$(cat "$run/server.pid")" 2>/dev/null; then
    echo "dev-chain: already running on $url (pid $(cat "$run/server.pid"))"
    exit 0
fi

answers() {
    "$python" - "$url" <<'PY' 2>/dev/null
import json, sys, urllib.request
request = urllib.request.Request(sys.argv[1], json.dumps({"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}).encode(),
                                 {"Content-Type": "application/json"})
print(int(json.load(urllib.request.urlopen(request, timeout=1))["result"], 16))
PY
}

if answers >/dev/null; then
    echo "dev-chain: port $port already answers JSON-RPC (a server this script did not start)" >&2
    exit 1
fi

started=${EPOCHREALTIME/./}
cd "$here"
nohup "$python" server.py "${args[@]}" >"$run/server.log" 2>&1 &
echo $! >"$run/server.pid"
for _ in $(seq 1 300); do
    if chain_id=$(answers); then
        elapsed_ms=$(((${EPOCHREALTIME/./} - started) / 1000))
        sed -n '1,/^Listening/p' "$run/server.log"
        echo "dev-chain: up after ${elapsed_ms} ms (pid $(cat "$run/server.pid"), chain id $chain_id, log $run/server.log)"
        echo "$url"
        exit 0
    fi
    if ! kill -0 "$(cat "$run/server.pid")" 2>/dev/null; then
        echo "dev-chain: the server exited:" >&2
        cat "$run/server.log" >&2
        rm -f "$run/server.pid"
        exit 1
    fi
    sleep 0.1
done
echo "dev-chain: no answer on $url after 30 s (log $run/server.log)" >&2
exit 1
