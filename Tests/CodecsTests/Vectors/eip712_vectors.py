#!/usr/bin/env python3
"""Writes EIP712Vectors.swift: EIP-712 hashes of Tender's message types (Docs/PROTOCOL.md),
computed by eth-account, the referee.

For each case: encodeType and typeHash (eth_account's encode_type / hash_type), the domain
separator and struct hash (the header and body of eth_account.messages.encode_typed_data(
full_message=...)), and the digest keccak(0x19 0x01 ‖ header ‖ body) (eth_account's
_hash_eip191_message of that SignableMessage).

Values are JSON as eth-account takes them: addresses and bytesN as 0x-hex, uints as decimal
strings (or, at 2^128 and above, as a 0x-prefixed 32-byte word, which the Swift test passes as
`.uint256Word`), strings as strings, arrays and structs as JSON arrays and objects.

Run: pip install eth-account && python3 eip712_vectors.py   (seeded: output is stable)
"""
import json
import random
from pathlib import Path

from eth_account._utils.encode_typed_data.encoding_and_hashing import encode_type, hash_type
from eth_account.messages import _hash_eip191_message, encode_typed_data

SEED = 712
rng = random.Random(SEED)
U128_MAX = (1 << 128) - 1
U64_MAX = (1 << 64) - 1

DOMAIN_TYPE = [
    {"name": "name", "type": "string"},
    {"name": "version", "type": "string"},
    {"name": "chainId", "type": "uint256"},
    {"name": "verifyingContract", "type": "address"},
]
TYPES = {
    "Note": [
        {"name": "serial", "type": "bytes32"},
        {"name": "issuer", "type": "address"},
        {"name": "asset", "type": "address"},
        {"name": "amount", "type": "uint128"},
        {"name": "owner", "type": "address"},
        {"name": "expiry", "type": "uint64"},
    ],
    "Transfer": [
        {"name": "inputs", "type": "bytes32[]"},
        {"name": "outputs", "type": "Output[]"},
    ],
    "Output": [
        {"name": "owner", "type": "address"},
        {"name": "amount", "type": "uint128"},
    ],
    "Receipt": [
        {"name": "requestId", "type": "bytes32"},
        {"name": "paymentDigest", "type": "bytes32"},
        {"name": "time", "type": "uint64"},
    ],
}


def address():
    return "0x" + rng.randbytes(20).hex()


def word():
    return "0x" + rng.randbytes(32).hex()


def uint(value):
    return str(value) if value <= U128_MAX else "0x" + value.to_bytes(32, "big").hex()


def amount():
    return rng.choice([0, 1, U128_MAX, U128_MAX - 1, 1 << 127, rng.randrange(U128_MAX),
                       rng.randrange(10**18)])


def domain():
    chain_id = rng.choice([1, 31337, 11155111, U64_MAX, 1 << 200, (1 << 256) - 1])
    contract = rng.choice([address(), "0x" + "00" * 20, "0x" + "ff" * 20])
    return {"name": "Tender", "version": "1", "chainId": chain_id,
            "verifyingContract": contract}


def note():
    return {"serial": word(), "issuer": address(),
            "asset": rng.choice([address(), "0x" + "00" * 20]), "amount": amount(),
            "owner": address(), "expiry": rng.choice([0, U64_MAX, rng.randrange(U64_MAX)])}


def transfer(inputs, outputs):
    return {"inputs": [word() for _ in range(inputs)],
            "outputs": [{"owner": address(), "amount": amount()} for _ in range(outputs)]}


def receipt():
    return {"requestId": word(), "paymentDigest": word(),
            "time": rng.choice([0, U64_MAX, rng.randrange(1 << 32)])}


