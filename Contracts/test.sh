#!/usr/bin/env bash
# The vault's suite: makes the dev chain's pinned venv if needed (Rigs/dev-chain/venv.sh),
# compiles the contracts, checks the shared vectors are what their generator writes, runs the
# contract and dev-chain tests, measures the dev chain (start-up, transactions per second) and
# prints the vault's gas figures (Docs/VAULT.md).
#
#   Contracts/test.sh [--quick]    --quick: no largest-batch gas runs (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
gas_options=()
case "${1:-}" in
    --quick) gas_options=(--quick) ;;
    "") ;;
    *) echo "usage: $0 [--quick]" >&2; exit 64 ;;
esac
python="$(bash Rigs/dev-chain/venv.sh)"
venv="$(dirname "$python")"

echo "== compile (vyper $("$venv/vyper" --version))"
for contract in Contracts/*.vy; do
    bytes=$(("$(wc -c < <("$venv/vyper" -f bytecode_runtime "$contract"))" / 2 - 1))
    echo "$contract: $bytes bytes of runtime code"
done

echo "== shared vectors"
"$python" Tests/Vectors/vault_bundles.py --check

echo "== tests"
"$python" -m pytest -q -p no:cacheprovider Contracts/tests Rigs/dev-chain/tests

echo "== dev chain: start-up and throughput"
port=18545
trap 'bash Rigs/dev-chain/stop.sh --port $port >/dev/null' EXIT
bash Rigs/dev-chain/start.sh --port "$port" | grep -E "^dev-chain: up"
"$python" Rigs/dev-chain/bench.py --url "http://127.0.0.1:$port" --count 100

echo "== gas"
"$python" Contracts/gas.py "${gas_options[@]}"
