#!/usr/bin/env bash
# Settlement end to end through the CLI on two dev chains (Rigs/dev-chain), checked by web3.py:
#  1. an issuer deploys the embedded vault, deposits and locks collateral, and issues notes
#     checked against it (`issuer issue --rpc`); notes beyond its collateral are refused;
#     `vault deploy` prints the next steps; `chain add` refuses an address without a vault
#     (no code, a token) or an endpoint of another chain, and `init` takes the vault listed;
#     a sync on a home vault without code names it;
#  2. Alice pays Bob, Bob pays Carol (two hops, files); Carol accepts an issuer she does not
#     trust in open mode, once `tender sync` has read the vault's collateral;
#     Alice (no gas) syncs: her coins are kept (a payer redeems only what it cannot pay
#     with); `--redeem all` says "no gas" with her address and sends nothing, nothing held;
#  3. a copy of Alice's wallet spends the same coins to Dave: both hold valid payments offline;
#  4. Bob, Carol and Dave sync: the first paid gets the coins, Dave's are conflicted and the
#     vault records the double spend naming Alice; a kill -9 right after a redeem is recorded
#     and again right after it is sent, then a plain sync: nothing redeemed twice;
#     coins worth less than their gas wait (said, nothing sent) until --dust redeem;
#  5. faults: the chain unreachable (exit 74), a chain of another id (exit 64), nothing changed;
#     an error answer to Bob's redeem (it reached the chain), then a garbage receipt and an HTML
#     answer (a proxy spoils them, exit 74): the wallet unchanged, the next sync settles it;
#  6. web3.py reads the vault's events and collateral and agrees with every figure;
#  7. two chains in one sync: Carol is paid on a second chain (another vault, chain id 31338),
#     refused until she lists it (`tender chain add`, a dead endpoint first), then one
#     `tender sync` settles both chains side by side; web3.py checks the second vault;
#  8. a token (TUSD, 6 decimals): the issuer deposits 7.00 and issues 1.25 (its commands read
#     the decimals through --rpc), Carol's sync reads them and her amounts read 2.50 TUSD.
#   TENDER=.build/debug/tender bash Tests/ChainLab/settle-tests.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
tender=$(realpath "${TENDER:-.build/debug/tender}")
python="$(bash Rigs/dev-chain/venv.sh)"
work=$(mktemp -d /tmp/tender-chain.XXXXXX)
port=18745
other=18746
rpc="http://127.0.0.1:$port"
cleanup() {
    bash Rigs/dev-chain/stop.sh --port "$port" >/dev/null 2>&1 || true
    bash Rigs/dev-chain/stop.sh --port "$other" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
echo "chain test passphrase" >"$work/passphrase"
export TENDER_PASSPHRASE_FILE=$work/passphrase
started=$(date +%s)
bash Rigs/dev-chain/start.sh --port "$port" --chain-id 31337 | grep -E "^dev-chain: up"
bash Rigs/dev-chain/start.sh --port "$other" --chain-id 31338 | grep -E "^dev-chain: up"

step() { printf '\n== %s\n' "$*"; }
fail() { echo "chain lab: FAILED: $*" >&2; exit 1; }
json() { "$python" -c "import json,sys; print(json.load(sys.stdin)$1)"; }
t() { "$tender" "$@"; }

step "issuer: deploy, deposit, lock"
t issuer init --data-dir "$work/issuer" --scrypt-n 1024 >/dev/null
issuer=$(t issuer address --data-dir "$work/issuer")
for name in alice bob carol dave; do
    t init --data-dir "$work/$name" --scrypt-n 1024 >/dev/null
done
"$python" Rigs/dev-chain/fund.py --url "$rpc" "$issuer" \
    "$(t address --data-dir "$work/bob")" "$(t address --data-dir "$work/carol")" \
    "$(t address --data-dir "$work/dave")"
vault=$(t vault deploy --data-dir "$work/issuer" --rpc "$rpc" --json | json '["vault"]')
echo "vault $vault"
# The wallets were made for the embedded default vault: these notes are for the new one.
for name in alice bob carol dave; do
    rm -rf "$work/$name"
    t init --data-dir "$work/$name" --scrypt-n 1024 --chain-id 31337 --vault "$vault" >/dev/null
done
alice=$(t address --data-dir "$work/alice")
bob=$(t address --data-dir "$work/bob")
carol=$(t address --data-dir "$work/carol")
dave=$(t address --data-dir "$work/dave")
"$python" Rigs/dev-chain/fund.py --url "$rpc" "$bob" "$carol" "$dave" >/dev/null
deposit=1000000
t issuer deposit --data-dir "$work/issuer" --rpc "$rpc" --vault "$vault" --amount "$deposit" \
    --lock-for $((40 * 86400))
t issuer status --data-dir "$work/issuer" --rpc "$rpc" --vault "$vault"
if t issuer issue --data-dir "$work/issuer" --rpc "$rpc" --vault "$vault" --chain-id 31337 \
    --to "$alice" --amount 600000 --count 2 --out "$work/too-much.tender"; then
    fail "notes beyond the collateral were issued"
fi
t issuer issue --data-dir "$work/issuer" --rpc "$rpc" --vault "$vault" --chain-id 31337 \
    --to "$alice" --amount 1000 --count 4 --out "$work/notes.tender"

step "set-up checks: chain add asks the endpoint what stands at the vault address"
deployed=$(t vault deploy --data-dir "$work/issuer" --rpc "$rpc")
echo "$deployed"
second=$(sed -n 's/^Vault \(0x[0-9a-fA-F]*\) deployed.*/\1/p' <<<"$deployed")
grep -q "tender chain add --id 31337 --vault $second --rpc $rpc" <<<"$deployed" \
    || fail "vault deploy names no next step"
grep -q "tender init --chain-id 31337 --vault $second" <<<"$deployed" || fail "no init step"
grep -q "tender chain add --id 31337 --vault $second --rpc URL" <<<"$deployed" || fail "no wallet step"
nowhere=0x00000000000000000000000000000000DeaDBeef
status=0; t chain add --data-dir "$work/checks" --id 31337 --vault "$nowhere" --rpc "$rpc" \
    2>"$work/err" || status=$?
[ "$status" = 64 ] && grep -q "there is no contract at 0x00000000000000000000000000000000DeaDBeef on chain 31337" "$work/err" \
    || fail "no contract ($status): $(cat "$work/err")"
status=0; t chain add --data-dir "$work/checks" --id 31338 --vault "$second" --rpc "$rpc" \
    2>"$work/err" || status=$?
[ "$status" = 64 ] && grep -q "serves chain 31337, not chain 31338" "$work/err" \
    || fail "another chain ($status): $(cat "$work/err")"
[ ! -e "$work/checks/chains.toml" ] || fail "a refused entry was written"
checked=$(t chain add --data-dir "$work/checks" --id 31337 --vault "$second" --rpc "$rpc")
grep -q "Checked: a Tender vault at $second on chain 31337" <<<"$checked" || fail "checked: $checked"
# init takes the vault listed; the issuer's commands find it there too.
home=$(t init --data-dir "$work/checks" --scrypt-n 1024)
grep -q "Home: chain 31337, vault $second" <<<"$home" || fail "init: $home"
cp "$work/checks/chains.toml" "$work/issuer/chains.toml"
status_text=$(t issuer status --data-dir "$work/issuer")
grep -q "in vault $second (chain 31337" <<<"$status_text" || fail "issuer status: $status_text"
rm "$work/issuer/chains.toml"
# A home vault without a contract (listed unchecked): the sync names it, settles nothing.
t init --data-dir "$work/nowhere" --scrypt-n 1024 --vault "$nowhere" >/dev/null
t chain add --data-dir "$work/nowhere" --id 31337 --vault "$nowhere" --rpc "$rpc" --no-check >/dev/null
status=0; t sync --data-dir "$work/nowhere" 2>"$work/err" >"$work/out" || status=$?
[ "$status" = 64 ] && grep -q "there is no contract at $nowhere on chain 31337" "$work/err" "$work/out" \
    || fail "sync on a vault without code ($status): $(cat "$work/err" "$work/out")"

step "two hops offline: Alice -> Bob -> Carol"
t trust add "$issuer" --data-dir "$work/alice" >/dev/null
t trust add "$issuer" --data-dir "$work/bob" >/dev/null
t trust add "$issuer" --data-dir "$work/dave" >/dev/null
t receive "$work/notes.tender" --data-dir "$work/alice" >/dev/null
t pay --data-dir "$work/alice" --to "$bob" --amount 2500 --out "$work/to-bob.tender" >/dev/null
t receive "$work/to-bob.tender" --data-dir "$work/bob" --receipt-out "$work/bob-receipt.tender"
t receipt "$work/bob-receipt.tender" --data-dir "$work/alice" >/dev/null
t pay --data-dir "$work/bob" --to "$carol" --amount 1200 --out "$work/to-carol.tender" >/dev/null
t trust mode open --data-dir "$work/carol"
if t receive "$work/to-carol.tender" --data-dir "$work/carol"; then
    fail "Carol accepted an issuer she does not trust before reading its collateral"
fi
t sync --data-dir "$work/carol" --rpc "$rpc" --once
t receive "$work/to-carol.tender" --data-dir "$work/carol" --receipt-out "$work/carol-receipt.tender"
t receipt "$work/carol-receipt.tender" --data-dir "$work/bob" >/dev/null

step "a payer without gas: sync keeps her coins; --redeem all is refused in words, nothing held"
spendable() { t balance --data-dir "$work/$1" --json | json "['assets'][0]['spendable']"; }
before=$(spendable alice)
kept=$(t sync --data-dir "$work/alice" --rpc "$rpc" --once)
echo "$kept"
grep -q "coin(s) kept to pay with" <<<"$kept" || fail "a payer's sync: $kept"
status=0; t sync --redeem all --dust redeem --data-dir "$work/alice" --rpc "$rpc" --once \
    2>"$work/err" || status=$?
cat "$work/err"
[ "$status" = 69 ] && grep -q "no gas: $alice holds 0 .* on chain 31337" "$work/err" \
    && grep -q "this batch was not sent" "$work/err" || fail "no gas ($status): $(cat "$work/err")"
[ "$(spendable alice)" = "$before" ] || fail "Alice's coins changed: $before -> $(spendable alice)"

step "a double spend: a copy of Alice's wallet pays Dave with the coins she pays Carol"
cp -r "$work/alice" "$work/alice-copy"
t pay --data-dir "$work/alice" --to "$carol" --amount 1400 --out "$work/alice-carol.tender" >/dev/null
t pay --data-dir "$work/alice-copy" --to "$dave" --amount 1400 --out "$work/alice-dave.tender" >/dev/null
t receive "$work/alice-carol.tender" --data-dir "$work/carol" >/dev/null
t receive "$work/alice-dave.tender" --data-dir "$work/dave" >/dev/null

step "faults: unreachable chain, wrong chain id: exit status, nothing changed"
before=$(t balance --data-dir "$work/carol" --json)
status=0; t sync --redeem all --data-dir "$work/carol" --rpc http://127.0.0.1:9 --once || status=$?
[ "$status" = 74 ] || fail "unreachable chain: exit $status, expected 74"
status=0; t sync --redeem all --data-dir "$work/carol" --rpc "http://127.0.0.1:$other" --once || status=$?
[ "$status" = 64 ] || fail "wrong chain id: exit $status, expected 64"
[ "$(t balance --data-dir "$work/carol" --json)" = "$before" ] || fail "a failed sync changed Carol's wallet"

step "faults mid-sync: Bob through a proxy that spoils some answers (errors, garbage, HTML)"
# Starts the proxy in front of the chain with these spoils; sets $spoiling to its URL.
spoil() {
    "$python" Tests/ChainLab/garbling_proxy.py --upstream "$rpc" "$@" >"$work/proxy.port" &
    proxy=$!
    for _ in $(seq 600); do [ -s "$work/proxy.port" ] && break; sleep 0.1; done
    spoiling="http://127.0.0.1:$(cat "$work/proxy.port")"
}
unspoil() { kill "$proxy"; wait "$proxy" 2>/dev/null || true; rm -f "$work/proxy.port"; }
# The redeem reaches the chain, but its sender is answered an error: it stays recorded.
spoil --spoil eth_sendRawTransaction=error
status=0; t sync --redeem all --data-dir "$work/bob" --rpc "$spoiling" --dust redeem --once 2>"$work/err" || status=$?
unspoil
[ "$status" = 74 ] || fail "an error answer to a send: exit $status, expected 74"
grep -q "spoiled by the proxy" "$work/err" || fail "the RPC error was not named: $(cat "$work/err")"
bob_before=$(t balance --data-dir "$work/bob" --json)
spoil --spoil eth_getTransactionReceipt=garbage
status=0; t sync --redeem all --data-dir "$work/bob" --rpc "$spoiling" --dust redeem --once 2>"$work/err" || status=$?
unspoil
[ "$status" = 74 ] || fail "a garbage receipt: exit $status, expected 74"
grep -q "not-a-number" "$work/err" || fail "the garbage was not named: $(cat "$work/err")"
spoil --spoil eth_chainId=html
status=0; t sync --redeem all --data-dir "$work/bob" --rpc "$spoiling" --dust redeem --once 2>"$work/err" || status=$?
unspoil
[ "$status" = 74 ] || fail "an HTML answer: exit $status, expected 74"
cat "$work/err"
[ "$(t balance --data-dir "$work/bob" --json)" = "$bob_before" ] || fail "garbage changed Bob's wallet"

step "dust: Carol's coins (2,600 wei) are worth less than the gas of redeeming them: they wait"
# Through an endpoint with credentials in it (the dev chain ignores them): never shown.
dust_summary=$(t sync --redeem all --data-dir "$work/carol" --rpc "http://lab:LABSECRET@${rpc#http://}/PATHSECRET" --once --json)
echo "$dust_summary" | json '["events"]'
if echo "$dust_summary" | grep -q SECRET; then fail "sync --json showed the endpoint's secrets: $dust_summary"; fi
echo "$dust_summary" | grep -q '\*\*\*@' || fail "sync --json named no endpoint: $dust_summary"
echo "$dust_summary" | json '["events"]' | grep -q "2 coin(s) worth 2600 wei in all wait" \
    || fail "Carol's dust was not said: $dust_summary"
[ "$(echo "$dust_summary" | json '["coins"]["unspent"]')" = 2 ] || fail "dust went out: $dust_summary"
[ "$(echo "$dust_summary" | json '["waitingForGas"]')" = 2 ] || fail "no waitingForGas: $dust_summary"
[ "$(echo "$dust_summary" | json '["openTransactions"]')" = 0 ] || fail "dust went out: $dust_summary"

step "sync (dust redeemed: test amounts): Carol killed after recording, then after sending; Bob; Dave"
status=0; TENDER_CRASH_AT=sync.recorded t sync --redeem all --data-dir "$work/carol" --rpc "$rpc" --dust redeem --once || status=$?
[ "$status" = 137 ] || fail "the crash point sync.recorded was not hit (exit $status)"
status=0; TENDER_CRASH_AT=sync.sent t sync --redeem all --data-dir "$work/carol" --rpc "$rpc" --dust redeem --once || status=$?
[ "$status" = 137 ] || fail "the crash point sync.sent was not hit (exit $status)"
carol_summary=$(t sync --redeem all --data-dir "$work/carol" --rpc "$rpc" --dust redeem --confirmations 1 --json)
grep -q "redeemed (2600 base units (native coin) paid to this node's address)" <<<"$carol_summary" \
    || fail "the settled line says no amount: $carol_summary"
echo "$carol_summary" | json '["events"]'
[ "$(echo "$carol_summary" | json '["coins"]["redeemed"]')" = 2 ] || fail "Carol: $carol_summary"
# On a terminal (script(1) gives it one), sync draws a bar of the coins settled.
script -qec "'$tender' sync --redeem all --data-dir '$work/bob' --rpc '$rpc' --dust redeem --confirmations 1" /dev/null \
    >"$work/bob-tty" || fail "Bob's sync on a terminal failed: $(cat -v "$work/bob-tty")"
cat -v "$work/bob-tty"
grep -q "100 % 1/1 coins settled" "$work/bob-tty" || fail "no progress bar: $(cat -v "$work/bob-tty")"
dave_summary=$(t sync --redeem all --data-dir "$work/dave" --rpc "$rpc" --dust redeem --confirmations 1 --json)
echo "$dave_summary" | json '["events"]'
[ "$(echo "$dave_summary" | json '["coins"]["conflicted"]')" = 1 ] || fail "Dave: $dave_summary"
[ "$(echo "$dave_summary" | json '["coins"]["redeemed"]')" = 0 ] || fail "Dave: $dave_summary"
t balance --data-dir "$work/carol"

step "the chain's word (web3.py)"
# Carol: 1200 (two hops) and 1400 (a coin whose transfer spent a note and change); Bob: his
# 1300 change. Three coins.
"$python" Tests/ChainLab/check.py --url "$rpc" --vault "$vault" --issuer "$issuer" \
    --deposit "$deposit" --paid "$carol=2600" --paid "$bob=1300" --coins 3 \
    --double-spender "$alice"

step "two chains in one sync: chain 31338 listed in Carol's registry"
other_rpc="http://127.0.0.1:$other"
"$python" Rigs/dev-chain/fund.py --url "$other_rpc" "$issuer" "$carol" >/dev/null
vault2=$(t vault deploy --data-dir "$work/issuer" --rpc "$other_rpc" --json | json '["vault"]')
t issuer deposit --data-dir "$work/issuer" --rpc "$other_rpc" --vault "$vault2" \
    --amount 50000 --lock-for $((40 * 86400)) >/dev/null
t issuer issue --data-dir "$work/issuer" --rpc "$other_rpc" --vault "$vault2" --chain-id 31338 \
    --to "$carol" --amount 700 --count 3 --out "$work/carol-31338.tender"
t issuer issue --data-dir "$work/issuer" --rpc "$rpc" --vault "$vault" --chain-id 31337 \
    --to "$carol" --amount 500 --count 1 --out "$work/carol-31337.tender"
t trust add "$issuer" --data-dir "$work/carol" >/dev/null
status=0; t receive "$work/carol-31338.tender" --data-dir "$work/carol" || status=$?
[ "$status" = 65 ] || fail "a payment on an unlisted chain: exit $status, expected 65"
[ ! -e "$work/carol/wallets" ] || fail "an unlisted chain's payment made a wallet"
t chain add --data-dir "$work/carol" --id 31338 --vault "$vault2" --rpc http://127.0.0.1:9 \
    --rpc "$other_rpc" --confirmations 1 --rate-limit 50 --dust redeem
t chain add --data-dir "$work/carol" --id 31337 --vault "$vault" --rpc "$rpc" --confirmations 1 \
    --dust redeem
t chain list --data-dir "$work/carol"
t receive "$work/carol-31338.tender" --data-dir "$work/carol" >/dev/null
t receive "$work/carol-31337.tender" --data-dir "$work/carol" >/dev/null
t balance --data-dir "$work/carol"
both=$(t sync --redeem all --data-dir "$work/carol" --json)
echo "$both" | json '["events"]'
[ "$(echo "$both" | json '["chains"].__len__()')" = 2 ] || fail "one sync, two chains: $both"
[ "$(echo "$both" | json '["chains"][1]["coins"]["redeemed"]')" = 3 ] || fail "chain 31338: $both"
[ "$(echo "$both" | json '["coins"]["redeemed"]')" = 6 ] || fail "both chains: $both"
[ "$(echo "$both" | json '["openTransactions"]')" = 0 ] || fail "both chains: $both"
"$python" Tests/ChainLab/check.py --url "$other_rpc" --vault "$vault2" --issuer "$issuer" \
    --deposit 50000 --paid "$carol=2100" --coins 3
"$python" Tests/ChainLab/check.py --url "$rpc" --vault "$vault" --issuer "$issuer" \
    --deposit "$deposit" --paid "$carol=3100" --paid "$bob=1300" --coins 4 \
    --double-spender "$alice"

step "a token: amounts in its symbol and decimals, read from its contract"
token=$("$python" Tests/ChainLab/deploy_token.py --url "$rpc" --mint 10000000 --to "$issuer")
echo "token $token"
# The issuer's commands read the token's decimals through --rpc: 7.00 TUSD is 7,000,000 units.
# (Enough for the notes issued below: notes redeemed still count as outstanding until they
# expire, so after 2.50 redeemed, 4.50 left covers 2.50 + 1.25.)
deposited=$(t issuer deposit --data-dir "$work/issuer" --rpc "$rpc" --vault "$vault" \
    --asset "$token" --amount 7.00)
echo "$deposited"
[[ "$deposited" == "Deposited 7.00 TUSD "* ]] || fail "the deposit: $deposited"
status=0; t issuer issue --data-dir "$work/issuer" --rpc "$rpc" --vault "$vault" --chain-id 31337 \
    --asset "$token" --to "$carol" --amount 1.2500001 --out "$work/x.tender" 2>"$work/err" || status=$?
[ "$status" = 64 ] && grep -q "has 7 decimals; TUSD has 6" "$work/err" || fail "7 decimals: $(cat "$work/err")"
t issuer issue --data-dir "$work/issuer" --rpc "$rpc" --vault "$vault" --chain-id 31337 \
    --asset "$token" --to "$carol" --amount 1.25 --count 2 --out "$work/carol-token.tender"
# Carol has not read the token yet: base units, said so; her sync reads it.
received=$(t receive "$work/carol-token.tender" --data-dir "$work/carol")
[[ "$received" == "Received 2500000 base units of $token in 2 coin(s)"* ]] || fail "received: $received"
synced=$(t sync --redeem all --data-dir "$work/carol")
echo "$synced"
grep -q "token $token is TUSD (6 decimals)" <<<"$synced" || fail "the sync did not read the token"
# A contract that is not a vault: refused as such.
status=0; t chain add --data-dir "$work/checks" --id 31337 --vault "$token" --rpc "$rpc" \
    2>"$work/err" || status=$?
[ "$status" = 64 ] && grep -q "a contract that is not a Tender vault" "$work/err" \
    || fail "a token as a vault ($status): $(cat "$work/err")"
history=$(t history --data-dir "$work/carol")
grep -q "in   2.50 TUSD (${token:0:6}…${token: -4})" <<<"$history" || fail "Carol's history: $history"
# Read now: a note that comes after is received, held and shown in TUSD; --json in base units.
t issuer issue --data-dir "$work/issuer" --rpc "$rpc" --vault "$vault" --chain-id 31337 \
    --asset "$token" --to "$carol" --amount 1.25 --out "$work/carol-token2.tender" >/dev/null
received=$(t receive "$work/carol-token2.tender" --data-dir "$work/carol")
[[ "$received" == "Received 1.25 TUSD (${token:0:6}…${token: -4}) in 1 coin(s)"* ]] || fail "received: $received"
t balance --data-dir "$work/carol" | tee "$work/carol-balance"
grep -q "Asset: TUSD, $token" "$work/carol-balance" || fail "Carol's balance names no TUSD"
grep -q "spendable           1.25 TUSD" "$work/carol-balance" || fail "Carol's balance"
grep -q "redeemed            2.50 TUSD  (paid to this address on chain" "$work/carol-balance" \
    || fail "Carol's balance shows nothing redeemed"
# (The native coin she redeemed shows too: the token is found by its address.)
[ "$(t balance --data-dir "$work/carol" --json | "$python" -c "import json,sys; print([a['spendable'] for a in json.load(sys.stdin)['assets'] if a['asset'] == '$token'][0])")" = 1250000 ] \
    || fail "--json: $(t balance --data-dir "$work/carol" --json)"

step "uncovered: notes issued in two calls past the collateral; the vault refuses the last coin, held back and said"
# 47,900 left on chain 31338: each call fits it, both together do not. One folder counts what
# it issued: its second call is refused; a second folder with the same key (another laptop)
# does not know of the first, and the vault is the last word.
t issuer issue --data-dir "$work/issuer" --rpc "$other_rpc" --vault "$vault2" --chain-id 31338 \
    --to "$carol" --amount 40000 --out "$work/carol-big1.tender" >/dev/null
status=0; t issuer issue --data-dir "$work/issuer" --rpc "$other_rpc" --vault "$vault2" \
    --chain-id 31338 --to "$carol" --amount 30000 --out "$work/refused.tender" 2>"$work/err" \
    || status=$?
[ "$status" = 65 ] && grep -q "these notes total 30000 base units, with 42100 base units issued before and not yet expired" "$work/err" \
    && [ ! -e "$work/refused.tender" ] || fail "a second issuance past the collateral ($status): $(cat "$work/err")"
t issuer status --data-dir "$work/issuer" --rpc "$other_rpc" --vault "$vault2" | tee "$work/status"
grep -q "outstanding (issued from this folder, not yet expired, redeemed ones included): 42100 base units in" "$work/status" \
    || fail "issuer status shows nothing outstanding"
mkdir -m 700 "$work/issuer-laptop"
cp "$work/issuer/issuer-key.json" "$work/issuer-laptop/"
t issuer issue --data-dir "$work/issuer-laptop" --rpc "$other_rpc" --vault "$vault2" --chain-id 31338 \
    --to "$carol" --amount 30000 --out "$work/carol-big2.tender" >/dev/null
t receive "$work/carol-big1.tender" --data-dir "$work/carol" >/dev/null
t receive "$work/carol-big2.tender" --data-dir "$work/carol" >/dev/null
held=$(t sync --redeem all --data-dir "$work/carol" --chain-id 31338 --json)
echo "$held" | json '["events"]'
[ "$(echo "$held" | json '["heldBack"]')" = 1 ] || fail "no coin held back: $held"
[ "$(echo "$held" | json '["chains"][0]["heldBack"][0]["reason"]')" = uncovered ] || fail "held: $held"
[ "$(echo "$held" | json '["chains"][0]["coins"]["redeemed"]')" = 4 ] || fail "held: $held"
text=$(t sync --redeem all --data-dir "$work/carol" --chain-id 31338 --once)
echo "$text"
grep -q "held back: 1 coin(s) of issuer .* (the vault found the issuer short of collateral)" <<<"$text" \
    || fail "the text does not say the hold: $text"

step "a sync that stops at --timeout with a redeem still open says so; the next settles it"
# On chain 31337, whose issuer has collateral left (31338's is held back above).
t issuer issue --data-dir "$work/issuer" --rpc "$rpc" --vault "$vault" --chain-id 31337 \
    --to "$carol" --amount 1000 --out "$work/carol-late.tender" >/dev/null
t receive "$work/carol-late.tender" --data-dir "$work/carol" >/dev/null
text=$(t sync --redeem all --data-dir "$work/carol" --chain-id 31337 --confirmations 50 --timeout 1 --interval 0.2)
echo "$text"
grep -q -- "--timeout 1 s reached: 1 transaction(s) still wait for their blocks" <<<"$text" \
    || fail "the timeout was not said: $text"
settled=$(t sync --redeem all --data-dir "$work/carol" --chain-id 31337 --confirmations 1 --json)
[ "$(echo "$settled" | json '["openTransactions"]')" = 0 ] || fail "late: $settled"
[ "$(echo "$settled" | json '["coins"]["unspent"]')" = 0 ] || fail "late: $settled"

step "an issuer's collateral: a lock extended without a deposit; withdrawn only after the lock"
t issuer init --data-dir "$work/aid" --scrypt-n 1024 >/dev/null
aid=$(t issuer address --data-dir "$work/aid")
"$python" Rigs/dev-chain/fund.py --url "$other_rpc" "$aid" >/dev/null
t issuer deposit --data-dir "$work/aid" --rpc "$other_rpc" --vault "$vault2" --amount 5000 \
    --lock-for 600 >/dev/null
locked=$(t issuer lock --data-dir "$work/aid" --rpc "$other_rpc" --vault "$vault2" --lock-for 3600)
echo "$locked"
grep -q "locked until" <<<"$locked" || fail "lock: $locked"
status=0; t issuer lock --data-dir "$work/aid" --rpc "$other_rpc" --vault "$vault2" --lock-for 60 \
    2>"$work/err" || status=$?
[ "$status" = 64 ] && grep -q "a lock is only ever extended" "$work/err" || fail "shorter lock: $(cat "$work/err")"
# Notes outliving the lock (30 days against an hour): refused as a payee would refuse them.
status=0; t issuer issue --data-dir "$work/aid" --rpc "$other_rpc" --vault "$vault2" \
    --chain-id 31338 --to "$issuer" --amount 100 --out "$work/aid-notes" 2>"$work/err" || status=$?
[ "$status" = 65 ] && grep -q "locked only until" "$work/err" && grep -q "tender issuer lock --lock-for" "$work/err" \
    || fail "notes past the lock ($status): $(cat "$work/err")"
status=0; t issuer withdraw --data-dir "$work/aid" --rpc "$other_rpc" --vault "$vault2" \
    --amount 2000 2>"$work/err" || status=$?
[ "$status" = 64 ] && grep -q "it can be withdrawn once the lock ends" "$work/err" \
    || fail "a withdrawal while locked ($status): $(cat "$work/err")"
later=$(($(date +%s) + 7200))
"$python" - "$other_rpc" "$later" <<'PY'
import sys
from web3 import Web3
web3 = Web3(Web3.HTTPProvider(sys.argv[1]))
web3.provider.make_request("evm_setNextBlockTimestamp", [int(sys.argv[2])])
web3.provider.make_request("evm_mine", [])
PY
withdrawn=$(TENDER_NOW=$((later + 1)) t issuer withdraw --data-dir "$work/aid" --rpc "$other_rpc" \
    --vault "$vault2" --amount 2000)
echo "$withdrawn"
grep -q "Withdrew 2000 base units .* 3000 base units left" <<<"$withdrawn" || fail "withdraw: $withdrawn"
left=$("$python" - "$other_rpc" "$vault2" "$aid" <<'PY'
import sys
from web3 import Web3
web3 = Web3(Web3.HTTPProvider(sys.argv[1]))
abi = [{"name": "collateral", "type": "function", "stateMutability": "view",
        "inputs": [{"name": "", "type": "address"}, {"name": "", "type": "address"}],
        "outputs": [{"name": "", "type": "uint256"}]}]
vault = web3.eth.contract(address=Web3.to_checksum_address(sys.argv[2]), abi=abi)
print(vault.functions.collateral(Web3.to_checksum_address(sys.argv[3]),
                                 "0x0000000000000000000000000000000000000000").call())
PY
)
[ "$left" = 3000 ] || fail "web3.py reads $left left, not 3000"

echo
echo "chain lab: passed in $(($(date +%s) - started)) s"
