#!/usr/bin/env bash
# Cashu through the built binary against a real mint and a real wallet (Docs/CASHU.md): a
# nutshell mint with its FakeWallet backend and nutshell's wallet CLI (Rigs/cashu-mint).
#  1. A stall (a fresh Tender folder) cannot take a token before it holds the mint's keys
#     (66); `tender cashu mint add` fetches them; then a token nutshell sent is taken
#     offline (the mint stopped), and taking it again is refused (73), nothing written; a
#     token shown as a QR code is read from its image.
#  2. Forged and damaged tokens are refused offline (65) with nothing written: a proof
#     whose amount was raised, a DLEQ proof changed, a token without DLEQ proofs, a
#     truncated token, a proof locked to another key with --require-lock.
#  3. The mint back: `tender cashu sync` swaps what was taken; a token the payer spent
#     elsewhere first (nutshell's receive) is refused at the swap, its token kept.
#     A token locked to the stall's key (NUT-11) is taken with --require-lock and swapped
#     (the stall signs); usd tokens read in dollars (one taken by `tender receive FILE`).
#     Two syncs at once: one waits for the other, nothing is refused. A token without DLEQ proofs is taken with --online (swapped
#     at once); one spent elsewhere is then refused (65).
#  4. The stall gives tokens: offline (exact proofs) and split at the mint, and locked to
#     another wallet's key; nutshell's wallet receives them; the balance adds up. Too much
#     (65), an output file that exists (73), a URL that is not one (64). A token given and
#     not taken is taken back only online, swapped (offline: 73, named).
#  5. The stall's `tender node`: a token handed to its API is taken offline (201), refused
#     when taken before (409) or cut (422), announced on the event stream, and swapped by the
#     node's own sync; its log, metrics and Cashu balance say so. Its NUT-18 request is the
#     one nutshell writes, and nutshell's wallet pays it with a token the node takes.
#  6. `tender pay --cashu` pays a request locked to another wallet's key (only that wallet
#     can take the token); an HTLC lock (64) and a mint the wallet does not hold (66) are
#     refused.
#  7. Lightning: `tender cashu mint 100` prints an invoice, waits until the FakeWallet pays
#     it and mints; --wait 0 returns at once (a sync finishes it). `tender cashu melt` pays
#     another node's invoice (1 sat fee, the change kept); too large a melt, the mint's own
#     paid invoice (65) and a text that is no invoice (64) are refused with nothing spent.
#   TENDER=.build/debug/tender bash Tests/CashuLab/cashu-tests.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
tender=$(realpath "${TENDER:-.build/debug/tender}")
rig=$root/Rigs/cashu-mint
work=$(mktemp -d /tmp/tender-cashu.XXXXXX)
mint_data=$work/mint
cleanup() {
    bash "$rig/stop.sh" "$mint_data" >/dev/null 2>&1 || true
    [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
echo "cashu lab passphrase" >passphrase
export TENDER_PASSPHRASE_FILE=$work/passphrase
started=$(date +%s)

step() { printf '== %s\n' "$*"; }
fail() {
    echo "cashu tests: FAILED: $*" >&2
    [ -f "$mint_data/mint.log" ] && tail -5 "$mint_data/mint.log" >&2
    exit 1
}
t() { "$tender" "$@"; }
expect_status() {
    local want=$1 got=0
    shift
    "$@" >/dev/null 2>err.txt || got=$?
    [ "$got" = "$want" ] || fail "$* exited $got, not $want: $(cat err.txt)"
}
wallet() { bash "$rig/wallet.sh" "$url" "$work/$1" "${@:2}" 2>/dev/null; }
token_of() { grep -o 'cashu[AB][A-Za-z0-9_=-]*' | head -1; }
free_port() { python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"; }
start_mint() { bash "$rig/start.sh" --port "$port" --data "$mint_data" --units sat,usd 2>/dev/null | tail -1; }
# The stall's folder, byte for byte (the Cashu store and its side files).
snapshot() { cat stall/cashu.sqlite* 2>/dev/null | sha256sum; }
balance() { t cashu balance --data-dir stall --json | python3 -c "import json,sys; print(sum(b['$1'] for b in json.load(sys.stdin) if b['unit']=='$2'))"; }

port=$(free_port)
url=$(start_mint)
[ -n "$url" ] || fail "the mint did not start"

step "1. the stall takes a token offline once it holds the mint's keys"
t init --data-dir stall --scrypt-n 1024 >/dev/null
bash "$rig/fund.sh" "$url" "$work/alice" 1000
bash "$rig/fund.sh" "$url" "$work/alice" 20 -u usd
first=$(wallet alice send 21 -d | token_of)
spent_elsewhere=$(wallet alice send 13 -d | token_of)
locked_other=$(wallet alice send 4 -d -l P2PK:0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798 | token_of)
no_dleq=$(wallet alice send 5 | token_of)
usd=$(wallet alice -u usd send 2.5 -d | token_of)
expect_status 66 t cashu receive "$first" --data-dir stall
t cashu mint add "$url" --data-dir stall >/dev/null
key=$(t cashu key --data-dir stall)
locked=$(wallet alice send 8 -d -l "P2PK:$key" | token_of)
imaged=$(wallet alice send 3 -d | token_of)
bash "$rig/stop.sh" "$mint_data" >/dev/null   # offline from here
# A token shown as a code: real encode (segno), real pixels, read back by Tender's scanner.
"$root/.venv-referee/bin/python" -c "import segno, sys; segno.make(sys.argv[1], error='m').save('token.png', scale=4)" "$imaged"
t cashu receive --image token.png --data-dir stall | grep -q "Received 3 sat" || fail "the token's code was not taken"
t cashu receive "$first" --data-dir stall | grep -q "Received 21 sat" || fail "the token was not taken"
expect_status 73 t cashu receive "$first" --data-dir stall
[ "$(balance atRisk sat)" = 24 ] || fail "21 + 3 sat should be held at risk"

step "2. forged and damaged tokens are refused offline, nothing written"
forge() {  # $1: the token, $2: python that changes the decoded CBOR dict `d`
    "$rig/.venv/bin/python" - "$1" "$2" <<'PY'
import base64, sys, cbor2
text, change = sys.argv[1], sys.argv[2]
d = cbor2.loads(base64.urlsafe_b64decode(text[6:] + "=" * (-len(text[6:]) % 4)))
exec(change)
print("cashuB" + base64.urlsafe_b64encode(cbor2.dumps(d)).decode().rstrip("="))
PY
}
fresh=$(forge "$spent_elsewhere" "pass")
before=$(snapshot)
expect_status 65 t cashu receive "$(forge "$fresh" "d['t'][0]['p'][0]['a'] *= 2")" --data-dir stall
grep -q "rejected: Cashu token" err.txt || fail "a raised amount is not named: $(cat err.txt)"
expect_status 65 t cashu receive "$(forge "$fresh" "p = d['t'][0]['p'][0]['d']; p['s'] = bytes([p['s'][0] ^ 1]) + p['s'][1:]")" --data-dir stall
expect_status 65 t cashu receive "$(forge "$fresh" "d['t'][0]['p'][0]['c'] = d['t'][0]['p'][-1]['c'] if len(d['t'][0]['p']) > 1 else bytes([2]) + bytes(31) + bytes([7])")" --data-dir stall
expect_status 65 t cashu receive "$no_dleq" --data-dir stall
grep -q "DLEQ" err.txt || fail "a token without DLEQ proofs is not named: $(cat err.txt)"
expect_status 65 t cashu receive "${fresh:0:$((${#fresh} / 2))}" --data-dir stall
expect_status 65 t cashu receive "$locked_other" --require-lock --data-dir stall
[ "$(snapshot)" = "$before" ] || fail "a refused token changed the stall's store"

step "3. back online: the swap; a token spent elsewhere first is refused with its evidence"
t cashu receive "$spent_elsewhere" --data-dir stall >/dev/null
t cashu receive "$locked" --require-lock --data-dir stall | grep -q "Locked to this wallet until" || fail "the locked token was not taken as locked"
# `tender receive` takes a token from a file as `tender cashu receive` does.
echo "$usd" >usd-token.txt
t receive usd-token.txt --data-dir stall | grep -q "Received 2.50 usd" || fail "tender receive does not take a usd token from a file, in dollars"
url=$(start_mint)
wallet bob receive "$spent_elsewhere" >/dev/null || fail "bob could not take the token first"
# Two syncs at once (a timer's and one by hand): the second waits for the first's lock.
t cashu sync --data-dir stall >sync.txt 2>&1 &
t cashu sync --data-dir stall >sync2.txt 2>&1 || fail "the second sync failed: $(cat sync2.txt)"
wait $! || fail "sync failed: $(cat sync.txt)"
cat sync.txt sync2.txt >syncs.txt
grep -q "refused 13 sat" syncs.txt || fail "the double spend was not refused: $(cat syncs.txt)"
[ "$(grep -c 'refused' syncs.txt)" = 1 ] || fail "more than the double spend was refused: $(cat syncs.txt)"
t cashu history --data-dir stall --json >history.json
python3 - "$spent_elsewhere" <<'PY' || fail "the refused payment does not keep its token and reason"
import json, sys
history = json.load(open("history.json"))
refused = [p for p in history if p["state"] == "refused"]
assert len(refused) == 1 and refused[0]["token"] == sys.argv[1] and "11001" in refused[0]["refusal"], refused
PY
[ "$(balance spendable sat)" = 32 ] || fail "21 + 3 + 8 sat should be spendable, not $(balance spendable sat)"
[ "$(balance spendable usd)" = 250 ] || fail "250 cents should be spendable"
[ "$(balance atRisk sat)" = 0 ] || fail "nothing should be left at risk"
wallet carol receive "$first" >/dev/null 2>&1 && fail "the payer's token was still spendable after the stall's swap"
t cashu receive "$no_dleq" --online --data-dir stall | grep -q "Swapped at the mint at once" || fail "a token without DLEQ proofs was not taken online"
[ "$(balance spendable sat)" = 37 ] || fail "32 + 5 sat should be spendable, not $(balance spendable sat)"
again=$(wallet alice send 6 | token_of)
wallet bob receive "$again" >/dev/null || fail "bob could not take the second token first"
expect_status 65 t cashu receive "$again" --online --data-dir stall
grep -q "spent elsewhere\|already spent" err.txt || fail "an online refusal is not named: $(cat err.txt)"

step "4. the stall gives tokens: offline, split at the mint, and locked"
t cashu send 8 --mint "$url" --data-dir stall --out give1.txt 2>/dev/null   # exact proofs
wallet carol receive "$(cat give1.txt)" >/dev/null || fail "nutshell did not take the stall's token"
t cashu send 3 --mint "$url" --data-dir stall --out give2.txt 2>/dev/null   # split at the mint
wallet carol receive "$(cat give2.txt)" >/dev/null || fail "nutshell did not take the split token"
carol_key=$(wallet carol locks | grep -o '0[23][0-9a-f]\{64\}' | head -1)
[ -n "$carol_key" ] || fail "no P2PK key from nutshell's wallet"
t cashu send 5 --mint "$url" --lock-to "$carol_key" --data-dir stall --out give3.txt 2>/dev/null
wallet dave receive "$(cat give3.txt)" >/dev/null 2>&1 && fail "a token locked to carol was taken by another wallet"
wallet carol receive "$(cat give3.txt)" >/dev/null || fail "carol could not take the token locked to her"
[ "$(wallet carol balance | grep -o '[0-9]* sat' | head -1)" = "16 sat" ] || fail "carol should hold 16 sat"
[ "$(balance spendable sat)" = 21 ] || fail "37 - 16 sat should be left, not $(balance spendable sat)"
expect_status 65 t cashu send 100 --mint "$url" --data-dir stall
grep -q "insufficient funds: 21 sat spendable" err.txt || fail "too much is not said in sat: $(cat err.txt)"
t cashu send 1.25 --unit USD --mint "$url" --data-dir stall --out give4.txt 2>/dev/null
wallet carol -u usd receive "$(cat give4.txt)" >/dev/null || fail "nutshell did not take the stall's usd token"
expect_status 64 t cashu mint add "127.0.0.1:$port" --data-dir stall
# The wallet's own balance shows the Cashu wallet beside its Tender coins.
t balance --data-dir stall | grep -q "Cashu ecash" || fail "tender balance does not show Cashu"
t balance --data-dir stall --json | python3 -c "import json, sys; assert sum(b['spendable'] for b in json.load(sys.stdin)['cashu'] if b['unit'] == 'sat') == 21" ||
    fail "tender balance --json does not hold the Cashu balance"
expect_status 73 t cashu send 1 --mint "$url" --data-dir stall --out give1.txt
# A token given and never taken (the payee refused it, the link failed) is taken back only
# swapped at the mint: offline it is refused by name (73), online it is the stall's own again.
t cashu send 2 --mint "$url" --data-dir stall --out back.txt 2>/dev/null
[ "$(balance spendable sat)" = 19 ] || fail "21 - 2 sat should be spendable after giving 2"
expect_status 73 t cashu receive back.txt --data-dir stall
grep -q "this wallet gave this token" err.txt || fail "an own token taken offline is not named: $(cat err.txt)"
t cashu receive back.txt --online --data-dir stall | grep -q "Swapped at the mint at once" ||
    fail "the stall could not take back the token it gave"
[ "$(balance spendable sat)" = 21 ] || fail "the 2 sat taken back are not spendable again"

step "5. the stall's node: a token handed to its API is taken offline and swapped by its sync"
api=$(free_port)
TENDER_SYNC_INTERVAL=1 "$tender" node --data-dir stall --listen "127.0.0.1:$api" >node.log 2>&1 &
node_pid=$!
stop_node() { kill "$node_pid" 2>/dev/null || true; wait "$node_pid" 2>/dev/null || true; }
trap 'stop_node; cleanup' EXIT
# Each wait ends as soon as its condition holds; the deadline is for a machine that is busy.
until_ok() {
    local seconds=$1
    shift
    for _ in $(seq $((seconds * 10))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
    return 1
}
until_ok 120 curl -sf "http://127.0.0.1:$api/healthz" || fail "the node did not start: $(tail -5 node.log)"
call() { curl -s -H "Authorization: Bearer $(cat stall/api-token)" "$@"; }
post_token() { call -o answer.json -w '%{http_code}' -H 'Content-Type: text/plain' --data-binary "$1" \
    "http://127.0.0.1:$api/api/cashu/tokens"; }
call -N "http://127.0.0.1:$api/api/events" >events.txt &
events_pid=$!
until_ok 60 grep -q "tender payments" events.txt || fail "the event stream did not open"
paid=$(wallet alice send 9 -d | token_of)
[ "$(post_token "$paid")" = 201 ] || fail "the node did not take a token: $(cat answer.json)"
grep -q '"state":"received"' answer.json || fail "a token taken offline is not said received: $(cat answer.json)"
id=$(python3 -c "import json; print(json.load(open('answer.json'))['id'])")
[ "$(post_token "$paid")" = 409 ] || fail "a token taken twice was not refused (409): $(cat answer.json)"
forged=$(printf '%s' "$paid" | head -c 60)
[ "$(post_token "$forged")" = 422 ] || fail "a cut token was not refused (422): $(cat answer.json)"
swapped() {
    call "http://127.0.0.1:$api/api/cashu/payments" |
        python3 -c "import json, sys; assert any(p['id'] == $id and p['state'] == 'swapped' for p in json.load(sys.stdin)['payments'])"
}
until_ok 300 swapped || fail "the node's sync did not swap the token: $(grep -i cashu node.log | tail -3)"
until_ok 60 grep -q '^event: cashu' events.txt || fail "the event stream did not announce the token"
kill "$events_pid" 2>/dev/null || true
grep -q "sync: Cashu $url: swapped 9 sat" node.log || fail "the node's log does not say what it swapped: $(grep -i cashu node.log | tail -3)"
# Once more when a scrape does not count it: a failed scrape is then named below.
counted() {
    call -o metrics.txt "http://127.0.0.1:$api/metrics" &&
        grep -q 'tender_cashu_swapped_total{unit="sat"} 9' metrics.txt
}
until_ok 30 counted ||
    fail "the metrics do not count the swap: $(grep -i -e cashu -e error metrics.txt | grep -v '^#' | head -8; head -c 300 metrics.txt)"
call "http://127.0.0.1:$api/api/cashu/balance" | python3 -c "import json, sys; assert sum(int(b['spendable']) for b in json.load(sys.stdin)['balances'] if b['unit'] == 'sat') == 30" ||
    fail "the API's Cashu balance is not 21 + 9 sat"
# A NUT-18 request from the node (in-band): nutshell reads it as the request asked for, and
# its wallet pays it by printing a token, which the till hands in.
creq=$(call "http://127.0.0.1:$api/api/cashu/request?amount=7&id=sale1&memo=tea" |
    python3 -c "import json, sys; print(json.load(sys.stdin)['request'])")
nut18_py() { "$rig/.venv/bin/python" -c "from cashu.core.nuts.nut18 import serialize, deserialize; from cashu.core.base import PaymentRequest, NUT10Option; $1"; }
nut18() { nut18_py "print(serialize(PaymentRequest($1)))"; }
nut18_py "assert deserialize('$creq') == PaymentRequest(i='sale1', a=7, u='sat', s=True, m=['$url'], d='tea')" ||
    fail "nutshell does not read the node's request as asked: $creq"
from_request=$(wallet alice pay "$creq" | token_of)
[ "$(post_token "$from_request")" = 201 ] || fail "the node did not take the token paying its request: $(cat answer.json)"
grep -q '"amount":"7"' answer.json && grep -q '"memo":"tea"' answer.json ||
    fail "the token paying the request is not 7 sat for tea: $(cat answer.json)"
stop_node

step "6. tender pay --cashu pays a NUT-18 request: its amount, mint and lock"
locked_request=$(nut18 "a=3, u='sat', m=['$url'], nut10=NUT10Option(k='P2PK', d='$carol_key')")
t pay --cashu --request "$locked_request" --out give5.txt --data-dir stall 2>/dev/null ||
    fail "tender pay --cashu did not pay the request"
wallet dave receive "$(cat give5.txt)" >/dev/null 2>&1 && fail "a token locked to carol by her request was taken by another wallet"
wallet carol receive "$(cat give5.txt)" >/dev/null || fail "carol could not take the token her request asked for"
expect_status 64 t pay --cashu --request "$(nut18 "a=3, u='sat', nut10=NUT10Option(k='HTLC', d='00')")" --out give6.txt --data-dir stall
grep -q "Tender locks only to a key" err.txt || fail "an HTLC lock is not refused by name: $(cat err.txt)"
expect_status 66 t pay --cashu --request "$(nut18 "a=3, u='sat', m=['https://elsewhere.example']")" --out give6.txt --data-dir stall

step "7. Lightning: tender cashu mint funds the stall from an invoice, tender cashu melt pays one"
before=$(balance spendable sat)
t cashu mint 100 --mint "$url" --wait 600 --data-dir stall >mint.txt 2>err.txt ||
    fail "tender cashu mint did not mint 100 sat: $(cat err.txt)"
own_invoice=$(grep -o '^lnbc[0-9a-z]*' mint.txt | head -1)
[ -n "$own_invoice" ] || fail "tender cashu mint printed no invoice: $(cat mint.txt)"
grep -q "Minted 100 sat" mint.txt || fail "tender cashu mint does not say what it minted: $(cat mint.txt)"
grep -q "Waiting up to 600 s" err.txt || fail "tender cashu mint does not say how long it waits: $(cat err.txt)"
[ "$(balance spendable sat)" = $((before + 100)) ] || fail "100 sat minted are not spendable"
# --wait 0 returns at once: minted already (the FakeWallet pays at once) or left to the sync.
t cashu mint 16 --mint "$url" --wait 0 --json --data-dir stall >quote.json 2>/dev/null ||
    fail "tender cashu mint --wait 0 failed"
minted=$(python3 -c "import json; print(json.load(open('quote.json'))['state'])")
case "$minted" in
    issued) ;;
    unpaid) t cashu sync --data-dir stall >/dev/null || fail "the sync did not mint the quote left unpaid" ;;
    *) fail "a quote is $minted after --wait 0" ;;
esac
[ "$(balance spendable sat)" = $((before + 116)) ] || fail "the 16 sat quote was not minted"
expect_status 64 t cashu mint 16 --quote x --mint "$url" --data-dir stall
expect_status 66 t cashu mint --quote no-such-quote --data-dir stall
# An invoice of a node that is not the mint (random keys): the FakeWallet pays it, 1 sat fee.
invoice() {
    "$rig/.venv/bin/python" - "$1" <<'PY'
import os, sys, time
from bolt11 import Bolt11, Feature, Features, FeatureState, MilliSatoshi, TagChar, Tags, encode
tags = Tags()
tags.add(TagChar.features, Features.from_feature_list({Feature.payment_secret: FeatureState.supported}))
tags.add(TagChar.description, "tender lab")
tags.add(TagChar.payment_secret, os.urandom(32).hex())
tags.add(TagChar.payment_hash, os.urandom(32).hex())
print(encode(Bolt11(currency="bc", amount_msat=MilliSatoshi(int(sys.argv[1]) * 1000), date=int(time.time()), tags=tags), os.urandom(32).hex()))
PY
}
before=$(balance spendable sat)
t cashu melt "$(invoice 50)" --mint "$url" --json --data-dir stall >melt.json 2>err.txt ||
    fail "tender cashu melt did not pay 50 sat: $(cat err.txt)"
python3 -c "import json; m = json.load(open('melt.json')); assert m['state'] == 'paid' and m['amount'] == 50 and m['fee'] == 1 and m['preimage'], m" ||
    fail "the melt is not paid 50 sat with a 1 sat fee: $(cat melt.json)"
grep -q "fee reserve" err.txt || fail "tender cashu melt does not show the fee reserve: $(cat err.txt)"
[ "$(balance spendable sat)" = $((before - 51)) ] || fail "50 sat and 1 sat fee were not all that left the wallet"
[ "$(balance swapping sat)" = 0 ] || fail "proofs are left melting after a paid melt"
# Refused with nothing spent: more than is held, an invoice the mint paid itself, not an invoice.
snapshot >before.sha
expect_status 65 t cashu melt "$(invoice 100000)" --mint "$url" --data-dir stall
grep -q "insufficient funds" err.txt || fail "too large a melt is not said insufficient: $(cat err.txt)"
expect_status 65 t cashu melt "$own_invoice" --mint "$url" --data-dir stall
expect_status 64 t cashu melt "cashuBnotaninvoice" --mint "$url" --data-dir stall
# An invoice with one character changed: its checksum is read here, before the mint is asked.
damaged="${own_invoice:0:20}$([ "${own_invoice:20:1}" = q ] && echo p || echo q)${own_invoice:21}"
expect_status 64 t cashu melt "$damaged" --mint "$url" --data-dir stall
grep -q "not a BOLT11 invoice" err.txt || fail "a damaged invoice is not named: $(cat err.txt)"
[ "$(snapshot)" = "$(cat before.sha)" ] || fail "a refused melt changed the stall's Cashu store"

echo "cashu tests: all passed in $(($(date +%s) - started)) s"
