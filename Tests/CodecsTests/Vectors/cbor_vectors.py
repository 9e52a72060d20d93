#!/usr/bin/env python3
"""Writes CBORVectors.swift: random CBOR values with their encodings according to cbor2.

Referee: cbor2 (`cbor2.dumps(x, canonical=True)`). One difference from RFC 8949 is handled
here: cbor2's canonical mode sorts map keys length-first (RFC 7049 §3.9), while RFC 8949
§4.2.1 sorts them by plain bytewise order of their encodings. So each vector carries
  "hex":   the RFC 8949 deterministic encoding: cbor2's canonical encoding of every scalar
           (integers, strings, floats, simple values, bignums) and of every head, with map
           entries put in bytewise key order by `deterministic` below;
  "cbor2": cbor2.dumps(value, canonical=True) as is (equal to "hex" unless a map's two key
           orders differ), which the Swift test decodes leniently.
Each vector is checked here: cbor2.loads(hex) re-encodes to hex, and cbor2.loads(cbor2)
re-encodes to hex too.

The value itself is written in a small tagged JSON that the Swift test turns into `CBOR`
with Foundation's JSON parser, independently of the CBOR code under test:
  {"uint": "n"}  {"nint": "n"} (the value -1-n)  {"bytes": hex}  {"text": hex of UTF-8}
  {"array": [...]}  {"map": [[k, v], ...]} (insertion order, unsorted)
  {"tag": "n", "value": v}  {"simple": n}  {"bool": b}  {"null": true}  {"undefined": true}
  {"float": hex of the IEEE double's bits}

Run: pip install cbor2 && python3 cbor_vectors.py   (seeded: output is stable)

With --check, it is instead the referee of CBORLiveCrossCheckTests: it reads hex encodings
made by the Swift encoder, one per line on stdin, decodes each with cbor2.loads, and prints
`deterministic` of the result (or "error: ..."), one per line.
"""
from collections.abc import Mapping
import json
import math
import random
import struct
import sys
from pathlib import Path

import cbor2

SEED = 8949
COUNT = 400
rng = random.Random(SEED)

# Tags that cbor2 leaves as CBORTag (it interprets 0-5, 25, 28-30, 35-37, 52, 54, 100, ...).
SAFE_TAGS = [6, 7, 15, 24, 26, 27, 31, 40, 99, 255, 256 + 7, 1000, 5000, 65535, 65536,
             2**32 - 1, 2**32, 2**40, 2**64 - 1]
TEXT_ALPHABET = "aZ09 _-\"\\\u00e9\u00fc\u0301\u6c34\u00df\U00010151\U0001F600\u200b"


def head(major, argument):
    encoded = bytearray(cbor2.dumps(argument))  # cbor2 writes the shortest integer head
    encoded[0] |= major << 5
    return bytes(encoded)


def deterministic(value):
    """RFC 8949 §4.2.1 encoding, built from cbor2's canonical pieces."""
    if isinstance(value, Mapping):  # cbor2 decodes maps inside tags as frozendict
        entries = sorted((deterministic(k), deterministic(v)) for k, v in value.items())
        return head(5, len(entries)) + b"".join(k + v for k, v in entries)
    if isinstance(value, (list, tuple)):
        return head(4, len(value)) + b"".join(deterministic(v) for v in value)
    if isinstance(value, cbor2.CBORTag):
        return head(6, value.tag) + deterministic(value.value)
    return cbor2.dumps(value, canonical=True)


def random_uint():
    bits = rng.choice([4, 5, 8, 9, 16, 17, 32, 33, 64])
    edge = rng.random() < 0.2
    return (1 << bits) - 1 if edge else rng.randrange(0, 1 << bits)


def random_float():
    kind = rng.randrange(5)
    while True:
        if kind == 0:
            value = struct.unpack(">e", rng.randrange(1 << 16).to_bytes(2, "big"))[0]
        elif kind == 1:
            value = struct.unpack(">f", rng.randrange(1 << 32).to_bytes(4, "big"))[0]
        elif kind == 2:
            value = struct.unpack(">d", rng.randrange(1 << 64).to_bytes(8, "big"))[0]
        elif kind == 3:
            value = rng.choice([0.0, -0.0, math.inf, -math.inf, math.nan, 65504.0, 65505.0,
                                5.960464477539063e-8, 2.9802322387695312e-8, 1e300, 1.1,
                                3.4028234663852886e38, 1.401298464324817e-45, 0.1])
        else:
            value = rng.uniform(-1e6, 1e6)
        if not math.isnan(value) or kind == 3:
            return value


def random_text():
    return "".join(rng.choice(TEXT_ALPHABET) for _ in range(rng.choice([0, 1, 3, 10, 30])))