def for_json(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return uint(value) if value >= 0 else str(value)
    if isinstance(value, list):
        return [for_json(v) for v in value]
    if isinstance(value, dict):
        return {k: for_json(v) for k, v in value.items()}
    return value


# The referee first reproduces the EIP's own Mail example (values from the EIP-712 text).
MAIL = {
    "types": {
        "EIP712Domain": DOMAIN_TYPE,
        "Person": [{"name": "name", "type": "string"}, {"name": "wallet", "type": "address"}],
        "Mail": [{"name": "from", "type": "Person"}, {"name": "to", "type": "Person"},
                 {"name": "contents", "type": "string"}],
    },
    "primaryType": "Mail",
    "domain": {"name": "Ether Mail", "version": "1", "chainId": 1,
               "verifyingContract": "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"},
    "message": {
        "from": {"name": "Cow", "wallet": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"},
        "to": {"name": "Bob", "wallet": "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"},
        "contents": "Hello, Bob!",
    },
}
mail = encode_typed_data(full_message=MAIL)
assert mail.header.hex() == "f2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f"
assert mail.body.hex() == "c52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e"
assert _hash_eip191_message(mail).hex() == (
    "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2")

# Beyond Tender's types, one struct that touches every other kind of member the generic
# encoder supports: intN, bool, dynamic bytes, short bytesN, fixed and nested arrays, and a
# recursive struct type (Person holds Person[]).
KITCHEN_TYPES = {
    "Kitchen": [
        {"name": "flag", "type": "bool"}, {"name": "small", "type": "int8"},
        {"name": "big", "type": "int256"}, {"name": "neg", "type": "int64"},
        {"name": "tiny", "type": "uint8"}, {"name": "blob", "type": "bytes"},
        {"name": "one", "type": "bytes1"}, {"name": "mid", "type": "bytes17"},
        {"name": "text", "type": "string"}, {"name": "trio", "type": "uint16[3]"},
        {"name": "words", "type": "string[]"}, {"name": "pair", "type": "Person[2]"},
        {"name": "grid", "type": "uint32[2][]"},
    ],
    "Person": [
        {"name": "name", "type": "string"}, {"name": "wallet", "type": "address"},
        {"name": "children", "type": "Person[]"},
    ],
}


def person(depth):
    children = rng.randrange(3) if depth < 2 else 0
    return {"name": rng.choice(["", "Cow", "Bob", "Zo\u00eb \u6c34"]), "wallet": address(),
            "children": [person(depth + 1) for _ in range(children)]}


def kitchen():
    int_edge = [-(1 << 63), (1 << 63) - 1, -1, 0, 1]
    return {
        "flag": rng.random() < 0.5,
        "small": rng.choice([-128, 127, -1, 0, rng.randrange(-128, 128)]),
        "big": rng.choice(int_edge + [rng.randrange(-(1 << 63), 1 << 63)]),
        "neg": rng.choice(int_edge),
        "tiny": rng.choice([0, 255, rng.randrange(256)]),
        "blob": "0x" + rng.randbytes(rng.choice([0, 1, 31, 32, 33, 200])).hex(),
        "one": "0x" + rng.randbytes(1).hex(),
        "mid": "0x" + rng.randbytes(17).hex(),
        "text": rng.choice(["", "Hello, Bob!", "\u00fc\u6c34\U00010151"]),
        "trio": [rng.randrange(1 << 16) for _ in range(3)],
        "words": [rng.choice(["a", "", "Tender"]) for _ in range(rng.randrange(4))],
        "pair": [person(0), person(0)],
        "grid": [[rng.randrange(1 << 32), rng.randrange(1 << 32)] for _ in range(rng.randrange(3))],
    }


cases = []
messages = [("Note", note()) for _ in range(6)]
messages += [("Transfer", transfer(i, o)) for i, o in
             [(0, 0), (1, 0), (0, 1), (1, 1), (2, 3), (5, 2), (8, 8)]]
messages += [("Receipt", receipt()) for _ in range(4)]
messages += [("Kitchen", kitchen()) for _ in range(3)]
for index, (primary, message) in enumerate(messages):
    if primary == "Kitchen":
        types = {"EIP712Domain": DOMAIN_TYPE, **KITCHEN_TYPES}
    else:
        wanted = {primary, "Output"} if primary == "Transfer" else {primary}
        types = {"EIP712Domain": DOMAIN_TYPE, **{k: v for k, v in TYPES.items() if k in wanted}}
    dom = domain()
    full = {"types": types, "primaryType": primary, "domain": dom, "message": message}
    signable = encode_typed_data(full_message=full)
    cases.append({
        "name": f"{primary} #{index}",
        "primaryType": primary,
        "types": types,
        "domain": for_json(dom),
        "message": for_json(message),
        "encodeType": encode_type(primary, types),
        "typeHash": hash_type(primary, types).hex(),
        "domainSeparator": signable.header.hex(),
        "structHash": signable.body.hex(),
        "digest": _hash_eip191_message(signable).hex(),
    })

body = "\n".join("    " + line for line in json.dumps(cases, indent=1).split("\n"))
lines = [
    f"// Generated by eip712_vectors.py (seed {SEED}, eth-account): {len(cases)} Note, Transfer,",
    "// Receipt and Kitchen messages. Do not edit: rerun the script.",
    "",
    "enum EIP712Vectors {",
    "    static let json = #\"\"\"",
    body,
    "    \"\"\"#",
    "}",
    "",
]
Path(__file__).with_name("EIP712Vectors.swift").write_text("\n".join(lines))
print(f"{len(cases)} cases")
