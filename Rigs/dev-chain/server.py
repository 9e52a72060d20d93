"""Tender's development chain: Ethereum JSON-RPC over HTTP in front of eth-tester (py-evm,
Prague rules), with the methods a wallet needs and the controls a test needs.

    python server.py [--host 127.0.0.1] [--port 8545] [--chain-id 31337] [--accounts 10]
                     [--balance-eth 10000] [--gas-limit 30000000]

Wallet methods: web3_clientVersion, net_version, eth_chainId, eth_accounts, eth_blockNumber,
eth_getBalance, eth_getCode, eth_getTransactionCount (with "pending"), eth_sendRawTransaction,
eth_call, eth_estimateGas, eth_getTransactionByHash, eth_getTransactionReceipt, eth_getLogs,
eth_getBlockByNumber, eth_getBlockByHash, eth_feeHistory, eth_gasPrice,
eth_maxPriorityFeePerGas; JSON-RPC batches.
Test controls: evm_snapshot, evm_revert, evm_mine [timestamp], evm_setAutomine,
evm_setNextBlockTimestamp.

Mining: with automine on (the default) each transaction is mined in its own block when it
arrives. With automine off, transactions wait in a pool: evm_mine mines, in one block, each
sender's transactions in nonce order while their fee cap covers the block's base fee; a
transaction below it stays pending ("stuck") until it is replaced by one with the same nonce
and fees at least 10% higher, as geth requires. State lives in memory: a restart is a fresh chain.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import rlp
from eth.exceptions import Revert
from eth.vm.spoof import SpoofTransaction
from eth_abi import decode as abi_decode
from eth_bloom import BloomFilter
from eth_tester.exceptions import BlockNotFound, TransactionFailed, TransactionNotFound
from eth_utils import keccak, to_canonical_address, to_checksum_address

from devchain import (
    DEFAULT_ACCOUNTS,
    DEFAULT_CHAIN_ID,
    DEFAULT_GAS_LIMIT,
    dev_keys,
    make_tester,
)

PRIORITY_FEE = 10**9  # eth_maxPriorityFeePerGas: 1 gwei
REPLACEMENT_BUMP = 110  # a replacement pays at least 110% of the fees it replaces
QUANTITY_FIELDS = {
    "value", "gas", "gasPrice", "maxFeePerGas", "maxPriorityFeePerGas", "nonce", "chainId", "type",
}


class RPCError(Exception):
    def __init__(self, code: int, message: str, data: str | None = None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


def invalid(message: str) -> RPCError:
    return RPCError(-32602, message)


@dataclass
class Pending:
    """A transaction waiting in the pool (automine off)."""
    raw: bytes
    tx: object  # py-evm signed transaction
    sender: str

    @property
    def hash(self) -> str:
        return "0x" + self.tx.hash.hex()

    @property
    def fee_cap(self) -> int:
        return self.tx.max_fee_per_gas

    @property
    def tip(self) -> int:
        return self.tx.max_priority_fee_per_gas


# Encoding of results: eth-tester's snake_case dicts become JSON-RPC's camelCase, integers
# become hex quantities, bytes become hex data.
def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def rpc_value(value, key: str | None = None):
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return "0x" + value.to_bytes(256, "big").hex() if key == "logsBloom" else hex(value)
    if isinstance(value, (bytes, bytearray)):
        return "0x" + bytes(value).hex()
    if isinstance(value, dict):
        return {camel(k): rpc_value(v, camel(k)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [rpc_value(item, key) for item in value]
    return value


def quantity(text) -> int:
    if isinstance(text, int):
        return text
    if not isinstance(text, str) or not text.startswith("0x"):
        raise invalid(f"expected a hex quantity, got {text!r}")
    return int(text, 16)


class Node:
    """The chain and its pool. Every call runs under one lock: eth-tester is not thread-safe."""

    def __init__(self, chain_id: int, accounts: int, balance: int, gas_limit: int):
        self.chain_id = chain_id
        self.tester = make_tester(chain_id=chain_id, accounts=accounts, balance=balance, gas_limit=gas_limit)
        self.lock = threading.Lock()
        self.automine = True
        self.pool: dict[tuple[str, int], Pending] = {}
        self.snapshots: list[tuple[int, int, dict]] = []  # (id, eth-tester snapshot, pool copy)
        self.next_snapshot = 1
        self.methods = {
            "web3_clientVersion": lambda: "tender-dev-chain/1 (eth-tester, py-evm)",
            "net_version": lambda: str(self.chain_id),
            "eth_chainId": lambda: hex(self.chain_id),
            "eth_accounts": lambda: [address for address, _ in dev_keys(self.tester)],
            "eth_blockNumber": lambda: hex(self.latest_number()),
            "eth_getBalance": lambda address, block="latest": hex(self.tester.get_balance(address, self.block_id(block))),
            "eth_getCode": lambda address, block="latest": self.tester.get_code(address, self.block_id(block)),
            "eth_getTransactionCount": self.transaction_count,
            "eth_sendRawTransaction": self.send_raw_transaction,
            "eth_call": self.call,
            "eth_estimateGas": self.estimate_gas,
            "eth_getTransactionByHash": self.transaction_by_hash,
            "eth_getTransactionReceipt": self.receipt,
            "eth_getLogs": self.logs,
            "eth_getBlockByNumber": lambda block, full=False: self.block(self.block_id(block), full),
            "eth_getBlockByHash": lambda block_hash, full=False: self.block(block_hash, full),
            "eth_feeHistory": self.fee_history,
            "eth_gasPrice": lambda: hex(self.next_base_fee() + PRIORITY_FEE),
            "eth_maxPriorityFeePerGas": lambda: hex(PRIORITY_FEE),
            "evm_snapshot": self.snapshot,
            "evm_revert": self.revert,
            "evm_mine": self.mine,
            "evm_setAutomine": self.set_automine,
            "evm_setNextBlockTimestamp": self.set_next_block_timestamp,
        }

    # Dispatch ----------------------------------------------------------------------------
    def handle(self, request):
        """One JSON-RPC request object: its response, or None for a notification."""
        if not isinstance(request, dict) or not isinstance(request.get("method"), str):
            return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "invalid request"}}
        rid = request.get("id")
        params = request.get("params", [])
        try:
            if not isinstance(params, list):
                raise invalid("params must be an array")
            method = self.methods.get(request["method"])
            if method is None:
                raise RPCError(-32601, f"method {request['method']} is not supported")
            with self.lock:
                try:
                    result = method(*params)
                except TypeError as wrong:
                    raise invalid(f"{request['method']}: {wrong}") from wrong
            response = {"jsonrpc": "2.0", "id": rid, "result": result}
        except RPCError as error:
            body = {"code": error.code, "message": error.message}
            if error.data is not None:
                body["data"] = error.data
            response = {"jsonrpc": "2.0", "id": rid, "error": body}
        except Exception as error:  # eth-tester and py-evm validation errors
            response = {"jsonrpc": "2.0", "id": rid, "error": {"code": -32000, "message": str(error)}}
        return response if "id" in request else None

    # Blocks -------------------------------------------------------------------------------
    def latest_number(self) -> int:
        return self.tester.get_block_by_number("latest")["number"]

    def block_id(self, block):
        if block in ("latest", "earliest", "pending", "safe", "finalized"):
            return "latest" if block in ("safe", "finalized") else block
        if isinstance(block, dict):  # EIP-1898
            if "blockHash" in block:
                return self.tester.get_block_by_hash(block["blockHash"])["number"]
            return self.block_id(block.get("blockNumber", "latest"))
        number = quantity(block)
        if number > self.latest_number():
            raise RPCError(-32000, f"block {number} is not mined yet")
        return number

    def block(self, block, full: bool):
        try:
            if isinstance(block, str) and len(block) == 66:
                found = self.tester.get_block_by_hash(block, full_transactions=full)
            else:
                found = self.tester.get_block_by_number(block, full_transactions=full)
        except (BlockNotFound, RPCError):
            return None
        block = rpc_value(found)
        block["miner"] = block.pop("coinbase")
        return block

    def next_base_fee(self) -> int:
        return self.tester.backend.chain.header.base_fee_per_gas

    # Transactions -------------------------------------------------------------------------
    def transaction_count(self, address, block="latest"):
        if block != "pending":
            return hex(self.tester.get_nonce(address, self.block_id(block)))
        nonce = self.tester.get_nonce(address, "latest")
        sender = to_checksum_address(address)
        while (sender, nonce) in self.pool:
            nonce += 1
        return hex(nonce)

    def send_raw_transaction(self, raw_hex):
        raw = bytes.fromhex(raw_hex.removeprefix("0x"))
        try:
            tx = self.tester.backend.chain.get_transaction_builder().decode(raw)
            sender = to_checksum_address(tx.sender)
        except (rlp.DecodingError, ValueError, Exception) as error:
            raise invalid(f"not a signed transaction: {error}") from error
        if getattr(tx, "chain_id", self.chain_id) not in (self.chain_id, None):
            raise RPCError(-32000, f"transaction for chain {tx.chain_id}, this chain is {self.chain_id}")
        state_nonce = self.tester.get_nonce(sender, "latest")
        if tx.nonce < state_nonce:
            raise RPCError(-32000, f"nonce too low: next nonce {state_nonce}, transaction nonce {tx.nonce}")
        pending = Pending(raw, tx, sender)
        if self.automine:
            self.apply(pending)
            self.tester.mine_blocks(1)
            return pending.hash
        replaced = self.pool.get((sender, tx.nonce))
        if replaced is not None and (
            pending.fee_cap * 100 < replaced.fee_cap * REPLACEMENT_BUMP
            or pending.tip * 100 < replaced.tip * REPLACEMENT_BUMP
        ):
            raise RPCError(-32000, "replacement transaction underpriced")
        self.pool[(sender, tx.nonce)] = pending
        return pending.hash

    def apply(self, pending: Pending):
        """Executes a transaction in the block being built (it is mined by the caller)."""
        self.tester.backend.chain.apply_transaction(pending.tx)

    def mine_pool(self):
        """Moves every includable pooled transaction into the block being built."""
        base_fee = self.next_base_fee()
        for sender in sorted({sender for sender, _ in self.pool}):
            nonce = self.tester.get_nonce(sender, "pending")
            while (pending := self.pool.get((sender, nonce))) is not None and pending.fee_cap >= base_fee:
                del self.pool[(sender, nonce)]
                try:
                    self.apply(pending)
                except Exception as error:  # an unpayable transaction is dropped, as geth drops it
                    print(f"dropped {pending.hash}: {error}", file=sys.stderr, flush=True)
                nonce += 1

    def call(self, tx, block="latest"):
        """Runs `tx` on the state after `block` without charging its sender, as geth does."""
        params = self.transaction_params(tx)
        chain = self.tester.backend.chain
        found = self.block_id(block)
        header = chain.header if found == "pending" else chain.get_canonical_block_header_by_number(self.block_number(found))
        vm = chain.get_vm(header)
        sender = to_canonical_address(params["from"])
        unsigned = vm.create_unsigned_transaction(
            nonce=vm.state.get_nonce(sender),
            gas_price=0,
            gas=params.get("gas", header.gas_limit),
            to=to_canonical_address(params["to"]) if params.get("to") else b"",
            value=params.get("value", 0),
            data=bytes.fromhex(params.get("data", "0x")[2:]),
        )
        with vm.in_costless_state() as state:
            computation = state.costless_execute_transaction(SpoofTransaction(unsigned, from_=sender))
        if computation.is_error:
            raise self.revert_error(computation)
        return "0x" + computation.output.hex()

    def estimate_gas(self, tx, block="latest"):
        try:
            return hex(self.tester.estimate_gas(self.transaction_params(tx), self.block_id(block)))
        except TransactionFailed as failure:
            self.call(tx, block)  # raises the revert with its data
            raise RPCError(-32000, str(failure)) from failure

    @staticmethod
    def revert_error(computation) -> RPCError:
        """geth's form: code 3, the revert data, and its Error(string) reason in the message."""
        if not isinstance(computation.error, Revert):
            return RPCError(-32000, str(computation.error))
        data = computation.output
        message = "execution reverted"
        if data[:4] == bytes.fromhex("08c379a0"):
            try:
                message += ": " + abi_decode(["string"], data[4:])[0]
            except Exception:  # noqa: BLE001 - malformed reason: the data says it all
                pass
        return RPCError(3, message, "0x" + data.hex())

    @staticmethod
    def transaction_params(tx: dict) -> dict:
        if not isinstance(tx, dict):
            raise invalid("expected a transaction object")
        params = {}
        for key, value in tx.items():
            if key == "input":
                key = "data"
            if key in QUANTITY_FIELDS:
                params[camel_to_snake(key)] = quantity(value)
            elif key in ("from", "to", "data"):
                params[key] = value
        params.setdefault("from", "0x" + "00" * 20)
        return params

    def transaction_by_hash(self, tx_hash):
        for pending in self.pool.values():
            if pending.hash == tx_hash:
                return self.pending_view(pending)
        try:
            return rpc_value(self.tester.get_transaction_by_hash(tx_hash))
        except TransactionNotFound:
            return None

    def pending_view(self, pending: Pending) -> dict:
        tx = pending.tx
        return rpc_value({
            "hash": tx.hash, "from": pending.sender, "to": to_checksum_address(tx.to) if tx.to else None,
            "nonce": tx.nonce, "gas": tx.gas, "value": tx.value, "input": tx.data,
            "max_fee_per_gas": tx.max_fee_per_gas, "max_priority_fee_per_gas": tx.max_priority_fee_per_gas,
            "gas_price": tx.max_fee_per_gas, "type": getattr(tx, "type_id", None) or 0,
            "block_hash": None, "block_number": None, "transaction_index": None,
        })

    def receipt(self, tx_hash):
        try:
            receipt = self.tester.get_transaction_receipt(tx_hash)
        except TransactionNotFound:
            return None
        if receipt["block_number"] is None:
            return None
        first = self.first_log_index(receipt["block_number"], receipt["transaction_index"])
        logs = [dict(log, log_index=first + i) for i, log in enumerate(receipt["logs"])]
        bloom = BloomFilter()
        for log in logs:
            bloom.add(to_canonical_address(log["address"]))
            for topic in log["topics"]:
                bloom.add(bytes.fromhex(topic[2:]) if isinstance(topic, str) else topic)
        return rpc_value(dict(receipt, logs=logs, logs_bloom=int(bloom), status=receipt["status"]))

    def first_log_index(self, number: int, transaction_index: int) -> int:
        """Logs are numbered across their block, as JSON-RPC numbers them."""
        hashes = self.tester.get_block_by_number(number)["transactions"][:transaction_index]
        return sum(len(self.tester.get_transaction_receipt(h)["logs"]) for h in hashes)

    def logs(self, query):
        if not isinstance(query, dict):
            raise invalid("expected a filter object")
        if "blockHash" in query:
            start = end = self.tester.get_block_by_hash(query["blockHash"])["number"]
        else:
            start = self.block_number(query.get("fromBlock", "latest"))
            end = self.block_number(query.get("toBlock", "latest"))
        addresses = query.get("address")
        if isinstance(addresses, str):
            addresses = [addresses]
        wanted = {a.lower() for a in addresses} if addresses else None
        topics = query.get("topics") or []
        found = []
        for number in range(start, end + 1):
            for tx_hash in self.tester.get_block_by_number(number)["transactions"]:
                for log in self.receipt(tx_hash)["logs"]:
                    if wanted is not None and log["address"].lower() not in wanted:
                        continue
                    if matches(log["topics"], topics):
                        found.append(log)
        return found

    def block_number(self, block) -> int:
        found = self.block_id(block)
        return found if isinstance(found, int) else self.tester.get_block_by_number(found)["number"]

    def fee_history(self, count, newest="latest", percentiles=None):
        newest = self.block_number(newest)
        count = max(1, min(quantity(count), 1024, newest + 1))
        oldest = newest - count + 1
        base_fees, ratios, rewards = [], [], []
        for number in range(oldest, newest + 1):
            block = self.tester.get_block_by_number(number, full_transactions=True)
            base_fees.append(block["base_fee_per_gas"])
            ratios.append(block["gas_used"] / block["gas_limit"])
            tips = sorted(
                min(tx.get("max_priority_fee_per_gas", tx["gas_price"]), tx.get("max_fee_per_gas", tx["gas_price"]) - block["base_fee_per_gas"])
                for tx in block["transactions"]
            )
            rewards.append([tips[min(len(tips) - 1, int(len(tips) * p / 100))] if tips else 0 for p in percentiles or []])
        base_fees.append(self.next_base_fee() if newest == self.latest_number() else
                         self.tester.get_block_by_number(newest + 1)["base_fee_per_gas"])
        result = {"oldestBlock": hex(oldest), "baseFeePerGas": [hex(f) for f in base_fees], "gasUsedRatio": ratios}
        if percentiles:
            result["reward"] = [[hex(r) for r in block] for block in rewards]
        return result

    # Test controls ------------------------------------------------------------------------
    def snapshot(self):
        identifier = self.next_snapshot
        self.next_snapshot += 1
        self.snapshots.append((identifier, self.tester.take_snapshot(), dict(self.pool)))
        return hex(identifier)

    def revert(self, identifier):
        """Back to snapshot `identifier`, pool included; it and later snapshots are used up."""
        wanted = quantity(identifier)
        for position, (known, snapshot, pool) in enumerate(self.snapshots):
            if known == wanted:
                self.tester.revert_to_snapshot(snapshot)
                self.pool = pool
                del self.snapshots[position:]
                return True
        return False

    def mine(self, timestamp=None):
        if timestamp is not None:
            self.set_next_block_timestamp(timestamp)
        self.mine_pool()
        self.tester.mine_blocks(1)
        return "0x0"

    def set_automine(self, enabled):
        if not isinstance(enabled, bool):
            raise invalid("evm_setAutomine takes true or false")
        self.automine = enabled
        if enabled and self.pool:
            self.mine()
        return True

    def set_next_block_timestamp(self, timestamp):
        timestamp = quantity(timestamp)
        latest = self.tester.get_block_by_number("latest")["timestamp"]
        if timestamp <= latest:
            raise RPCError(-32000, f"timestamp {timestamp} is not after the latest block's {latest}")
        chain = self.tester.backend.chain
        chain.header = chain.header.copy(timestamp=timestamp)
        return True


