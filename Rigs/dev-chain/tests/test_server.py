"""The dev chain's JSON-RPC server, over HTTP, as a wallet and a test use it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import vyper
from eth_account import Account
from eth_utils import keccak, to_checksum_address

HERE = Path(__file__).resolve().parent.parent
CONTRACTS = HERE.parent.parent / "Contracts"
DEV_KEYS = [
    "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
]
PAYEE = to_checksum_address("0x" + "ab" * 20)


class Client:
    def __init__(self, url: str):
        self.url = url
        self.ids = iter(range(1, 10**9))

    def post(self, payload):
        request = urllib.request.Request(self.url, json.dumps(payload).encode(), {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None

    def raw(self, method, *params):
        return self.post({"jsonrpc": "2.0", "id": next(self.ids), "method": method, "params": list(params)})

    def __call__(self, method, *params):
        answer = self.raw(method, *params)
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer["result"]

    def number(self, method, *params) -> int:
        return int(self(method, *params), 16)

    def send(self, key: str, nonce: int | None = None, **tx):
        """Signs and sends an EIP-1559 transaction from `key`; its hash."""
        sender = Account.from_key(key).address
        fields = {
            "chainId": self.number("eth_chainId"),
            "nonce": self.number("eth_getTransactionCount", sender, "pending") if nonce is None else nonce,
            "maxFeePerGas": 2 * self.number("eth_gasPrice"),
            "maxPriorityFeePerGas": self.number("eth_maxPriorityFeePerGas"),
            "gas": 100_000,
            "value": 0,
            "type": 2,
            **tx,
        }
        raw = Account.sign_transaction(fields, key).raw_transaction
        return self("eth_sendRawTransaction", "0x" + raw.hex())


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def servers():
    """Two dev chains side by side, each on its own port and chain id."""
    started = []
    for chain_id in (31337, 31338):
        port = free_port()
        process = subprocess.Popen(
            [sys.executable, str(HERE / "server.py"), "--port", str(port), "--chain-id", str(chain_id)],
            cwd=HERE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        client = Client(f"http://127.0.0.1:{port}")
        for _ in range(300):
            try:
                client("eth_chainId")
                break
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError(process.stdout.read())
                time.sleep(0.1)
        started.append((process, client))
    yield [client for _, client in started]
    for process, _ in started:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def rpc(servers):
    """The first chain, put back as it was after each test."""
    client = servers[0]
    snapshot = client("evm_snapshot")
    yield client
    client("evm_setAutomine", True)
    assert client("evm_revert", snapshot) is True


def receipt(rpc, tx_hash):
    found = rpc("eth_getTransactionReceipt", tx_hash)
    assert found is not None, "not mined"
    return found


def test_two_chains_run_side_by_side(servers, rpc):
    first, second = servers
    assert (first("eth_chainId"), first("net_version")) == ("0x7a69", "31337")
    assert (second("eth_chainId"), second("net_version")) == ("0x7a6a", "31338")
    first.send(DEV_KEYS[0], to=PAYEE, value=5, gas=21_000)
    assert first.number("eth_getBalance", PAYEE, "latest") == 5
    assert second.number("eth_getBalance", PAYEE, "latest") == 0


def test_dev_accounts_are_funded(rpc):
    accounts = rpc("eth_accounts")
    assert accounts[:2] == [Account.from_key(k).address for k in DEV_KEYS]
    assert len(accounts) == 10
    assert all(rpc.number("eth_getBalance", a, "latest") == 10_000 * 10**18 for a in accounts)


def test_a_raw_transfer_is_mined_at_once(rpc):
    sender = Account.from_key(DEV_KEYS[0]).address
    height = rpc.number("eth_blockNumber")
    tx_hash = rpc.send(DEV_KEYS[0], to=PAYEE, value=10**18, gas=21_000)
    mined = receipt(rpc, tx_hash)
    assert mined["status"] == "0x1" and int(mined["blockNumber"], 16) == height + 1
    assert int(mined["gasUsed"], 16) == 21_000
    assert rpc.number("eth_getBalance", PAYEE, "latest") == 10**18
    assert rpc.number("eth_getTransactionCount", sender, "latest") == rpc.number("eth_getTransactionCount", sender, "pending")
    block = rpc("eth_getBlockByNumber", mined["blockNumber"], True)
    assert [tx["hash"] for tx in block["transactions"]] == [tx_hash]
    assert rpc("eth_getBlockByHash", block["hash"], False)["transactions"] == [tx_hash]
    assert rpc("eth_getTransactionByHash", tx_hash)["from"] == sender


def deploy(rpc, name: str) -> str:
    path = CONTRACTS / f"{name}.vy"
    bytecode = vyper.compile_code(path.read_text(), contract_path=str(path), output_formats=["bytecode"])["bytecode"]
    mined = receipt(rpc, rpc.send(DEV_KEYS[0], data=bytecode, gas=3_000_000))
    assert mined["status"] == "0x1"
    return mined["contractAddress"]


def call_data(signature: str, *words: int | str) -> str:
    encoded = "".join(w[2:].rjust(64, "0") if isinstance(w, str) else hex(w)[2:].rjust(64, "0") for w in words)
    return "0x" + keccak(text=signature)[:4].hex() + encoded


def test_contracts_calls_logs_and_reverts(rpc):
    vault = deploy(rpc, "Vault")
    # The first contract of account 0 on a fresh chain: the node's default vault address.
    assert vault == "0x5FbDB2315678afecb367f032d93F642f64180aa3"
    assert len(rpc("eth_getCode", vault, "latest")) > 1000
    deposit = call_data("deposit(address,uint256)", "0x" + "00" * 20, 1000)
    estimate = rpc.number("eth_estimateGas", {"from": Account.from_key(DEV_KEYS[1]).address, "to": vault, "data": deposit, "value": hex(1000)})
    assert 40_000 < estimate < 100_000
    mined = receipt(rpc, rpc.send(DEV_KEYS[1], to=vault, data=deposit, value=1000, gas=estimate))
    assert mined["status"] == "0x1"
    issuer = "0x" + Account.from_key(DEV_KEYS[1]).address[2:].lower().rjust(64, "0")
    collateral = rpc("eth_call", {"to": vault, "data": call_data("collateral(address,address)", issuer, "0x00")}, "latest")
    assert int(collateral, 16) == 1000
    # Logs: by address and topic, numbered across the block, the same as in the receipt.
    topic = "0x" + keccak(text="Deposited(address,address,uint256,uint256)").hex()
    logs = rpc("eth_getLogs", {"fromBlock": "0x0", "toBlock": "latest", "address": vault, "topics": [topic, issuer]})
    assert logs == mined["logs"] and len(logs) == 1 and logs[0]["logIndex"] == "0x0"
    assert rpc("eth_getLogs", {"fromBlock": "0x0", "address": vault, "topics": [topic, "0x" + "11" * 32]}) == []
    assert int(mined["logsBloom"], 16) != 0
    # A revert: geth's code 3 with the reason, and the transaction mined with status 0.
    refused = rpc.raw("eth_call", {"to": vault, "data": call_data("deposit(address,uint256)", "0x00", 0)}, "latest")
    assert refused["error"]["code"] == 3
    assert refused["error"]["message"] == "execution reverted: nothing to deposit"
    assert refused["error"]["data"].startswith("0x08c379a0")
    failed = receipt(rpc, rpc.send(DEV_KEYS[1], to=vault, data=call_data("deposit(address,uint256)", "0x00", 0)))
    assert failed["status"] == "0x0"


def test_a_vault_redemption_over_json_rpc(rpc):
    """What the settlement engine does: estimate, send, read the receipt and the logs."""
    sys.path.insert(0, str(CONTRACTS / "tests"))
    from tender import NATIVE, Bundle, Domain, Key, Note, transfer

    vault = deploy(rpc, "Vault")
    issuer, payer, payee = DEV_KEYS[1], Key.of(0xA), Key(bytes.fromhex(DEV_KEYS[0][2:]))
    receipt(rpc, rpc.send(issuer, to=vault, data=call_data("deposit(address,uint256)", "0x00", 1000), value=1000))
    domain = Domain(31337, vault)
    now = int(rpc("eth_getBlockByNumber", "latest", False)["timestamp"], 16)
    note = Note(b"\x01" * 32, Account.from_key(issuer).address, NATIVE, 100, payer.address, now + 86_400)
    note = note.signed(Key(bytes.fromhex(issuer[2:])), domain)
    pay = transfer([note.coin(domain)], [(payee.address, 60), (payer.address, 40)], payer, domain)
    data = "0x" + (keccak(text="redeem()")[:4] + Bundle([note], [pay]).batch([pay.coins(domain)[0]], domain)).hex()
    gas = rpc.number("eth_estimateGas", {"from": payee.address, "to": vault, "data": data})
    mined = receipt(rpc, rpc.send(DEV_KEYS[0], to=vault, data=data, gas=gas))
    assert mined["status"] == "0x1"
    redeemed = "0x" + keccak(text="CoinRedeemed(bytes32,uint256)").hex()
    coin = "0x" + pay.coins(domain)[0].hex()
    logs = rpc("eth_getLogs", {"fromBlock": mined["blockNumber"], "address": vault, "topics": [redeemed, coin]})
    assert [int(log["data"], 16) for log in logs] == [60]
    # The same batch again is refused coin by coin, not reverted: the receipt tells.
    again = receipt(rpc, rpc.send(DEV_KEYS[0], to=vault, data=data, gas=gas))
    rejected = "0x" + keccak(text="CoinRejected(bytes32,uint8)").hex()
    assert [(log["topics"][:2], int(log["data"], 16)) for log in again["logs"]] == [([rejected, coin], 14)]


def test_held_transactions_are_mined_together(rpc):
    sender = Account.from_key(DEV_KEYS[0]).address
    rpc("evm_setAutomine", False)
    latest = rpc.number("eth_getTransactionCount", sender, "latest")
    first = rpc.send(DEV_KEYS[0], to=PAYEE, value=1, gas=21_000)
    second = rpc.send(DEV_KEYS[0], to=PAYEE, value=2, gas=21_000)
    assert rpc("eth_getTransactionReceipt", first) is None
    assert rpc("eth_getTransactionByHash", second)["blockNumber"] is None
    assert rpc.number("eth_getTransactionCount", sender, "pending") == latest + 2
    assert rpc.number("eth_getTransactionCount", sender, "latest") == latest
    height = rpc.number("eth_blockNumber")
    rpc("evm_mine")
    assert rpc.number("eth_blockNumber") == height + 1
    mined = [receipt(rpc, h) for h in (first, second)]
    assert {m["blockNumber"] for m in mined} == {hex(height + 1)}
    assert [m["transactionIndex"] for m in mined] == ["0x0", "0x1"]
    assert rpc.number("eth_getBalance", PAYEE, "latest") == 3


def test_a_stuck_transaction_waits_until_replaced(rpc):
    rpc("evm_setAutomine", False)
    sender = Account.from_key(DEV_KEYS[0]).address
    nonce = rpc.number("eth_getTransactionCount", sender, "pending")
    stuck = rpc.send(DEV_KEYS[0], nonce, to=PAYEE, value=1, gas=21_000, maxFeePerGas=1_000, maxPriorityFeePerGas=1_000)
    behind = rpc.send(DEV_KEYS[0], nonce + 1, to=PAYEE, value=2, gas=21_000)
    rpc("evm_mine")
    assert rpc("eth_getTransactionReceipt", stuck) is None
    assert rpc("eth_getTransactionReceipt", behind) is None  # waits behind the stuck nonce
    with pytest.raises(RuntimeError, match="underpriced"):
        rpc.send(DEV_KEYS[0], nonce, to=PAYEE, value=1, gas=21_000, maxFeePerGas=1_050, maxPriorityFeePerGas=1_050)
    fee = 2 * rpc.number("eth_gasPrice")
    replacement = rpc.send(DEV_KEYS[0], nonce, to=PAYEE, value=1, gas=21_000, maxFeePerGas=fee, maxPriorityFeePerGas=10**9)
    rpc("evm_mine")
    assert receipt(rpc, replacement)["status"] == "0x1"
    assert receipt(rpc, behind)["status"] == "0x1"
    assert rpc("eth_getTransactionReceipt", stuck) is None
    assert rpc("eth_getTransactionByHash", stuck) is None


def test_snapshots_revert_state_and_are_used_up(rpc):
    snapshot = rpc("evm_snapshot")
    height = rpc.number("eth_blockNumber")
    rpc.send(DEV_KEYS[0], to=PAYEE, value=7, gas=21_000)
    assert rpc.number("eth_getBalance", PAYEE, "latest") == 7
    assert rpc("evm_revert", snapshot) is True
    assert rpc.number("eth_getBalance", PAYEE, "latest") == 0
    assert rpc.number("eth_blockNumber") == height
    assert rpc("evm_revert", snapshot) is False


def test_block_time_is_set_for_the_next_block(rpc):
    latest = int(rpc("eth_getBlockByNumber", "latest", False)["timestamp"], 16)
    rpc("evm_setNextBlockTimestamp", hex(latest + 1000))
    rpc("evm_mine")
    assert int(rpc("eth_getBlockByNumber", "latest", False)["timestamp"], 16) == latest + 1000
    rpc("evm_mine", hex(latest + 5000))
    assert int(rpc("eth_getBlockByNumber", "latest", False)["timestamp"], 16) == latest + 5000
    assert "error" in rpc.raw("evm_setNextBlockTimestamp", hex(latest))


def test_fees(rpc):
    for _ in range(3):
        rpc("evm_mine")
    history = rpc("eth_feeHistory", "0x3", "latest", [25, 75])
    assert len(history["baseFeePerGas"]) == 4 and len(history["gasUsedRatio"]) == 3
    assert len(history["reward"]) == 3 and all(len(r) == 2 for r in history["reward"])
    assert int(history["oldestBlock"], 16) == rpc.number("eth_blockNumber") - 2
    assert rpc.number("eth_gasPrice") == int(history["baseFeePerGas"][-1], 16) + rpc.number("eth_maxPriorityFeePerGas")


def test_batches_and_errors(rpc):
    answers = rpc.post([
        {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"},
        {"jsonrpc": "2.0", "id": 2, "method": "eth_nope"},
        {"jsonrpc": "2.0", "method": "eth_blockNumber"},  # a notification: no answer
        {"jsonrpc": "2.0", "id": 3, "method": "eth_getBalance", "params": ["0x" + "00" * 20, "latest"]},
        "not a request",
    ])
    assert answers[0] == {"jsonrpc": "2.0", "id": 1, "result": "0x7a69"}
    assert answers[1]["error"]["code"] == -32601
    assert answers[2]["id"] == 3 and "result" in answers[2]
    assert answers[3]["error"]["code"] == -32600
    assert len(answers) == 4
    assert rpc.post([])["error"]["code"] == -32600
    request = urllib.request.Request(rpc.url, b"{nope", {"Content-Type": "application/json"})
    assert json.load(urllib.request.urlopen(request))["error"]["code"] == -32700


def test_invalid_transactions_are_refused(rpc):
    sender = Account.from_key(DEV_KEYS[0]).address
    nonce = rpc.number("eth_getTransactionCount", sender, "latest")
    rpc.send(DEV_KEYS[0], to=PAYEE, value=1, gas=21_000)
    with pytest.raises(RuntimeError, match="nonce too low"):
        rpc.send(DEV_KEYS[0], nonce, to=PAYEE, value=1, gas=21_000)
    other = dict(chainId=1, nonce=nonce + 1, maxFeePerGas=10**10, maxPriorityFeePerGas=10**9, gas=21_000, to=PAYEE, value=1, type=2)
    raw = Account.sign_transaction(other, DEV_KEYS[0]).raw_transaction
    with pytest.raises(RuntimeError, match="chain 1"):
        rpc("eth_sendRawTransaction", "0x" + raw.hex())
    with pytest.raises(RuntimeError, match="not a signed transaction"):
        rpc("eth_sendRawTransaction", "0x1234")


def test_a_legacy_transaction_waits_in_the_pool_like_any_other(rpc):
    rpc("evm_setAutomine", False)
    sender = Account.from_key(DEV_KEYS[1]).address
    fields = {"chainId": 31337, "nonce": rpc.number("eth_getTransactionCount", sender, "pending"),
              "gasPrice": 2 * rpc.number("eth_gasPrice"), "gas": 21_000, "to": PAYEE, "value": 9}
    tx_hash = rpc("eth_sendRawTransaction", "0x" + Account.sign_transaction(fields, DEV_KEYS[1]).raw_transaction.hex())
    assert rpc("eth_getTransactionByHash", tx_hash)["type"] == "0x0"
    rpc("evm_mine")
    assert receipt(rpc, tx_hash)["status"] == "0x1"
    assert rpc.number("eth_getBalance", PAYEE, "latest") == 9
