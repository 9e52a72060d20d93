"""The chain's own word on a settlement run, read with web3.py (an independent client):
events and balances of the vault the CLI deployed, compared with what the test expected.

    python Tests/ChainLab/check.py --url URL --vault ADDRESS --issuer ADDRESS \
        --deposit N --paid ADDRESS=AMOUNT ... --coins N --double-spender ADDRESS
Prints each check; exits 1 on the first that fails.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from web3 import Web3

ROOT = Path(__file__).resolve().parents[2]


def vault_abi() -> list:
    vyper = Path(sys.executable).parent / "vyper"
    output = subprocess.run(
        [str(vyper), "-f", "abi", str(ROOT / "Contracts/Vault.vy")],
        check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--vault", required=True)
    parser.add_argument("--issuer", required=True)
    parser.add_argument("--deposit", type=int, required=True)
    parser.add_argument("--paid", action="append", default=[], help="REDEEMER=AMOUNT")
    parser.add_argument("--coins", type=int, required=True, help="CoinRedeemed events")
    parser.add_argument("--double-spender", help="owner named by the one DoubleSpend event")
    options = parser.parse_args()

    web3 = Web3(Web3.HTTPProvider(options.url))
    vault = web3.eth.contract(address=Web3.to_checksum_address(options.vault), abi=vault_abi())
    failures = 0

    def check(what: str, ok: bool, detail: str) -> None:
        nonlocal failures
        print(f"chain check: {'ok' if ok else 'FAILED'}: {what} ({detail})")
        failures += 0 if ok else 1

    everything = {"from_block": 0, "to_block": "latest"}
    payouts: dict[str, int] = {}
    for event in vault.events.Payout().get_logs(**everything):
        redeemer = event.args.redeemer
        payouts[redeemer] = payouts.get(redeemer, 0) + event.args.amount
    expected = {Web3.to_checksum_address(a): int(n) for a, n in (p.split("=") for p in options.paid)}
    check("payouts per redeemer", payouts == expected, f"chain {payouts}, expected {expected}")

    redeemed = vault.events.CoinRedeemed().get_logs(**everything)
    check("coins redeemed", len(redeemed) == options.coins,
          f"{len(redeemed)} CoinRedeemed events, expected {options.coins}")
    coins = [event.args.coin for event in redeemed]
    check("no coin redeemed twice", len(set(coins)) == len(coins), f"{len(coins)} events")

    issuer = Web3.to_checksum_address(options.issuer)
    zero = "0x0000000000000000000000000000000000000000"
    left = vault.functions.collateral(issuer, zero).call()
    total = sum(expected.values())
    check("collateral left", left == options.deposit - total,
          f"{left} = {options.deposit} deposited - {total} paid")

    spends = vault.events.DoubleSpend().get_logs(**everything)
    if options.double_spender:
        owner = Web3.to_checksum_address(options.double_spender)
        check("the double spend is on chain", len(spends) >= 1
              and all(event.args.owner == owner for event in spends),
              f"{len(spends)} DoubleSpend events naming {[e.args.owner for e in spends]}")
        for event in spends:
            consumed = vault.functions.consumed(event.args.coin).call()
            check("the vault kept the first transfer", consumed == event.args.recorded,
                  f"consumed[{event.args.coin.hex()}] = {consumed.hex()}")
    else:
        check("no double spend", not spends, f"{len(spends)} DoubleSpend events")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
