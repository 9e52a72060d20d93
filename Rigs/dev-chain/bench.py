"""Transactions per second on a running dev chain: signed raw transactions sent one after
another, each mined on arrival (automine), its receipt read back.

    python bench.py [--url http://127.0.0.1:8545] [--count 200]

Prints the figure for plain transfers and for contract calls (the test token's mint); checks
every receipt succeeded and the balances they imply."""

from __future__ import annotations

import argparse
import json
import time
import urllib.request
from pathlib import Path

import vyper
from eth_account import Account
from eth_utils import keccak, to_checksum_address

DEV_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"  # dev account 1
TOKEN = Path(__file__).resolve().parent.parent.parent / "Contracts" / "TestToken.vy"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8545")
    parser.add_argument("--count", type=int, default=200)
    options = parser.parse_args()

    def rpc(method, *params):
        request = urllib.request.Request(
            options.url, json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}).encode(),
            {"Content-Type": "application/json"},
        )
        answer = json.load(urllib.request.urlopen(request))
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer["result"]

    account = Account.from_key(DEV_KEY)
    chain_id = int(rpc("eth_chainId"), 16)
    nonce = int(rpc("eth_getTransactionCount", account.address, "pending"), 16)
    fee = 2 * int(rpc("eth_gasPrice"), 16)

    def send(**tx) -> dict:
        nonlocal nonce
        fields = {"chainId": chain_id, "nonce": nonce, "maxFeePerGas": fee, "maxPriorityFeePerGas": 10**9,
                  "type": 2, "value": 0, **tx}
        nonce += 1
        raw = Account.sign_transaction(fields, DEV_KEY).raw_transaction
        receipt = rpc("eth_getTransactionReceipt", rpc("eth_sendRawTransaction", "0x" + raw.hex()))
        assert receipt["status"] == "0x1", receipt
        return receipt

    bytecode = vyper.compile_code(TOKEN.read_text(), output_formats=["bytecode"])["bytecode"]
    token = send(data=bytecode, gas=2_000_000)["contractAddress"]
    payee = to_checksum_address("0x" + "ab" * 20)
    mint = "0x" + keccak(text="mint(address,uint256)")[:4].hex() + payee[2:].rjust(64, "0") + hex(1)[2:].rjust(64, "0")
    before = int(rpc("eth_getBalance", payee, "latest"), 16)

    for label, tx in (("plain transfers", {"to": payee, "value": 1, "gas": 21_000}),
                      ("contract calls (token mint)", {"to": token, "data": mint, "gas": 100_000})):
        start = time.perf_counter()
        for _ in range(options.count):
            send(**tx)
        elapsed = time.perf_counter() - start
        print(f"{label}: {options.count} in {elapsed:.2f} s = {options.count / elapsed:.0f} tx/s "
              "(sign, send, mine, read the receipt, one at a time)")

    assert int(rpc("eth_getBalance", payee, "latest"), 16) - before == options.count
    supply = rpc("eth_call", {"to": token, "data": "0x" + keccak(text="totalSupply()")[:4].hex()}, "latest")
    assert int(supply, 16) == options.count


if __name__ == "__main__":
    main()
