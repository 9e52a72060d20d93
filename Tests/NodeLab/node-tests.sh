#!/usr/bin/env bash
# `tender node` end to end on a dev chain (Rigs/dev-chain), through its real HTTP API (curl):
#  1. Bob's node starts (sync every second, a stand-in systemd notify socket): READY=1;
#  2. the API refuses a missing or wrong token (401) and a malformed body (400, the reason);
#  3. Bob's API issues a request; Alice pays it with a file, which a `tender receive` beside the
#     node takes: the event stream announces the payment, the request reads "paid";
#  4. the coin, worth less than its gas, waits (status, metrics and log say so); once Bob's
#     registry says dust goes anyway, the node's sync loop settles it (POST /api/sync brings a
#     pass forward); web3.py confirms the vault paid Bob once;
#  5. kill -9 and a restart: the same balance, nothing settled twice; SIGTERM: a clean stop
#     (exit 0, STOPPING=1) with an event stream open;
#  6. the API on a Unix socket (mode 0660), and a configuration mistake refused (exit 64).
#   TENDER=.build/debug/tender bash Tests/NodeLab/node-tests.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
tender=$(realpath "${TENDER:-.build/debug/tender}")
python="$(bash Rigs/dev-chain/venv.sh)"
work=$(mktemp -d /tmp/tender-node.XXXXXX)
port=18765
api=18766
rpc="http://127.0.0.1:$port"
node_pid=""
cleanup() {
    [ -n "$node_pid" ] && kill -9 "$node_pid" 2>/dev/null || true
    jobs -p | xargs -r kill 2>/dev/null || true
    bash Rigs/dev-chain/stop.sh --port "$port" >/dev/null 2>&1 || true
    [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
echo "node lab passphrase" >"$work/passphrase"
export TENDER_PASSPHRASE_FILE=$work/passphrase
started=$(date +%s)
bash Rigs/dev-chain/start.sh --port "$port" --chain-id 31337 | grep -E "^dev-chain: up"

step() { printf '\n== %s\n' "$*"; }
fail() {
    echo "node lab: FAILED: $*" >&2
    [ -f "$work/node.log" ] && tail -20 "$work/node.log" >&2
    exit 1
}
json() { "$python" -c "import json,sys; print(json.load(sys.stdin)$1)"; }
t() { "$tender" "$@"; }
call() { curl -s -H "Authorization: Bearer $(cat "$work/bob/api-token")" "$@"; }
# Waits up to $1 seconds for the command after it to succeed.
until_ok() {
    local seconds=$1
    shift
    for _ in $(seq $((seconds * 10))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
    return 1
}
start_node() {
    TENDER_SYNC_INTERVAL=1 NOTIFY_SOCKET="$work/notify.sock" \
        "$tender" node --data-dir "$work/bob" --listen "127.0.0.1:$api" "$@" >>"$work/node.log" 2>&1 &
    node_pid=$!
    until_ok 60 curl -sf "http://127.0.0.1:$api/healthz" || fail "the node did not start"
}

step "an issuer, a vault, Alice with notes, Bob's node settling on the chain"
t issuer init --data-dir "$work/issuer" --scrypt-n 1024 >/dev/null
issuer=$(t issuer address --data-dir "$work/issuer")
"$python" Rigs/dev-chain/fund.py --url "$rpc" "$issuer" >/dev/null
vault=$(t vault deploy --data-dir "$work/issuer" --rpc "$rpc" --json | json '["vault"]')
deposit=1000000
t issuer deposit --data-dir "$work/issuer" --rpc "$rpc" --vault "$vault" --amount "$deposit" \
    --lock-for $((40 * 86400)) >/dev/null
for name in alice bob; do
    t init --data-dir "$work/$name" --scrypt-n 1024 --chain-id 31337 --vault "$vault" >/dev/null
    t trust add "$issuer" --data-dir "$work/$name" >/dev/null
done
alice=$(t address --data-dir "$work/alice")
bob=$(t address --data-dir "$work/bob")
"$python" Rigs/dev-chain/fund.py --url "$rpc" "$bob" >/dev/null
t chain add --data-dir "$work/bob" --id 31337 --vault "$vault" --rpc "$rpc" --confirmations 1 >/dev/null
t issuer issue --data-dir "$work/issuer" --rpc "$rpc" --vault "$vault" --chain-id 31337 \
    --to "$alice" --amount 1000 --count 3 --out "$work/notes.tender" >/dev/null
t receive "$work/notes.tender" --data-dir "$work/alice" >/dev/null

"$python" Tests/NodeLab/notify_listener.py "$work/notify.sock" "$work/notify.log" &
until_ok 60 test -S "$work/notify.sock" || fail "no notify socket"
start_node
until_ok 60 grep -q "READY=1" "$work/notify.log" || fail "no READY=1 from the node"
[ "$(stat -c %a "$work/bob/api-token")" = 600 ] || fail "the token file is not 0600"

step "the API refuses what it must"
code=$(curl -s -o "$work/out" -w '%{http_code}' "http://127.0.0.1:$api/api/status")
[ "$code" = 401 ] || fail "no token: $code"
code=$(curl -s -o "$work/out" -w '%{http_code}' -H "Authorization: Bearer nope" "http://127.0.0.1:$api/api/status")
[ "$code" = 401 ] || fail "wrong token: $code"
code=$(call -o "$work/out" -w '%{http_code}' -X POST -d '{"amount": 15' "http://127.0.0.1:$api/api/requests")
[ "$code" = 400 ] || fail "malformed JSON: $code"
grep -q "not valid JSON" "$work/out" || fail "no reason: $(cat "$work/out")"

step "a request from Bob's API, paid by Alice with a file, announced as it lands"
call -N "http://127.0.0.1:$api/api/events" >"$work/events" &
events=$!
# Events are not replayed: the stream must be open (its first lines arrived) before the payment.
until_ok 60 grep -q "tender payments" "$work/events" || fail "the event stream did not open"
request=$(call -X POST -d '{"amount": "1500", "memo": "tea"}' "http://127.0.0.1:$api/api/requests")
uri=$(echo "$request" | json '["uri"]')
id=$(echo "$request" | json '["requestId"]')
t pay --data-dir "$work/alice" --request "$uri" --out "$work/pay.tender" >/dev/null
t receive "$work/pay.tender" --data-dir "$work/bob" --receipt-out "$work/receipt.tender" >/dev/null
t receipt "$work/receipt.tender" --data-dir "$work/alice" >/dev/null
# The event's lines may land in the file one at a time: wait for its data line, then check it.
until_ok 60 grep -q '"requestId"' "$work/events" || fail "no payment event: $(cat "$work/events")"
grep -q "^event: payment" "$work/events" || fail "the event is not a payment: $(cat "$work/events")"
grep -q "\"requestId\":\"$id\"" "$work/events" || fail "the event names another request"
[ "$(call "http://127.0.0.1:$api/api/requests/$id" | json '["state"]')" = paid ] || fail "not paid"

# What Bob holds unsettled, over every domain and asset (an asset with no coins left is not listed).
unsettled() {
    call "http://127.0.0.1:$api/api/balance" | "$python" -c \
        'import json,sys; print(sum(int(a["receivedUnsettled"]) for d in json.load(sys.stdin)["domains"] for a in d["assets"]))'
}
settled() { [ "$(unsettled)" = 0 ]; }

step "dust: Bob's 1,500 wei are worth less than the gas of redeeming them: the node says so, they wait"
waiting() { [ "$(call "http://127.0.0.1:$api/api/status" | json '["sync"]["waitingForGas"]')" = 1 ]; }
call -X POST "http://127.0.0.1:$api/api/sync" >/dev/null
until_ok 60 waiting || fail "no coin waiting for gas: $(call "http://127.0.0.1:$api/api/status")"
grep -q "1 coin(s) worth 1500 wei in all wait" "$work/node.log" || fail "the log does not say it"
call "http://127.0.0.1:$api/metrics" | grep -qE "^tender_redeem_dust_coins 1(\.0)?$" || fail "no dust metric"
[ "$(unsettled)" = 1500 ] || fail "dust went out: $(call "http://127.0.0.1:$api/api/balance")"

step "the node's sync loop settles Bob's coins once the registry says test amounts go anyway"
t chain add --data-dir "$work/bob" --id 31337 --vault "$vault" --rpc "$rpc" --confirmations 1 \
    --dust redeem >/dev/null
call -X POST "http://127.0.0.1:$api/api/sync" >/dev/null
until_ok 60 settled || fail "Bob's coins were not settled: $(call "http://127.0.0.1:$api/api/balance")"
call "http://127.0.0.1:$api/api/status" | json '["sync"]'
# The payment says it was redeemed, and in which transaction: in the API and in history.
redeemed() { [ "$(call "http://127.0.0.1:$api/api/payments" | json '["incoming"][-1]["state"]')" = redeemed ]; }
until_ok 60 redeemed ||
    fail "the payment does not say redeemed: $(call "http://127.0.0.1:$api/api/payments")"
tx=$(call "http://127.0.0.1:$api/api/payments" | json '["incoming"][-1]["redeemTransactions"][0]')
t history --data-dir "$work/bob" | grep -q "tea.*redeemed (tx $tx)" ||
    fail "history does not say redeemed (tx $tx): $(t history --data-dir "$work/bob")"
"$python" Tests/ChainLab/check.py --url "$rpc" --vault "$vault" --issuer "$issuer" \
    --deposit "$deposit" --paid "$bob=1500" --coins 1

step "kill -9, restart: the same; SIGTERM with a stream open: a clean stop"
before=$(t balance --data-dir "$work/bob" --json)
kill -9 "$node_pid"
wait "$node_pid" 2>/dev/null || true
kill "$events" 2>/dev/null || true
start_node
[ "$(t balance --data-dir "$work/bob" --json)" = "$before" ] || fail "a restart changed Bob's wallet"
call -N "http://127.0.0.1:$api/api/events" >"$work/open-stream.txt" &
# The stream is open once its first lines arrived (the node writes them on connecting).
until_ok 60 grep -q "tender payments" "$work/open-stream.txt" || fail "the event stream did not open"
kill -TERM "$node_pid"
status=0
for _ in $(seq 300); do kill -0 "$node_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$node_pid" 2>/dev/null && fail "the node did not stop within 30 s of SIGTERM"
wait "$node_pid" || status=$?
[ "$status" = 0 ] || fail "SIGTERM: exit $status"
node_pid=""
until_ok 60 grep -q "STOPPING=1" "$work/notify.log" || fail "no STOPPING=1"
"$python" Tests/ChainLab/check.py --url "$rpc" --vault "$vault" --issuer "$issuer" \
    --deposit "$deposit" --paid "$bob=1500" --coins 1

step "the API on a Unix socket; a configuration mistake"
"$tender" node --data-dir "$work/bob" --listen "unix:$work/api.sock" --no-sync >>"$work/node.log" 2>&1 &
node_pid=$!
until_ok 60 test -S "$work/api.sock" || fail "no API socket"
[ "$(stat -c %a "$work/api.sock")" = 660 ] || fail "the socket is not 0660"
address=$(curl -s --unix-socket "$work/api.sock" -H "Authorization: Bearer $(cat "$work/bob/api-token")" \
    http://node/api/status | json '["address"]')
[ "$address" = "$bob" ] || fail "status over the socket: $address"
kill -TERM "$node_pid"
wait "$node_pid" || fail "SIGTERM on the socket node"
node_pid=""
printf '[sync]\nintervall = 3\n' >"$work/bad.toml"
status=0
"$tender" node --data-dir "$work/bob" --config "$work/bad.toml" 2>"$work/err" || status=$?
[ "$status" = 64 ] || fail "a bad configuration: exit $status"
grep -q "unknown key sync.intervall" "$work/err" || fail "the mistake was not named: $(cat "$work/err")"

echo
echo "node lab: passed in $(($(date +%s) - started)) s"
