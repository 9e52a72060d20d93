#!/usr/bin/env bash
# The point-of-sale page (`GET /pos`) in a real headless Chromium, driven over the DevTools
# protocol (pos_driver.py) with touch events on an 800x480 screen, against a real `tender node`:
#  1. the token from the URL fragment: kept in sessionStorage, gone from the address bar;
#  2. an amount tapped on the keypad in the coin Bob's registry names (DEV, 2 decimals: 12.50
#     is 1250 base units), a memo, Charge: zbarimg reads the request's URI in a screenshot of
#     the page, the one the API holds for that request;
#  3. a `paying` event (fed to the page's stream parser; the node sends it when a Bluetooth
#     payer offers a payment, Tests/BLELab/scenarios/pay-node.sh) shows "Paying…"; one for
#     another request changes nothing;
#  4. Alice pays the code's URI with a file, a `tender receive` beside Bob's node takes it: the
#     page shows "Paid" with the amount and the payer, pushed by the event stream, and the
#     receipt's code: read off a screenshot, it makes Alice's payment spent;
#  5. the node restarted under the page: the stream comes back on its own;
#  6. a request left to expire reads "Expired", "New sale" returns to the keypad;
#  7. a wrong token: the page says the node refused it and asks again; no token: it asks once;
#  8. a phone held upright: a long amount, and the code in its screenshot still scans;
#  9. Cashu (a real nutshell mint, Rigs/cashu-mint): the keypad switches to sat, the code on
#     the screen is the NUT-18 request the page was given, nutshell's wallet pays it, the
#     token handed to the node's API: "Paid", 21 sat, from the mint.
# Screenshots stay in the work directory with KEEP=1.
#   TENDER=.build/debug/tender bash Tests/NodeLab/pos-tests.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
tender=$(realpath "${TENDER:-.build/debug/tender}")
work=$(mktemp -d /tmp/tender-pos.XXXXXX)
api=18767
cdp=18768
base="http://127.0.0.1:$api"
node_pid=""
chrome_pid=""
mint_data=$work/mint
cleanup() {
    bash Rigs/cashu-mint/stop.sh "$mint_data" >/dev/null 2>&1 || true
    [ -n "$node_pid" ] && kill "$node_pid" 2>/dev/null || true
    # Chromium was started in its own session: its group holds the browser and its helpers.
    [ -n "$chrome_pid" ] && kill -- "-$chrome_pid" 2>/dev/null || true
    [ -n "$node_pid" ] && wait "$node_pid" 2>/dev/null || true
    [ -n "$chrome_pid" ] && wait "$chrome_pid" 2>/dev/null || true
    if [ -n "${KEEP:-}" ]; then echo "pos lab: kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
started=$(date +%s)

step() { printf '\n== %s\n' "$*"; }
fail() {
    echo "pos lab: FAILED: $*" >&2
    [ -f "$work/node.log" ] && tail -20 "$work/node.log" >&2
    exit 1
}
t() { "$tender" "$@"; }
# Waits up to $1 seconds for the command after it to succeed.
until_ok() {
    local seconds=$1
    shift
    for _ in $(seq $((seconds * 10))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
    return 1
}
drive() { python3 Tests/NodeLab/pos_driver.py --port "$cdp" "$@"; }
screen_is() { drive wait "document.body.dataset.screen === '$1'"; }
call() { curl -s -H "Authorization: Bearer $token" "$@"; }
json() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }
start_node() {
    "$tender" node --data-dir "$work/bob" --listen "127.0.0.1:$api" --no-sync >>"$work/node.log" 2>&1 &
    node_pid=$!
    until_ok 60 curl -sf "$base/healthz" || fail "the node did not start"
}

install_missing() {
    local missing=()
    command -v chromium >/dev/null || missing+=(chromium)
    command -v zbarimg >/dev/null || missing+=(zbar-tools)
    # Without any font the screenshots would show boxes for letters.
    [ -n "$(find /usr/share/fonts -name '*.ttf' -print -quit 2>/dev/null)" ] || missing+=(fonts-dejavu-core)
    [ ${#missing[@]} -eq 0 ] && return
    bash Scripts/install-packages.sh "${missing[@]}" | sed 's/^/pos lab: /'
}
install_missing

step "an issuer, Alice with notes, Bob's node (no chain: trusted issuer)"
echo "pos lab passphrase" >"$work/passphrase"
export TENDER_PASSPHRASE_FILE=$work/passphrase
t issuer init --data-dir "$work/issuer" --scrypt-n 1024 >/dev/null
issuer=$(t issuer address --data-dir "$work/issuer")
for name in alice bob; do
    t init --data-dir "$work/$name" --scrypt-n 1024 >/dev/null
    t trust add "$issuer" --data-dir "$work/$name" >/dev/null
done
alice=$(t address --data-dir "$work/alice")
t issuer issue --data-dir "$work/issuer" --to "$alice" --amount 1000 --count 3 \
    --out "$work/notes.tender" >/dev/null
t receive "$work/notes.tender" --data-dir "$work/alice" >/dev/null
# How people read Bob's amounts (the node does not sync here: the endpoint is never asked).
t chain add --data-dir "$work/bob" --id 31337 --vault 0x5FbDB2315678afecb367f032d93F642f64180aa3 \
    --rpc http://127.0.0.1:9 --native-symbol DEV --native-decimals 2 >/dev/null
start_node
token=$(cat "$work/bob/api-token")

step "headless Chromium, 800x480 with touch"
setsid chromium --headless=new --no-sandbox --remote-debugging-port="$cdp" \
    --user-data-dir="$work/chrome" --window-size=800,480 --force-device-scale-factor=1 \
    --touch-events=enabled --no-first-run --no-default-browser-check --disable-gpu \
    --disable-extensions --hide-scrollbars --mute-audio about:blank >"$work/chrome.log" 2>&1 &
chrome_pid=$!
until_ok 60 curl -sf "http://127.0.0.1:$cdp/json/version" || fail "Chromium did not start: $(tail -5 "$work/chrome.log")"

step "the token from the fragment, then out of the address bar"
code=$(curl -s -o "$work/pos.html" -w '%{http_code}' "$base/pos")
[ "$code" = 200 ] || fail "GET /pos without a token: $code"
drive open "$base/pos#token=$token"
screen_is keypad || fail "no keypad with the right token"
[ "$(drive eval 'location.href')" = "$base/pos" ] || fail "the fragment stayed: $(drive eval 'location.href')"
[ "$(drive eval "sessionStorage.getItem('tender.pos.token')")" = "$token" ] || fail "the token was not kept"
drive wait "document.querySelector('.link').dataset.online === 'true'" || fail "the event stream did not open"
drive shot "$work/01-keypad-empty.png"

step "12.50 DEV on the keypad, a memo, Charge: the code on the screen is the request's"
for key in 1 2 . 5 5; do drive tap "[data-key=\"$key\"]"; done
[ "$(drive text '#amount')" = "12.55 DEV" ] || fail "the amount reads $(drive text '#amount')"
drive tap '[data-key="5"]'  # a third decimal: DEV has two
[ "$(drive text '#amount')" = "12.55 DEV" ] || fail "a third decimal was taken: $(drive text '#amount')"
[ "$(drive text '#entry-error')" = "DEV has 2 decimals." ] || fail "the refused key said $(drive text '#entry-error')"
drive tap '[data-key="back"]' tap '[data-key="0"]' tap '#memo' type "apples"
[ "$(drive text '#entry-error')" = "" ] || fail "the refusal stayed: $(drive text '#entry-error')"
drive shot "$work/02-keypad-1250.png"
drive tap '#charge'
screen_is waiting || fail "no waiting screen: $(drive eval 'document.body.dataset.screen') $(drive text '#entry-error')"
drive wait "document.getElementById('code').complete && document.getElementById('code').naturalWidth > 0" \
    || fail "the code image did not load"
drive shot "$work/03-waiting.png"
id=$(drive eval "document.getElementById('sale-screen').dataset.requestId")
request=$(call "$base/api/requests/$id")
uri=$(echo "$request" | json '["uri"]')
[ "$(echo "$request" | json '["amount"]')" = 1250 ] || fail "the request: $request"
[ "$(echo "$request" | json '["memo"]')" = apples ] || fail "the memo: $request"
[ "$(echo "$request" | json '["state"]')" = waiting ] || fail "the state: $request"
scanned=$(zbarimg -q --raw "$work/03-waiting.png" 2>/dev/null) || fail "zbarimg found no code in the screenshot"
[ "$scanned" = "$uri" ] || fail "the screen shows $scanned, the request is $uri"
echo "scanned from the screen: $scanned"
[ "$(drive text '#status-text')" = "Waiting for payment" ] || fail "status: $(drive text '#status-text')"

step "a paying event: Paying…; one for another request: nothing"
other=0x$(printf 'ab%.0s' $(seq 32))
# The page handles an event as it is pushed (no await): the screen read in the same
# evaluation is the one the event left.
after=$(drive eval "tenderPOS.receive('event: paying\ndata: {\"requestId\": \"$other\"}\n\n'); document.body.dataset.screen")
[ "$after" = waiting ] || fail "another request's event changed the screen to $after"
# In three chunks, cut inside a CRLF and inside the data, as a network may cut them.
drive eval "tenderPOS.receive('event: paying\r')" eval "tenderPOS.receive('\ndata: {\"requestId\": \"${id:0:20}')" >/dev/null
drive eval "tenderPOS.receive('${id:20}\"}\r\n\r\n')" >/dev/null
screen_is paying || fail "no paying screen"
[ "$(drive text '#status-text')" = "Paying…" ] || fail "status: $(drive text '#status-text')"
drive shot "$work/04-paying.png"

step "Alice pays the scanned URI with a file; a receive beside the node: Paid"
t pay --data-dir "$work/alice" --request "$scanned" --out "$work/pay.tender" >/dev/null
t receive "$work/pay.tender" --data-dir "$work/bob" >/dev/null
screen_is paid || fail "no paid screen within 10 s: $(drive eval 'document.body.dataset.screen')"
[ "$(drive text '#paid-amount')" = "12.50 DEV" ] || fail "paid amount: $(drive text '#paid-amount')"
[ "$(drive eval "document.getElementById('paid-payer').title")" = "$alice" ] || fail "payer"
[ "$(drive text '#paid-payer')" = "${alice:0:6}…${alice: -4}" ] || fail "payer: $(drive text '#paid-payer')"
[ "$(drive text '#paid-memo')" = apples ] || fail "memo: $(drive text '#paid-memo')"
drive wait "!document.getElementById('receipt-box').hidden && document.getElementById('receipt-code').naturalWidth > 0" \
    || fail "the receipt's code did not appear"
drive shot "$work/05-paid.png"
# Alice's payment went as a file: pending until her receipt, which she scans off Bob's screen.
t scan --image "$work/05-paid.png" --out "$work/receipt-scanned" >/dev/null 2>&1 \
    || fail "no receipt code in the paid screenshot"
cmp -s "$work/receipt-scanned" <(call "$base/api/receipts/$id") || fail "the screen's receipt is not the node's"
t receipt "$work/receipt-scanned" --data-dir "$work/alice" --json | grep -q '"state" : "spent"' \
    || fail "Alice's payment is not spent with the receipt from the screen"
echo "Alice scanned her receipt off the paid screen: payment spent"
drive tap '#new-sale'
screen_is keypad || fail "New sale did not return to the keypad"
[ "$(drive text '#amount')" = "0.00 DEV" ] || fail "the keypad kept $(drive text '#amount')"

step "the node restarted under the page: the stream comes back"
kill -TERM "$node_pid"
wait "$node_pid" || fail "the node did not stop cleanly"
node_pid=""
drive wait "document.querySelector('.link').dataset.online === 'false'" || fail "the page did not notice"
drive shot "$work/06-reconnecting.png"
# A sale on the screen then would say it over the code, not only in the pill.
[ "$(drive eval "document.body.dataset.online + ' ' + getComputedStyle(document.querySelector('.offline-note')).display")" = "false block" ] \
    || fail "the outage is not said over the code"
start_node
drive wait "document.querySelector('.link').dataset.online === 'true'" \
    || fail "the stream did not come back"

step "a request left to expire (6 s): Expired, then New sale"
drive open "$base/pos#expires=6"
screen_is keypad || fail "no keypad with the kept token"
# One driver for the charge and the waiting screen: starting another takes seconds when the
# machine is busy, and the request may have expired by then.
drive tap '[data-key="7"]' tap '#charge' wait "document.body.dataset.screen === 'waiting'" \
    || fail "no waiting screen"
screen_is expired || fail "not expired"
[ "$(drive text '#status-text')" = "Expired: not paid" ] || fail "status: $(drive text '#status-text')"
drive shot "$work/07-expired.png"
[ "$(call "$base/api/requests/$(drive eval "document.getElementById('sale-screen').dataset.requestId")" | json '["state"]')" = expired ] \
    || fail "the node does not call it expired"
drive tap '#cancel'
screen_is keypad || fail "New sale did not return to the keypad"

step "a wrong token: refused and asked again; no token: asked once"
drive open "$base/pos#token=$(printf '0%.0s' $(seq 64))"
screen_is token || fail "no token screen for a wrong token"
[ "$(drive eval 'document.body.dataset.tokenRefused')" = true ] || fail "not shown as refused"
[[ "$(drive text '#token-message')" == *"refused this token"* ]] || fail "message: $(drive text '#token-message')"
drive shot "$work/08-wrong-token.png"
drive eval "sessionStorage.clear()" >/dev/null
drive open "$base/pos"
screen_is token || fail "no token screen without a token"
[ "$(drive eval 'document.body.dataset.tokenRefused')" = false ] || fail "shown as refused"
drive shot "$work/09-token-asked.png"
drive tap '#token-input' type "$token" tap '#token-form button'
screen_is keypad || fail "the typed token did not open the keypad"

step "a phone held upright (390x844): a long amount, the code still scans"
phone() { drive --size 390x844 wait "innerWidth === 390" "$@"; }
for key in 1 2 3 4 5 6 7 8 9; do drive tap "[data-key=\"$key\"]"; done
# No thousands separators: what the page shows, the CLI reads.
[ "$(drive text '#amount')" = "123456789.00 DEV" ] || fail "the amount reads $(drive text '#amount')"
phone shot "$work/10-phone-keypad.png"
phone tap '#charge'
screen_is waiting || fail "no waiting screen on a phone"
phone wait "document.getElementById('code').complete" shot "$work/11-phone-waiting.png"
id=$(drive eval "document.getElementById('sale-screen').dataset.requestId")
uri=$(call "$base/api/requests/$id" | json '["uri"]')
[ "$(zbarimg -q --raw "$work/11-phone-waiting.png" 2>/dev/null)" = "$uri" ] || fail "the phone's code does not scan"

step "Cashu: the keypad in sat, a NUT-18 request on the screen, paid by nutshell's wallet"
phone tap '#cancel' >/dev/null
mint_port=$(python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
mint_url=$(bash Rigs/cashu-mint/start.sh --port "$mint_port" --data "$mint_data" --units sat 2>/dev/null | tail -1)
bash Rigs/cashu-mint/fund.sh "$mint_url" "$work/carol" 100 >/dev/null 2>&1 || fail "could not fund nutshell's wallet"
t cashu mint add "$mint_url" --data-dir "$work/bob" >/dev/null
drive open "$base/pos"  # the page learns the units of the mints at connect
screen_is keypad || fail "no keypad"
drive wait "!document.getElementById('pay-with').hidden" || fail "no switch to Cashu"
[ "$(drive text '#pay-with')" = "Charge in Cashu sat" ] || fail "the switch reads $(drive text '#pay-with')"
drive tap '#pay-with' tap '[data-key="2"]' tap '[data-key="1"]'
[ "$(drive text '#amount')" = "21 sat" ] || fail "the amount reads $(drive text '#amount')"
drive tap '#memo' type "pears" tap '#charge'
screen_is waiting || fail "no waiting screen for Cashu: $(drive text '#entry-error')"
drive wait "document.getElementById('code').complete && document.getElementById('code').naturalWidth > 0" \
    || fail "the Cashu code image did not load"
drive shot "$work/12-cashu-waiting.png"
creq=$(drive eval "document.getElementById('sale-screen').dataset.cashuRequest")
[ "$(zbarimg -q --raw "$work/12-cashu-waiting.png" 2>/dev/null)" = "$creq" ] || fail "the screen does not show the request $creq"
paid_token=$(bash Rigs/cashu-mint/wallet.sh "$mint_url" "$work/carol" pay "$creq" 2>/dev/null | grep -o 'cashuB[A-Za-z0-9_=-]*' | head -1)
[ -n "$paid_token" ] || fail "nutshell's wallet did not pay the request"
# The node's camera would read it off the payer's phone; here it is handed to the API.
[ "$(call -o /dev/null -w '%{http_code}' --data-binary "$paid_token" "$base/api/cashu/tokens")" = 201 ] \
    || fail "the node did not take the token"
screen_is paid || fail "no paid screen for the Cashu token"
[ "$(drive text '#paid-amount')" = "21 sat" ] || fail "paid amount: $(drive text '#paid-amount')"
[ "$(drive text '#paid-payer')" = "Cashu, 127.0.0.1:$mint_port" ] || fail "payer: $(drive text '#paid-payer')"
[ "$(drive text '#paid-memo')" = pears ] || fail "memo: $(drive text '#paid-memo')"
drive shot "$work/13-cashu-paid.png"

echo
[ -z "${KEEP:-}" ] || ls "$work"/*.png | sed 's/^/screenshot: /'
echo "pos lab: passed in $(($(date +%s) - started)) s"
