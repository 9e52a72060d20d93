"""The contracts on an in-process dev chain (Rigs/dev-chain/devchain.py): compile with Vyper,
deploy, send transactions, read receipts and events."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import vyper
from eth_tester.exceptions import TransactionFailed
from web3 import Web3
from web3.exceptions import ContractLogicError
from web3.providers.eth_tester import EthereumTesterProvider

from tender import Domain, Key

CONTRACTS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(CONTRACTS.parent / "Rigs" / "dev-chain"))
from devchain import make_tester  # noqa: E402

TX_GAS = 30_000_000


@functools.cache
def compiled(name: str) -> tuple[list, str]:
    """ABI and deployment bytecode of Contracts/<name>.vy."""
    path = CONTRACTS / f"{name}.vy"
    output = vyper.compile_code(path.read_text(), contract_path=str(path), output_formats=["abi", "bytecode"])
    return output["abi"], output["bytecode"]


class Reverted(Exception):
    """A transaction the contract refused; the message is its revert reason."""


class Chain:
    """A fresh chain whose first dev account deploys the vault first, so the vault sits at
    the node's default address on the node's default chain id (the vectors' domain)."""

    def __init__(self, chain_id: int = 31337, gas_limit: int = TX_GAS):
        self.tester = make_tester(chain_id=chain_id, gas_limit=gas_limit)
        self.tester.enable_auto_mine_transactions()
        self.w3 = Web3(EthereumTesterProvider(self.tester))
        self.w3.middleware_onion.remove("ens_name_to_address")
        self.deployer = self.w3.eth.accounts[0]

    def deploy(self, name: str, *args):
        abi, bytecode = compiled(name)
        factory = self.w3.eth.contract(abi=abi, bytecode=bytecode)
        receipt = self.receipt(factory.constructor(*args).transact({"from": self.deployer, "gas": TX_GAS}))
        return self.w3.eth.contract(address=receipt.contractAddress, abi=abi)

    @property
    def chain_id(self) -> int:
        # web3's eth-tester provider answers eth_chainId with a constant: ask the chain.
        return self.tester.backend.chain.chain_id

    def domain(self, vault) -> Domain:
        return Domain(self.chain_id, vault.address)

    def account(self, key: Key, wei: int = 10**21) -> str:
        """Makes `key` a funded account the chain can send from."""
        if key.address not in self.w3.eth.accounts:
            self.tester.add_account("0x" + key.secret.hex())
        self.receipt(self.w3.eth.send_transaction({"from": self.deployer, "to": key.address, "value": wei}))
        return key.address

    def send(self, call, sender: str, value: int = 0, gas: int = TX_GAS):
        """Sends `call` (a bound contract function) from `sender`: its receipt, or Reverted."""
        return self.transact(call.build_transaction({"from": sender, "value": value, "gas": gas}))

    def redeem(self, vault, batch: bytes, sender: str, gas: int = TX_GAS):
        """Sends redeem() with `batch` after its selector: the receipt, or Reverted."""
        data = bytes.fromhex(vault.functions.redeem()._encode_transaction_data()[2:]) + batch
        return self.transact({"from": sender, "to": vault.address, "data": data, "gas": gas})

    def transact(self, params: dict):
        """Sends a transaction: its receipt, or Reverted with the reason, found by replaying it
        as a call (eth-tester mines a failed transaction, or raises, depending on the failure)."""
        params = {k: v for k, v in params.items() if k in ("from", "to", "data", "value", "gas")}
        try:
            receipt = self.receipt(self.w3.eth.send_transaction(params))
            if receipt.status == 1:
                return receipt
        except Exception as failure:  # noqa: BLE001 - replayed below for its reason
            cause = failure
        else:
            cause = None
        try:
            self.w3.eth.call(params)
        except (ContractLogicError, TransactionFailed) as refusal:
            reason = str(getattr(refusal, "message", None) or refusal)
            raise Reverted(reason.removeprefix("execution reverted: ")) from cause
        raise Reverted("reverted without a reason") from cause

    def receipt(self, tx_hash):
        return self.w3.eth.get_transaction_receipt(tx_hash)

    @property
    def now(self) -> int:
        return self.w3.eth.get_block("latest").timestamp

    def set_time(self, timestamp: int):
        """The next transaction runs in a block with this timestamp (never earlier than now)."""
        self.tester.time_travel(timestamp)

    def snapshot(self) -> int:
        return self.tester.take_snapshot()

    def revert(self, snapshot: int):
        self.tester.revert_to_snapshot(snapshot)

    def balance(self, address: str) -> int:
        return self.w3.eth.get_balance(address)


def events(contract, receipt, name: str) -> list[dict]:
    """The `name` events `contract` logged in `receipt`, as dicts of their arguments."""
    return [dict(e.args) for e in getattr(contract.events, name)().process_receipt(receipt, errors=_discard())]


def _discard():
    from web3.logs import DISCARD
    return DISCARD
