#!/usr/bin/env bash
# The main job: the whole product on embedded defaults, on one machine.
#  1. a development chain (Rigs/dev-chain), the vault deployed from the binary, an issuer with
#     collateral locked in it, notes issued to Alice;
#  2. Bob's node (`tender node`): its API issues a request, as the point-of-sale page does, and
#     draws its QR code; Alice's node scans that image, pays, and the payment travels back as
#     an animated QR code read frame by frame (no network, no files between them); Bob's node
#     announces it on its event stream and shows the request paid;
#  3. Bob's node settles on the chain by itself (its sync loop), and the chain is read back
#     with web3.py: the vault paid Bob, once;
#  4. a double spend from a copied wallet, refused offline with evidence; a backup of Bob's
#     running node restored elsewhere; Bob's metrics.
# Bluetooth LE payments run in the BLE lab (Hardware/ble-lab, Scripts/test.sh): this machine
# has no radio.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh
swift build -c release --product tender
tender="$PWD/.build/release/tender"
python="$(bash Rigs/dev-chain/venv.sh)"
root=$PWD
work=$(mktemp -d /tmp/tender-demo.XXXXXX)
port=18600
api=18601
rpc="http://127.0.0.1:$port"
node_pid=""
cleanup() {
    [ -n "$node_pid" ] && kill "$node_pid" 2>/dev/null && wait "$node_pid" 2>/dev/null || true
    jobs -p | xargs -r kill 2>/dev/null || true
    bash "$root/Rigs/dev-chain/stop.sh" --port "$port" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
echo "demo passphrase" >passphrase
export TENDER_PASSPHRASE_FILE="$work/passphrase"
say() { printf '\n\033[1;34m## %s\033[0m\n' "$*"; }
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }
json() { "$python" -c "import json,sys; print(json.load(sys.stdin)$1)"; }
call() { curl -s -H "Authorization: Bearer $(cat bob/api-token)" "$@"; }

say "A development chain, the vault, an issuer with collateral"
bash "$root/Rigs/dev-chain/start.sh" --port "$port" --chain-id 31337 | grep -E "^dev-chain: up"
step "$tender" issuer init --data-dir issuer --scrypt-n 16384
issuer=$("$tender" issuer address --data-dir issuer)
"$python" "$root/Rigs/dev-chain/fund.py" --url "$rpc" "$issuer"
vault=$("$tender" vault deploy --data-dir issuer --rpc "$rpc" --json | json '["vault"]')
echo "vault deployed at $vault"
# A development chain's coin has no name until given: this one's is ether, 18 decimals, and
# every amount below is typed and shown in it (the wire, files and --json keep wei).
step "$tender" chain add --data-dir issuer --id 31337 --vault "$vault" --rpc "$rpc" \
    --native-symbol ETH --native-decimals 18
step "$tender" issuer deposit --data-dir issuer --rpc "$rpc" --vault "$vault" --amount 5 --lock-for 3456000
for name in alice bob carol; do
    step "$tender" init --data-dir "$name" --scrypt-n 16384 --chain-id 31337 --vault "$vault"
    "$tender" trust add "$issuer" --data-dir "$name" >/dev/null
    "$tender" chain add --data-dir "$name" --id 31337 --vault "$vault" --rpc "$rpc" \
        --confirmations 1 --native-symbol ETH --native-decimals 18 >/dev/null
done
alice=$("$tender" address --data-dir alice)
bob=$("$tender" address --data-dir bob)
carol=$("$tender" address --data-dir carol)
step "$tender" issuer issue --data-dir issuer --rpc "$rpc" --vault "$vault" --chain-id 31337 \
    --to "$alice" --amount 0.5 --count 4 --out notes.tender
step "$tender" receive notes.tender --data-dir alice
step "$tender" balance --data-dir alice

