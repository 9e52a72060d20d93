"""Deploys Contracts/TestToken.vy (an ERC-20 with symbol TUSD and 6 decimals, anyone may mint)
from the dev chain's first funded account, mints to an address, and prints the token's address:
the chain lab's token whose symbol and decimals `tender sync` reads.

    python Tests/ChainLab/deploy_token.py --url http://127.0.0.1:8545 --mint 10000000 --to ADDRESS
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from eth_account import Account
from web3 import Web3

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Rigs" / "dev-chain"))
from devchain import DEV_HD_PATH, DEV_MNEMONIC  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8545")
    parser.add_argument("--mint", type=int, required=True, help="base units to mint")
    parser.add_argument("--to", required=True)
    options = parser.parse_args()
    root = Path(__file__).resolve().parents[2]
    vyper = Path(sys.executable).parent / "vyper"
    code = subprocess.run(
        [str(vyper), "-f", "bytecode", str(root / "Contracts" / "TestToken.vy")],
        check=True, capture_output=True, text=True).stdout.strip()
    web3 = Web3(Web3.HTTPProvider(options.url))
    Account.enable_unaudited_hdwallet_features()
    sender = Account.from_mnemonic(DEV_MNEMONIC, account_path=f"{DEV_HD_PATH}/0")
    nonce = web3.eth.get_transaction_count(sender.address, "pending")

    def send(transaction: dict) -> dict:
        nonlocal nonce
        transaction |= {
            "chainId": web3.eth.chain_id, "nonce": nonce, "gas": 3_000_000,
            "maxFeePerGas": web3.eth.gas_price * 2, "maxPriorityFeePerGas": 10**9,
        }
        nonce += 1
        signed = sender.sign_transaction(transaction)
        receipt = web3.eth.wait_for_transaction_receipt(
            web3.eth.send_raw_transaction(signed.raw_transaction), timeout=30)
        if receipt.status != 1:
            raise SystemExit(f"token.py: transaction failed: {receipt}")
        return receipt

    token = send({"data": code})["contractAddress"]
    mint = web3.eth.contract(address=token, abi=[{
        "type": "function", "name": "mint", "stateMutability": "nonpayable", "outputs": [],
        "inputs": [{"name": "to", "type": "address"}, {"name": "amount", "type": "uint256"}],
    }]).functions.mint(Web3.to_checksum_address(options.to), options.mint)
    send({"to": token, "data": mint._encode_transaction_data()})
    print(token)
    return 0


if __name__ == "__main__":
    sys.exit(main())
