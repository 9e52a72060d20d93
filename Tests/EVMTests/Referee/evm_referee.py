"""Independent answers for Tests/EVMTests: eth-account signs EIP-1559 transactions, eth-abi
encodes arguments, eth-utils computes selectors. Test-only (Docs/ARCHITECTURE.md, "Referees").

    python evm_referee.py sign '<json: [{"key": "0x…", "tx": {…}}, …]>'
        -> [{"raw": "0x…", "hash": "0x…", "sender": "0x…"}, …]
    python evm_referee.py abi '<json: [{"types": [...], "values": [...]}, …]>'  -> ["0x…", …]
    python evm_referee.py selector '<json: ["transfer(address,uint256)", …]>'   -> ["0x…", …]
"""

import json
import sys

from eth_abi import encode
from eth_account import Account
from eth_utils import function_signature_to_4byte_selector


def sign(cases):
    out = []
    for case in cases:
        tx = dict(case["tx"], type=2)
        for key in ("chainId", "nonce", "maxPriorityFeePerGas", "maxFeePerGas", "gas", "value"):
            tx[key] = int(tx[key])
        if tx.get("to") is None:
            tx.pop("to", None)
        signed = Account.sign_transaction(tx, case["key"])
        out.append({
            "raw": "0x" + signed.raw_transaction.hex(),
            "hash": "0x" + signed.hash.hex(),
            "sender": Account.from_key(case["key"]).address,
        })
    return out


def split_tuple(kind):
    """The field types of "(a,b[],(c,d))", split at its top-level commas."""
    fields, depth, start = [], 0, 1
    for index, char in enumerate(kind[1:-1], start=1):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            fields.append(kind[start:index])
            start = index + 1
    return fields + [kind[start:-1]]


def convert(kind, value):
    if kind.endswith("[]"):
        return [convert(kind[:-2], item) for item in value]
    if kind.startswith("("):
        return tuple(convert(field, item) for field, item in zip(split_tuple(kind), value))
    if kind.startswith("uint"):
        return int(value)
    if kind.startswith("bytes"):
        return bytes.fromhex(value.removeprefix("0x"))
    return value


def abi(cases):
    out = []
    for case in cases:
        values = [convert(kind, value) for kind, value in zip(case["types"], case["values"])]
        out.append("0x" + encode(case["types"], values).hex())
    return out


def selector(signatures):
    return ["0x" + function_signature_to_4byte_selector(s).hex() for s in signatures]


if __name__ == "__main__":
    command, payload = sys.argv[1], json.loads(sys.argv[2])
    print(json.dumps({"sign": sign, "abi": abi, "selector": selector}[command](payload)))
