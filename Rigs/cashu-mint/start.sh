#!/usr/bin/env bash
# Starts a nutshell Cashu mint in the background on 127.0.0.1 with the FakeWallet Lightning
# backend (every invoice paid at once), SQLite in DIR, keys derived from a fixed test-only
# private key, no input fees, no rate limit. Makes the pinned venv once, waits until
# GET /v1/info answers, and prints the mint's URL (the last line of stdout).
#
#   Rigs/cashu-mint/start.sh [--port 3338] [--data DIR] [--units sat,usd]
#   Rigs/cashu-mint/stop.sh DIR
#
# DIR defaults to Rigs/cashu-mint/.run/<port>; it holds mint.log, mint.pid and the database.
# --units: the units the mint issues, each with its own FakeWallet backend and keyset
# (sat, msat, usd, eur; default sat).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
port=3338
data=""
units=sat
while (($#)); do
    case "$1" in
        --port) port="$2"; shift ;;
        --data) data="$2"; shift ;;
        --units) units="$2"; shift ;;
        *) echo "usage: $0 [--port N] [--data DIR] [--units sat,usd]" >&2; exit 64 ;;
    esac
    shift
done
python="$(bash "$here/venv.sh")"
venv="$(dirname "$(dirname "$python")")"
data="${data:-$here/.run/$port}"
mkdir -p "$data"
data="$(cd "$data" && pwd)"
url="http://127.0.0.1:$port"

if [ -f "$data/mint.pid" ] && kill -0 "$(cat "$data/mint.pid")" 2>/dev/null; then
    echo "cashu-mint: already running from $data (pid $(cat "$data/mint.pid"))" >&2
    echo "$url"
    exit 0
fi

answers() {
    "$python" - "$url/v1/info" <<'PY' 2>/dev/null
import json, sys, urllib.request
print(json.load(urllib.request.urlopen(sys.argv[1], timeout=1))["version"])
PY
}

if answers >/dev/null; then
    echo "cashu-mint: $url already answers /v1/info (a mint this script did not start)" >&2
    exit 1
fi

# Test-only key: the keysets (and their ids) are the same on every run. Never use it for money.
export MINT_PRIVATE_KEY="tender-test-only-cashu-mint-private-key-do-not-use"
# A backend per unit, and a keyset per unit: nutshell only makes the keyset of
# MINT_DERIVATION_PATH (m/0'/0'/0', sat) by itself; the others come from MINT_DERIVATION_PATH_LIST,
# whose paths' third element is the unit's index (sat 0, msat 1, usd 2, eur 3).
paths=()
for unit in ${units//,/ }; do
    case "$unit" in
        sat) index=0 ;; msat) index=1 ;; usd) index=2 ;; eur) index=3 ;;
        *) echo "cashu-mint: unknown unit '$unit' (sat, msat, usd, eur)" >&2; exit 64 ;;
    esac
    export "MINT_BACKEND_BOLT11_${unit^^}=FakeWallet"
    paths+=("\"m/0'/$index'/0'\"")
done
MINT_DERIVATION_PATH_LIST="[$(IFS=,; echo "${paths[*]}")]"
export MINT_DERIVATION_PATH_LIST
export MINT_LISTEN_HOST=127.0.0.1 MINT_LISTEN_PORT="$port"
export MINT_DATABASE="$data/mint" MINT_AUTH_DATABASE="$data/mint"
export FAKEWALLET_BRR=true
# With 0 the FakeWallet reports "paid" before the quote row exists, the NUT-17 notification is
# lost and the wallet CLI, which waits on the websocket, hangs.
export FAKEWALLET_DELAY_INCOMING_PAYMENT=0.2 FAKEWALLET_DELAY_OUTGOING_PAYMENT=0
export MINT_INPUT_FEE_PPK=0
export MINT_RATE_LIMIT=false
export CASHU_DIR="$data/home" DEBUG=false LOG_LEVEL=INFO TOR=false
# nutshell reads ./.env from its working directory, else ~/.cashu/.env, and lets it override the
# environment: an empty one here keeps a stray ~/.cashu/.env out.
: >"$data/.env"

started=${EPOCHREALTIME/./}
cd "$data"
nohup "$venv/bin/mint" --host 127.0.0.1 --port "$port" >"$data/mint.log" 2>&1 &
echo $! >"$data/mint.pid"
deadline=$((SECONDS + 60))
while ((SECONDS < deadline)); do
    if version=$(answers); then
        elapsed_ms=$(((${EPOCHREALTIME/./} - started) / 1000))
        echo "cashu-mint: $version up after ${elapsed_ms} ms (pid $(cat "$data/mint.pid"), units $units, data $data, log $data/mint.log)" >&2
        echo "$url"
        exit 0
    fi
    if ! kill -0 "$(cat "$data/mint.pid")" 2>/dev/null; then
        echo "cashu-mint: the mint exited:" >&2
        cat "$data/mint.log" >&2
        rm -f "$data/mint.pid"
        exit 1
    fi
    sleep 0.1
done
echo "cashu-mint: no answer on $url/v1/info after 60 s (log $data/mint.log)" >&2
exit 1