def camel_to_snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


def matches(log_topics: list, wanted: list) -> bool:
    """eth_getLogs topic matching: position by position, None matches anything, a list any of it."""
    if len(wanted) > len(log_topics):
        return False
    for have, want in zip(log_topics, wanted):
        if want is None:
            continue
        options = want if isinstance(want, list) else [want]
        if have.lower() not in {o.lower() for o in options}:
            return False
    return True


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    node: Node = None

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        try:
            request = json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError):
            answer = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}}
        else:
            if isinstance(request, list):
                if not request:
                    answer = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "empty batch"}}
                else:
                    answer = [r for r in map(self.node.handle, request) if r is not None]
            else:
                answer = self.node.handle(request)
        data = json.dumps(answer).encode() if answer not in (None, []) else b""
        self.send_response(200 if data else 204)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    parser = argparse.ArgumentParser(description="Tender's development chain (JSON-RPC over eth-tester).")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8545)
    parser.add_argument("--chain-id", type=int, default=DEFAULT_CHAIN_ID)
    parser.add_argument("--accounts", type=int, default=DEFAULT_ACCOUNTS)
    parser.add_argument("--balance-eth", type=int, default=10_000)
    parser.add_argument("--gas-limit", type=int, default=DEFAULT_GAS_LIMIT)
    options = parser.parse_args()

    node = Node(options.chain_id, options.accounts, options.balance_eth * 10**18, options.gas_limit)
    Handler.node = node
    server = ThreadingHTTPServer((options.host, options.port), Handler)
    server.daemon_threads = True
    first = dev_keys(node.tester)[0][0]
    vault = to_checksum_address(keccak(rlp.encode([to_canonical_address(first), 0]))[12:])
    print(f"Tender dev chain: chain id {options.chain_id}, block gas limit {options.gas_limit}")
    print(f"Dev accounts ({options.balance_eth} ETH each; the keys are public, never use them elsewhere):")
    for index, (address, key) in enumerate(dev_keys(node.tester)):
        print(f"  ({index}) {address}  {key}")
    print(f"The first contract account (0) deploys lands at {vault} (the vault of the node's defaults).")
    print(f"Listening on http://{options.host}:{options.port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