say "Bob's node: the API, the event stream, the sync loop"
"$python" "$root/Rigs/dev-chain/fund.py" --url "$rpc" "$bob" >/dev/null # gas for settling
step "$tender" chain list --data-dir bob
TENDER_SYNC_INTERVAL=2 "$tender" node --data-dir bob --listen "127.0.0.1:$api" 2>node.log &
node_pid=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$api/healthz" >/dev/null && break; sleep 0.1; done
echo "tender node serving on 127.0.0.1:$api (point of sale: http://127.0.0.1:$api/pos#token=…)"
call -N "http://127.0.0.1:$api/api/events" >events.txt &

say "A sale over QR codes: Bob's request on screen, Alice's payment back as an animated code"
# The API takes base units (wei: 0.0125 ETH), as the point-of-sale page sends them.
printf '\n\033[1m$ %s\033[0m\n' "curl -X POST /api/requests {\"amount\": \"12500000000000000\", \"memo\": \"market stall\"}"
request=$(call -X POST -d '{"amount": "12500000000000000", "memo": "market stall"}' "http://127.0.0.1:$api/api/requests")
echo "$request"
id=$(echo "$request" | json '["requestId"]')
call -o request.png "http://127.0.0.1:$api/api/requests/$id/qr.png"
step "$tender" scan --data-dir alice --image request.png
uri=$("$tender" scan --data-dir alice --image request.png | tail -n 1)
step "$tender" pay --data-dir alice --request "$uri" --out qr-payment.tender
step "$tender" show qr-payment.tender --fragment 300 --frames-out payment.grey
printf '\n\033[1m$ %s\033[0m\n' "tender receive --data-dir bob --frames 640x480 --qr < payment.grey"
"$tender" receive --data-dir bob --frames 640x480 --qr --receipt-out qr-receipt.tender <payment.grey
step "$tender" receipt qr-receipt.tender --data-dir alice
for _ in $(seq 50); do grep -q "^event: payment" events.txt && break; sleep 0.1; done
echo "Bob's event stream:"
grep -A2 "^event: payment" events.txt
printf 'the request now reads: '
call "http://127.0.0.1:$api/api/requests/$id" | json '["state"]'

say "Settlement: Bob's node redeems the coin on the chain by itself"
call -X POST "http://127.0.0.1:$api/api/sync" >/dev/null
unsettled() {
    call "http://127.0.0.1:$api/api/balance" | "$python" -c \
        'import json,sys; print(sum(int(a["receivedUnsettled"]) for d in json.load(sys.stdin)["domains"] for a in d["assets"]))'
}
for _ in $(seq 60); do [ "$(unsettled)" = 0 ] && break; sleep 1; done
grep "sync:" node.log | sed 's/^[^ ]* //' | head -8
"$python" "$root/Tests/ChainLab/check.py" --url "$rpc" --vault "$vault" --issuer "$issuer" \
    --deposit 5000000000000000000 --paid "$bob=12500000000000000" --coins 1
step "$tender" balance --data-dir bob

say "A double spend: Alice's wallet copied, the same coin paid to Carol twice"
cp -r alice alice-copy
step "$tender" pay --data-dir alice-copy --to "$carol" --amount 0.12 --out second.tender
step "$tender" pay --data-dir alice --to "$carol" --amount 0.1 --out first.tender
step "$tender" receive first.tender --data-dir carol
echo "(the second payment spends the same change coin: Carol must refuse it)"
if "$tender" receive second.tender --data-dir carol; then
    echo "demo: the double spend was accepted" >&2
    exit 1
fi
step "$tender" evidence --data-dir carol

say "A backup of Bob's running node, restored elsewhere"
step "$tender" backup --data-dir bob --out bob.tenderbackup
step "$tender" restore bob.tenderbackup --data-dir bob-restored
[ "$("$tender" balance --data-dir bob --json)" = "$("$tender" balance --data-dir bob-restored --json)" ] &&
    echo "the restored node holds the same balances"

say "Bob's metrics (Prometheus)"
call "http://127.0.0.1:$api/metrics" | grep -E "^tender_(payments_received_total|sync_passes_total|coins\{.*(redeemed|unspent))" || true
kill -TERM "$node_pid"
wait "$node_pid" && node_pid=""
echo
echo "Demo complete: a sale by QR between two nodes, settled on the chain by the payee's node."
