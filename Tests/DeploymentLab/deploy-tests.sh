#!/usr/bin/env bash
# As deployed, not as in the demo: every command below is the one the documents give (the
# README's tour, `tender vault deploy`'s next steps, Hardware/README.md step 5), on a dev
# chain where the vault is NOT at the embedded default address (a fresh issuer key deploys it).
#  1. an issuer deploys its vault and follows the steps `vault deploy` prints: `chain add` in
#     its folder, then deposit, status and issue without --vault or --rpc (read from chains.toml);
#  2. a second issuer does the same with a second vault;
#  3. a stall is set up as Hardware/README.md step 5 says (chain add, then init: its home is the
#     deployed vault), trusts the issuer, runs `tender node` and asks to be paid through its API
#     (what /pos does);
#  4. a customer holds notes of both vaults and pays the stall by scanning its request code: the
#     payment comes from the vault the request names; the other vault's notes stay spendable;
#     `tender sync` by hand keeps the notes it can still pay with;
#  5. the stall's node settles by itself; web3.py reads the vault: it paid the stall, once.
#   TENDER=.build/debug/tender bash Tests/DeploymentLab/deploy-tests.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
tender=$(realpath "${TENDER:-.build/debug/tender}")
python="$(bash Rigs/dev-chain/venv.sh)"
work=$(mktemp -d /tmp/tender-deploy.XXXXXX)
port=18845
api=18846
rpc="http://127.0.0.1:$port"
node_pid=""
cleanup() {
    [ -n "$node_pid" ] && kill "$node_pid" 2>/dev/null && wait "$node_pid" 2>/dev/null || true
    bash "$root/Rigs/dev-chain/stop.sh" --port "$port" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
echo "deployment lab passphrase" >"$work/passphrase"
export TENDER_PASSPHRASE_FILE=$work/passphrase
started=$(date +%s)
bash Rigs/dev-chain/start.sh --port "$port" --chain-id 31337 | grep -E "^dev-chain: up"

step() { printf '\n== %s\n' "$*"; }
fail() { echo "deployment lab: FAILED: $*" >&2; exit 1; }
json() { "$python" -c "import json,sys; print(json.load(sys.stdin)$1)"; }
t() { "$tender" "$@"; }
# An API call; an answer other than 2xx fails the lab with its body.
call() {
    local out status
    out=$(mktemp "$work/answer.XXXXXX")
    status=$(curl -s -o "$out" -w '%{http_code}' \
        -H "Authorization: Bearer $(cat "$work/stall/api-token")" "$@")
    [[ "$status" == 2* ]] || fail "the API answered $status to $*: $(cat "$out")"
    cat "$out"
}
default_vault=0x5FbDB2315678afecb367f032d93F642f64180aa3

# An issuer as `vault deploy` tells it: deploy, then each printed step with its values.
issuer_setup() {
    local name=$1 amount=$2
    t issuer init --data-dir "$work/$name" --scrypt-n 1024 >/dev/null
    local address
    address=$(t issuer address --data-dir "$work/$name")
    # Before its address holds gas: "no gas" in those words, the address and chain named.
    local status=0
    t vault deploy --data-dir "$work/$name" --rpc "$rpc" >/dev/null 2>"$work/nogas" || status=$?
    [ "$status" = 69 ] && grep -q "no gas: $address holds 0 .* on chain 31337" "$work/nogas" ||
        fail "vault deploy without gas ($status): $(cat "$work/nogas")"
    "$python" Rigs/dev-chain/fund.py --url "$rpc" "$address" >/dev/null
    # A fresh key's first contract: its address is the key's, not the embedded default.
    local deployed
    deployed=$(t vault deploy --data-dir "$work/$name" --rpc "$rpc")
    echo "$deployed" >&2
    local vault
    vault=$(sed -n 's/^Vault \(0x[0-9a-fA-F]*\) deployed.*/\1/p' <<<"$deployed")
    [ -n "$vault" ] && [ "${vault,,}" != "${default_vault,,}" ] || fail "$name's vault: '$vault'"
    # The printed steps, run as printed (placeholders filled).
    local add
    add=$(grep -m1 -o "tender chain add --id [0-9]* --vault 0x[0-9a-fA-F]* --rpc [^ ]*" <<<"$deployed")
    [ -n "$add" ] || fail "vault deploy printed no chain add step"
    grep -q "tender trust add $address" <<<"$deployed" || fail "vault deploy printed no trust step"
    ${add/tender/t} --data-dir "$work/$name" --native-symbol ETH >&2
    t issuer deposit --data-dir "$work/$name" --amount "$amount" --lock-for 3456000 >&2
    t issuer status --data-dir "$work/$name" >&2
    echo "$vault $address"
}

step "two issuers deploy their vaults and follow the steps vault deploy prints"
read -r vault issuer < <(issuer_setup issuer 5)
read -r vault2 issuer2 < <(issuer_setup aid 3)
echo "vaults: $vault (issuer $issuer), $vault2 (issuer $issuer2)"
[ "${vault,,}" != "${vault2,,}" ] || fail "one vault for two issuers"

step "the stall, as Hardware/README.md step 5 says: chain add, then init"
t chain add --data-dir "$work/stall" --id 31337 --vault "$vault" --rpc "$rpc" \
    --native-symbol ETH | tee "$work/out"
grep -q "Checked: a Tender vault at $vault on chain 31337" "$work/out" || fail "the stall's chain add"
t init --data-dir "$work/stall" --scrypt-n 1024 | tee "$work/out"
grep -q "Home: chain 31337, vault $vault" "$work/out" || fail "the stall's home is not the vault"
t trust add "$issuer" --data-dir "$work/stall" >/dev/null
t chain list --data-dir "$work/stall"
stall=$(t address --data-dir "$work/stall")
"$python" Rigs/dev-chain/fund.py --url "$rpc" "$stall" >/dev/null   # its gas for settling
TENDER_SYNC_INTERVAL=1 "$tender" node --data-dir "$work/stall" --listen "127.0.0.1:$api" 2>"$work/node.log" &
node_pid=$!
for _ in $(seq 300); do curl -sf "http://127.0.0.1:$api/healthz" >/dev/null && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$api/healthz" >/dev/null || fail "the node did not start: $(cat "$work/node.log")"

step "a customer who holds notes of both vaults"
t chain add --data-dir "$work/customer" --id 31337 --vault "$vault" --rpc "$rpc" --native-symbol ETH >/dev/null
t chain add --data-dir "$work/customer" --id 31337 --vault "$vault2" --rpc "$rpc" >/dev/null
status=0; t init --data-dir "$work/customer" --scrypt-n 1024 2>"$work/err" || status=$?
[ "$status" = 64 ] && grep -q "chains.toml lists 2 vaults" "$work/err" || fail "two vaults, no choice: $(cat "$work/err")"
t init --data-dir "$work/customer" --scrypt-n 1024 --vault "$vault2" >/dev/null
customer=$(t address --data-dir "$work/customer")
t trust add "$issuer" --data-dir "$work/customer" >/dev/null
t trust add "$issuer2" --data-dir "$work/customer" >/dev/null
t issuer issue --data-dir "$work/issuer" --to "$customer" --amount 0.5 --count 2 --out "$work/notes1.tender"
t issuer issue --data-dir "$work/aid" --to "$customer" --amount 1 --out "$work/notes2.tender"
t receive "$work/notes1.tender" --data-dir "$work/customer" >/dev/null
t receive "$work/notes2.tender" --data-dir "$work/customer" >/dev/null
t balance --data-dir "$work/customer"

step "the stall asks to be paid (its API, as /pos does); the customer scans the code and pays"
request=$(call -X POST -d '{"amount": "250000000000000000", "memo": "market stall"}' \
    "http://127.0.0.1:$api/api/requests")
id=$(echo "$request" | json '["requestId"]')
call "http://127.0.0.1:$api/api/requests/$id/qr.png" >"$work/request.png"
uri=$(t scan --data-dir "$work/customer" --image "$work/request.png" | tail -n 1)
grep -q "vault=$vault" <<<"$uri" || fail "the stall's request names another vault: $uri"
t pay --data-dir "$work/customer" --request "$uri" --out "$work/payment.tender" | tee "$work/out"
grep -q "Paid 0.25 ETH" "$work/out" || fail "paid: $(cat "$work/out")"
t show "$work/payment.tender" --frames-out "$work/payment.grey" >/dev/null
t receive --data-dir "$work/stall" --frames 640x480 --qr --receipt-out "$work/receipt.tender" \
    <"$work/payment.grey"
t receipt "$work/receipt.tender" --data-dir "$work/customer"
[ "$(call "http://127.0.0.1:$api/api/requests/$id" | json '["state"]')" = paid ] || fail "not paid"
# The other vault's note was not touched: 1 ETH of it still spendable.
domains=$(t balance --data-dir "$work/customer" --json)
spendable_in() {
    "$python" -c "import json,sys; d=[x for x in json.load(sys.stdin)['domains'] if x['vault'].lower()=='$1'.lower()][0]; print(d['assets'][0]['spendable'])"
}
[ "$(spendable_in "$vault2" <<<"$domains")" = 1000000000000000000 ] || fail "the other vault's notes: $domains"
[ "$(spendable_in "$vault" <<<"$domains")" = 750000000000000000 ] || fail "the change: $domains"

step "by hand, the customer's sync keeps the notes it can still pay with"
t sync --data-dir "$work/customer" --once | tee "$work/out"
grep -q "kept to pay with" "$work/out" || fail "the customer's sync: $(cat "$work/out")"
domains=$(t balance --data-dir "$work/customer" --json)
[ "$(spendable_in "$vault2" <<<"$domains")" = 1000000000000000000 ] || fail "after sync: $domains"

step "the stall's node settles by itself; web3.py reads the vault"
unsettled() {
    call "http://127.0.0.1:$api/api/balance" | "$python" -c \
        'import json,sys; print(sum(int(a["receivedUnsettled"]) for d in json.load(sys.stdin)["domains"] for a in d["assets"]))'
}
# A real chain makes blocks on its own; this one makes one when asked: the redeem's second
# confirmation (the default 2) comes from a block made here.
mine() {
    "$python" -c "from web3 import Web3; Web3(Web3.HTTPProvider('$rpc')).provider.make_request('evm_mine', [])" >/dev/null
}
for _ in $(seq 120); do [ "$(unsettled)" = 0 ] && break; mine; sleep 1; done
[ "$(unsettled)" = 0 ] || fail "the stall's node did not settle: $(tail -5 "$work/node.log")"
grep "sync:" "$work/node.log" | sed 's/^[^ ]* //' | grep "settled" || fail "no settled line in the log"
grep -q "paid to this node's address" "$work/node.log" || fail "the log says no amount"
t balance --data-dir "$work/stall" | tee "$work/out"
grep -q "redeemed            0.25 ETH" "$work/out" || fail "the stall's balance shows nothing redeemed"
t history --data-dir "$work/stall" | tee "$work/out"
grep -q "in   0.25 ETH .*\"market stall\"  redeemed (tx 0x" "$work/out" ||
    fail "the stall's history does not say the payment was redeemed"
"$python" Tests/ChainLab/check.py --url "$rpc" --vault "$vault" --issuer "$issuer" \
    --deposit 5000000000000000000 --paid "$stall=250000000000000000" --coins 1

echo
echo "deployment lab: passed in $(($(date +%s) - started)) s"
