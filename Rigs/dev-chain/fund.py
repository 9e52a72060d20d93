"""Sends native coin from the dev chain's first funded account (the development mnemonic's
account 0) to each address given: how a test or the demo gives a fresh node key its gas.

    python Rigs/dev-chain/fund.py --url http://127.0.0.1:8545 --eth 10 ADDRESS [ADDRESS ...]
"""

from __future__ import annotations

import argparse
import sys

from eth_account import Account
from web3 import Web3

from devchain import DEV_HD_PATH, DEV_MNEMONIC


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8545")
    parser.add_argument("--eth", type=float, default=10.0, help="ether to each address")
    parser.add_argument("addresses", nargs="+")
    options = parser.parse_args()
    web3 = Web3(Web3.HTTPProvider(options.url))
    Account.enable_unaudited_hdwallet_features()
    funder = Account.from_mnemonic(DEV_MNEMONIC, account_path=f"{DEV_HD_PATH}/0")
    nonce = web3.eth.get_transaction_count(funder.address, "pending")
    hashes = []
    for address in options.addresses:
        transaction = {
            "chainId": web3.eth.chain_id, "nonce": nonce, "to": Web3.to_checksum_address(address),
            "value": Web3.to_wei(options.eth, "ether"), "gas": 21_000,
            "maxFeePerGas": web3.eth.gas_price * 2, "maxPriorityFeePerGas": 10**9,
        }
        signed = funder.sign_transaction(transaction)
        hashes.append(web3.eth.send_raw_transaction(signed.raw_transaction))
        nonce += 1
    for address, tx in zip(options.addresses, hashes):
        receipt = web3.eth.wait_for_transaction_receipt(tx, timeout=30)
        if receipt.status != 1:
            print(f"fund: the transfer to {address} failed", file=sys.stderr)
            return 1
        print(f"funded {Web3.to_checksum_address(address)} with {options.eth} ETH")
    return 0


if __name__ == "__main__":
    sys.exit(main())
