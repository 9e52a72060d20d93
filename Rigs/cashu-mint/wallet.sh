#!/usr/bin/env bash
# Runs nutshell's wallet CLI (`cashu`) non-interactively against one mint, with its own data
# directory, so that tests can mint, send, receive and read balances. Everything after DIR goes
# to `cashu`, after `--yes --host URL`; the CLI is stopped after $CASHU_TIMEOUT seconds (60).
#
#   Rigs/cashu-mint/wallet.sh URL DIR [-u usd] COMMAND [ARGS...]
#   e.g. wallet.sh http://127.0.0.1:3338 /tmp/a invoice 1000
#        wallet.sh http://127.0.0.1:3338 /tmp/a send --dleq 100      (prints a cashuB token)
#        wallet.sh http://127.0.0.1:3338 /tmp/b receive cashuB...
#        wallet.sh http://127.0.0.1:3338 /tmp/a balance
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if (($# < 3)); then
    echo "usage: $0 URL DIR [-u UNIT] COMMAND [ARGS...]" >&2
    exit 64
fi
url="$1"
dir="$2"
shift 2
python="$(bash "$here/venv.sh")"
venv="$(dirname "$(dirname "$python")")"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
# The CLI reads ./.env, else ~/.cashu/.env, over the environment: an empty one in DIR keeps a
# stray ~/.cashu/.env out. Without CASHU_DIR even `cashu COMMAND --help` makes ~/.cashu/wallet.
: >"$dir/.env"
export CASHU_DIR="$dir" MINT_URL="$url" TOR=false DEBUG=false
cd "$dir"
exec timeout "${CASHU_TIMEOUT:-60}" "$venv/bin/cashu" --yes --host "$url" "$@"