def random_key():
    kind = rng.randrange(4)
    if kind == 0:
        return random_uint()
    if kind == 1:
        return -1 - random_uint()
    if kind == 2:
        return random_text()
    return rng.randbytes(rng.randrange(4))


def random_value(depth):
    kinds = ["uint", "nint", "bytes", "text", "float", "simple", "bool", "null",
             "undefined", "bignum"]
    if depth < 3:
        kinds += ["array", "map", "tag"] * 3
    kind = rng.choice(kinds)
    if kind == "uint":
        return random_uint()
    if kind == "nint":
        return -1 - random_uint()
    if kind == "bignum":
        magnitude = rng.randrange(1 << 64, 1 << rng.choice([65, 72, 128, 200]))
        return magnitude if rng.random() < 0.5 else -1 - magnitude
    if kind == "bytes":
        return rng.randbytes(rng.choice([0, 1, 5, 23, 24, 40] * 8 + [300]))
    if kind == "text":
        return random_text()
    if kind == "float":
        return random_float()
    if kind == "simple":
        return cbor2.CBORSimpleValue(rng.choice(list(range(20)) + list(range(32, 256))))
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "undefined":
        return cbor2.undefined
    if kind == "array":
        count = rng.choice([0, 1, 2, 3, 5] * 4 + [24, 25])
        return [random_value(depth + 1) for _ in range(count)]
    if kind == "map":
        result = {}
        for _ in range(rng.choice([0, 1, 2, 4, 7] * 2 + [12])):
            result[random_key()] = random_value(depth + 1)
        return result
    return cbor2.CBORTag(rng.choice(SAFE_TAGS), random_value(depth + 1))


def to_json(value):
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, int):
        if 0 <= value < 1 << 64:
            return {"uint": str(value)}
        if -(1 << 64) <= value < 0:
            return {"nint": str(-1 - value)}
        magnitude = value if value >= 0 else -1 - value
        content = magnitude.to_bytes((magnitude.bit_length() + 7) // 8, "big")
        return {"tag": "2" if value >= 0 else "3", "value": {"bytes": content.hex()}}
    if isinstance(value, bytes):
        return {"bytes": value.hex()}
    if isinstance(value, str):
        return {"text": value.encode("utf-8").hex()}
    if isinstance(value, float):
        return {"float": struct.pack(">d", value).hex()}
    if isinstance(value, list):
        return {"array": [to_json(v) for v in value]}
    if isinstance(value, dict):
        return {"map": [[to_json(k), to_json(v)] for k, v in value.items()]}
    if isinstance(value, cbor2.CBORTag):
        return {"tag": str(value.tag), "value": to_json(value.value)}
    if isinstance(value, cbor2.CBORSimpleValue):
        return {"simple": value.value}
    if value is None:
        return {"null": True}
    if value is cbor2.undefined:
        return {"undefined": True}
    raise TypeError(type(value))


def check():
    for line in sys.stdin:
        try:
            print(deterministic(cbor2.loads(bytes.fromhex(line.strip()))).hex())
        except Exception as error:  # reported per line, so one bad value fails one case
            print(f"error: {type(error).__name__}: {error}")


def generate():
    vectors = []
    differing = 0
    while len(vectors) < COUNT:
        value = random_value(0)
        expected = deterministic(value)
        referee = cbor2.dumps(value, canonical=True)
        assert deterministic(cbor2.loads(expected)) == expected
        assert deterministic(cbor2.loads(referee)) == expected
        assert len(referee) == len(expected)
        differing += referee != expected
        vectors.append({"value": to_json(value), "hex": expected.hex(), "cbor2": referee.hex()})

    body = json.dumps(vectors, separators=(",", ":"))
    # One vector per Swift source line, joined again at run time.
    chunks = body[1:-1].replace("},{\"value\"", "}\n,{\"value\"").split("\n")
    lines = [
        f"// Generated by cbor_vectors.py (seed {SEED}, cbor2): {COUNT} random values, {differing} with",
        "// maps where cbor2's length-first canonical key order differs from RFC 8949's bytewise",
        "// order.",
        "// Do not edit: rerun the script. Format described in the script's docstring.",
        "",
        "enum CBORVectors {",
        "    static let json = \"[\" + parts.joined() + \"]\"",
        "",
        "    private static let parts: [String] = [",
    ]
    lines += ["        #\"" + chunk + "\"#," for chunk in chunks]
    lines += ["    ]", "}", ""]
    Path(__file__).with_name("CBORVectors.swift").write_text("\n".join(lines))
    print(f"{COUNT} vectors, {differing} where cbor2's key order differs")


if __name__ == "__main__":
    check() if sys.argv[1:] == ["--check"] else generate()
