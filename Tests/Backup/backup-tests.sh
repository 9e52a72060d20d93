#!/usr/bin/env bash
# `tender backup` and `tender restore` through the built binary (Docs/BACKUP.md):
#  1. Alice's node: notes in, a payment out (receipt recorded), one in from Bob, a request,
#     a node.toml;
#  2. `tender node --no-sync` runs on her folder while `tender receive` keeps writing to it:
#     every backup taken meanwhile restores into a fresh folder whose balance matches its
#     own history;
#  3. a final backup (the node still running) restores to the same address, balance,
#     history and payments; node.toml and the API token come back byte for byte;
#  4. refused: an output inside the data directory (64), an existing output (73), a wrong
#     passphrase (77) and a changed byte (65) with nothing written, a folder with contents
#     without --force (73), --force while the node holds the wallet (75);
#  5. the node stopped: an older backup is refused over the newer wallet (73), and --force
#     with a current one replaces its folder, the old one kept aside.
#   TENDER=.build/debug/tender bash Tests/Backup/backup-tests.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
tender=$(realpath "${TENDER:-.build/debug/tender}")
work=$(mktemp -d /tmp/tender-backup.XXXXXX)
node_pid=""
cleanup() {
    [ -n "$node_pid" ] && kill "$node_pid" 2>/dev/null || true
    [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
echo "backup tests passphrase" >passphrase
export TENDER_PASSPHRASE_FILE=$work/passphrase
started=$(date +%s)

step() { printf '== %s\n' "$*"; }
fail() {
    echo "backup tests: FAILED: $*" >&2
    [ -f node.log ] && tail -5 node.log >&2
    exit 1
}
t() { "$tender" "$@"; }
# Runs the command after $1, which must exit with status $1.
expect_status() {
    local want=$1 got=0
    shift
    "$@" >/dev/null 2>err.txt || got=$?
    [ "$got" = "$want" ] || fail "$* exited $got, not $want: $(cat err.txt)"
}
# The wallet as the CLI shows it.
state() {
    t address --data-dir "$1"
    t balance --data-dir "$1" --json
    t history --data-dir "$1" --json
    t payments list --data-dir "$1" --json
}
# spendable + pending = received - paid (spent), from the CLI's own JSON.
balanced() {
    local held history
    held=$(t balance --data-dir "$1" --json | jq '[.assets[] | (.spendable|tonumber) + (.pending|tonumber)] | add // 0')
    history=$(t history --data-dir "$1" --json | jq '([.history[] | select(.direction=="in") | .amount|tonumber] | add // 0) - ([.history[] | select(.direction=="out" and .state=="spent") | .amount|tonumber] | add // 0)')
    [ "$held" = "$history" ] || fail "$1 holds $held but its history says $history"
}

step "Alice and Bob, an issuer; notes, a payment each way, a request"
for who in alice bob; do t init --data-dir "$who" --scrypt-n 1024 >/dev/null; done
t issuer init --data-dir issuer --scrypt-n 1024 >/dev/null
issuer=$(t issuer address --data-dir issuer)
alice=$(t address --data-dir alice)
bob=$(t address --data-dir bob)
for who in alice bob; do t trust add "$issuer" --data-dir "$who" >/dev/null; done
t issuer issue --data-dir issuer --to "$alice" --amount 500 --count 2 --out notes.tender >/dev/null
t issuer issue --data-dir issuer --to "$bob" --amount 100 --count 1 --out bob-notes.tender >/dev/null
t receive notes.tender --data-dir alice >/dev/null
t receive bob-notes.tender --data-dir bob >/dev/null
t pay --data-dir alice --to "$bob" --amount 250 --memo tea --out pay.tender >/dev/null
t receive pay.tender --data-dir bob --receipt-out receipt.tender >/dev/null
t receipt receipt.tender --data-dir alice >/dev/null
t pay --data-dir bob --to "$alice" --amount 40 --memo back --out back.tender >/dev/null
t receive back.tender --data-dir alice >/dev/null
t request --data-dir alice --amount 75 --memo stall >/dev/null
printf '[api]\nlisten = "unix:%s/api.sock"\n' "$work" >alice/node.toml
for i in $(seq 1 12); do
    t issuer issue --data-dir issuer --to "$alice" --amount 10 --count 1 --out "more-$i.tender" >/dev/null
done

step "backups while tender node runs and tender receive writes"
"$tender" node --data-dir alice --no-sync >node.log 2>&1 &
node_pid=$!
for _ in $(seq 600); do
    curl -sf --unix-socket api.sock http://node/healthz >/dev/null 2>&1 && break
    sleep 0.1
done
curl -sf --unix-socket api.sock http://node/healthz >/dev/null || fail "the node did not start"
# The writer receives in three rounds of four: backups are taken while a round writes
# (whatever interleaving the machine gives) and once after each round (a state known exactly),
# so every run has backups of three different states however the scheduler treats the writer.
taken=0 after_rounds=()
take_backup() {
    taken=$((taken + 1))
    t backup --data-dir alice --out "during-$taken.backup" >/dev/null
}
for round in 0 1 2; do
    (for i in $(seq $((round * 4 + 1)) $((round * 4 + 4))); do
        t receive "more-$i.tender" --data-dir alice >/dev/null
    done) &
    writer=$!
    while kill -0 "$writer" 2>/dev/null; do take_backup; done
    wait "$writer" || fail "tender receive failed while backups were taken"
    take_backup
    after_rounds+=("$taken")
done
counts=()  # payments in backup N, at index N
for i in $(seq 1 "$taken"); do
    t restore "during-$i.backup" --data-dir "during-$i" >/dev/null
    balanced "during-$i"
    counts[i]=$(t history --data-dir "during-$i" --json | jq '.history | length')
done
# After each round, four payments more than after the one before.
for r in 1 2; do
    added=$((counts[after_rounds[r]] - counts[after_rounds[r - 1]]))
    [ "$added" = 4 ] || fail "round $((r + 1)) added $added payments, not 4 (counts: ${counts[*]})"
done
echo "   $taken backups while writing; payments in each: ${counts[*]}"

step "a final backup, restored: the same wallet, settings and token"
t backup --data-dir alice --out final.backup --json >final.json
[ "$(stat -c %a final.backup)" = 600 ] || fail "the backup is not mode 0600"
[ "$(jq -r .address final.json)" = "$alice" ] || fail "the backup names another address"
[ "$(jq .wallets final.json)" = 1 ] || fail "the backup does not count one wallet"
# cashu.sqlite: the node's Cashu wallet, made when the node started (Docs/CASHU.md).
jq -r '.files[].path' final.json | sort | tr '\n' ' ' | grep -qx 'api-token cashu.sqlite node.toml wallet-key.json wallet.sqlite ' ||
    fail "the backup holds $(jq -c '[.files[].path]' final.json)"
t restore final.backup --data-dir restored/alice >restore.txt 2>restore.err
grep -q "wallet.sqlite.*integrity checked" restore.txt || fail "restore did not check the wallet"
# Into an empty folder nothing tells an older backup from a current one: said.
grep -q "warning: not checked against the wallet it copies" restore.err ||
    fail "no warning for an unchecked restore: $(cat restore.err)"
[ "$(state alice)" = "$(state restored/alice)" ] || fail "the restored wallet differs"
balanced restored/alice
for file in node.toml api-token wallet-key.json; do
    cmp -s "alice/$file" "restored/alice/$file" || fail "$file differs"
done
[ "$(stat -c %a restored/alice/api-token)" = 600 ] || fail "the token is not 0600"
[ "$(stat -c %a restored/alice)" = 700 ] || fail "the restored folder is not 0700"

step "refusals, nothing written"
expect_status 64 t backup --data-dir alice --out alice/inside.backup
expect_status 73 t backup --data-dir alice --out final.backup
echo "not it" >wrong
TENDER_PASSPHRASE_FILE=$work/wrong expect_status 77 t restore final.backup --data-dir nothing
python3 -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[len(b) // 2] ^= 4; open(sys.argv[2], 'wb').write(b)" final.backup changed.backup
expect_status 65 t restore changed.backup --data-dir nothing
head -c 5000 final.backup >cut.backup
expect_status 65 t restore cut.backup --data-dir nothing
[ ! -e nothing ] || fail "a refused restore wrote something"
expect_status 73 t restore final.backup --data-dir during-1
expect_status 75 t restore final.backup --data-dir alice --force
[ "$(state alice)" = "$(state restored/alice)" ] || fail "a refused restore changed Alice"

step "the node stopped: an older backup is refused over its newer wallet; a current one replaces the folder, the old one kept aside"
kill -TERM "$node_pid"
wait "$node_pid" || fail "the node did not stop cleanly"
node_pid=""
# during-1 lacks the payments received since: restored, it would take them again.
expect_status 73 t restore during-1.backup --data-dir alice --force
[ "$(state alice)" = "$(state restored/alice)" ] || fail "a refused restore changed Alice"
t restore final.backup --data-dir alice --force --json >forced.json 2>forced.err
previous=$(jq -r .previous forced.json)
[ "$(jq -r '.files[] | select(.path == "api-token") | .kept' forced.json)" = "the folder's own, not the backup's" ] ||
    fail "the restore lists the backup's API token as restored, though the folder's was kept"
[ "$(jq -r .unchecked forced.json)" = null ] && [ ! -s forced.err ] ||
    fail "a restore compared with its wallet warned: $(cat forced.err)"
# Over a wallet that cannot be read (a damaged card): restored, with the warning.
cp -r restored/alice damaged
dd if=/dev/urandom of=damaged/wallet.sqlite bs=1 count=4096 conv=notrunc status=none
t restore final.backup --data-dir damaged --force --json >damaged.json 2>damaged.err
jq -r .unchecked damaged.json | grep -q "could not be read" || fail "damaged: $(cat damaged.json)"
grep -q "warning: not checked" damaged.err || fail "no warning over a damaged wallet"
[ -d "$previous" ] && [ -f "$previous/wallet.sqlite" ] || fail "the old folder was not kept"
[ "$(state alice)" = "$(state restored/alice)" ] || fail "the forced restore differs from its backup"
[ "$(state "$previous")" = "$(state restored/alice)" ] || fail "the kept folder changed"

echo "backup tests: passed in $(($(date +%s) - started)) s"
