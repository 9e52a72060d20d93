"""The development chain: eth-tester's py-evm backend (Prague rules) with a chosen chain id,
block gas limit and funded dev accounts. Used by the JSON-RPC server (server.py) and, in
process, by the contract tests (Contracts/tests)."""

from __future__ import annotations

from eth_tester import EthereumTester, PyEVMBackend

# The well-known development mnemonic: its first account deploys the vault at the address the
# node's embedded defaults name (Sources/Node/DevTools/NodeDefaults.swift: chain 31337,
# vault 0x5FbDB2315678afecb367f032d93F642f64180aa3, the first contract of account 0).
DEV_MNEMONIC = "test test test test test test test test test test test junk"
DEV_HD_PATH = "m/44'/60'/0'/0"  # account i is m/44'/60'/0'/0/i (BIP44), as wallets derive it
DEFAULT_CHAIN_ID = 31337
DEFAULT_ACCOUNTS = 10
DEFAULT_BALANCE = 10_000 * 10**18
DEFAULT_GAS_LIMIT = 30_000_000


def make_tester(
    chain_id: int = DEFAULT_CHAIN_ID,
    accounts: int = DEFAULT_ACCOUNTS,
    balance: int = DEFAULT_BALANCE,
    gas_limit: int = DEFAULT_GAS_LIMIT,
) -> EthereumTester:
    """A fresh chain at block 0 whose dev accounts each hold `balance` wei. Transactions are
    not mined on arrival: the caller mines (the server's automine, or the tests)."""
    backend = PyEVMBackend.from_mnemonic(
        DEV_MNEMONIC,
        num_accounts=accounts,
        hd_path=DEV_HD_PATH,
        genesis_state_overrides={"balance": balance},
        genesis_parameters=PyEVMBackend.generate_genesis_params(overrides={"gas_limit": gas_limit}),
    )
    # eth-tester fixes the chain id on the chain class it makes for each backend; the VM
    # reads it from there (transaction signatures, the CHAINID opcode).
    type(backend.chain).chain_id = chain_id
    return EthereumTester(backend, auto_mine_transactions=False)


def dev_keys(tester: EthereumTester) -> list[tuple[str, str]]:
    """(address, private key hex) of each funded dev account."""
    return [
        (key.public_key.to_checksum_address(), "0x" + key.to_bytes().hex())
        for key in tester.backend.account_keys
    ]
