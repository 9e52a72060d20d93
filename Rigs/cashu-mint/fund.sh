#!/usr/bin/env bash
# fund.sh — mint ecash into a nutshell wallet without the wallet CLI's websocket wait, which can
# hang when the FakeWallet reports "paid" before the quote is stored (see README, pitfalls):
# asks for a quote (`invoice N -n`), then claims it (`invoice N --id QUOTE`) until the wallet
# holds it, polling with a deadline.
# Usage: fund.sh URL WALLETDIR AMOUNT [-u UNIT]     (AMOUNT as the CLI takes it: 2.5 for usd)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
url=$1 dir=$2 amount=$3
shift 3
unit_args=("$@")
quote=$(bash "$here/wallet.sh" "$url" "$dir" "${unit_args[@]}" invoice "$amount" -n 2>/dev/null |
    grep -o -- '--id [0-9a-zA-Z_-]*' | head -1 | cut -d' ' -f2)
[ -n "$quote" ] || { echo "fund.sh: no quote from $url" >&2; exit 1; }
deadline=$((SECONDS + ${CASHU_TIMEOUT:-60}))
while :; do
    output=$(bash "$here/wallet.sh" "$url" "$dir" "${unit_args[@]}" invoice "$amount" --id "$quote" 2>&1 || true)
    # Claimed now, or by an earlier round whose answer this one did not see.
    if grep -q -i -e 'Balance' -e 'already issued' -e 'issued' <<<"$output"; then exit 0; fi
    [ "$SECONDS" -lt "$deadline" ] || { echo "fund.sh: quote $quote not claimed: $output" >&2; exit 1; }
    sleep 0.3
done
