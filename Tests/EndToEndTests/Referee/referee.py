#!/usr/bin/env python3
"""Tender referee: an independent implementation of Tender's wire format and signatures.

Follows Docs/PROTOCOL.md (DESIGN.md §3), built only on other people's code (eth-account
for EIP-712 and secp256k1, eth-hash for keccak, cbor2 for CBOR), never on Tender's, so that
when `tender` and this file agree, two implementations agree. A test referee; never part of
the product. See README.md.

Every subcommand prints JSON on stdout; any disagreement exits 1 with `referee: ...` on stderr.
"""

import argparse
import json
import secrets
import sys
from collections.abc import Mapping

import cbor2
from eth_account import Account
from eth_account.messages import encode_typed_data
from eth_utils import is_checksum_address, keccak, to_checksum_address

SELF_DESCRIBED = 55799  # RFC 8949 §3.4.6; its canonical head is d9 d9 f7
VERSION = 1
ZERO_ADDRESS = "0x" + "00" * 20
MAX_AMOUNT = 2**128 - 1
SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141

# PROTOCOL.md §2: the canonical EIP-712 types, written out here independently of the Swift code.
TYPES = {
    "EIP712Domain": [
        {"name": "name", "type": "string"},
        {"name": "version", "type": "string"},
        {"name": "chainId", "type": "uint256"},
        {"name": "verifyingContract", "type": "address"},
    ],
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
    "Output": [{"name": "owner", "type": "address"}, {"name": "amount", "type": "uint128"}],
    "Receipt": [
        {"name": "requestId", "type": "bytes32"},
        {"name": "paymentDigest", "type": "bytes32"},
        {"name": "time", "type": "uint64"},
    ],
}
REFERENCED = {"Note": [], "Transfer": ["Output"], "Receipt": []}


class Mismatch(Exception):
    """A disagreement between Tender and the referee."""


def require(condition, message):
    if not condition:
        raise Mismatch(message)


def hexstr(data):
    return "0x" + bytes(data).hex()


def unhex(text, size=None, what="value"):
    data = bytes.fromhex(text[2:] if text.lower().startswith("0x") else text)
    require(size is None or len(data) == size, f"{what}: expected {size} bytes, got {len(data)}")
    return data


# ---------- EIP-712 (eth-account) and coin ids (keccak) ----------


def typed_data(primary, chain_id, vault, message):
    types = {name: TYPES[name] for name in ["EIP712Domain", primary] + REFERENCED[primary]}
    domain = {"name": "Tender", "version": "1", "chainId": chain_id, "verifyingContract": vault}
    return {"types": types, "primaryType": primary, "domain": domain, "message": message}


def digest_of(full_message):
    """The full EIP-712 digest keccak256(0x19 0x01 ‖ domainSeparator ‖ hashStruct(message))."""
    signable = encode_typed_data(full_message=full_message)
    return signable, keccak(b"\x19" + signable.version + signable.header + signable.body)


def sign(key, full_message):
    """Signs with eth-account; returns (digest, 65-byte r‖s‖v signature with v = 27/28)."""
    signed = Account.sign_typed_data(key, full_message=full_message)
    _, digest = digest_of(full_message)
    require(bytes(signed.message_hash) == digest, "eth-account's digest disagrees with itself")
    signature = bytes(signed.signature)
    require(len(signature) == 65 and signature[64] in (27, 28), "unexpected signature form")
    return digest, signature


def coin_id(digest, index):
    return keccak(digest + index.to_bytes(4, "big"))


# ---------- CBOR (cbor2) ----------


def cbor_amount(value):
    # Preferred serialisation: a plain uint up to 2^64 - 1, else a minimal tag-2 bignum.
    if value < 2**64:
        return value
    return cbor2.CBORTag(2, value.to_bytes((value.bit_length() + 7) // 8, "big"))


def envelope_bytes(kind, chain_id, vault, body):
    envelope = {0: kind, 1: VERSION, 2: chain_id, 3: unhex(vault, 20), 4: body}
    return cbor2.dumps(cbor2.CBORTag(SELF_DESCRIBED, envelope), canonical=True)


# ---------- make-payment ----------


def make_payment(args):
    issuer = Account.from_key(args.issuer_key)
    owner = Account.from_key(args.owner_key)
    payee = to_checksum_address(args.payee)
    vault = to_checksum_address(args.vault)
    require(0 < args.pay <= args.note_amount <= MAX_AMOUNT, "need 0 < --pay <= --note-amount < 2^128")
    request_id = (unhex(args.request_id, 32, "--request-id") if args.request_id
                  else secrets.token_bytes(32))
    serial = unhex(args.serial, 32, "--serial") if args.serial else secrets.token_bytes(32)

    note = {
        "serial": serial, "issuer": issuer.address, "asset": ZERO_ADDRESS,
        "amount": args.note_amount, "owner": owner.address, "expiry": args.expiry,
    }
    note_digest, note_signature = sign(issuer.key, typed_data("Note", args.chain_id, vault, note))
    note_coin = coin_id(note_digest, 0)

    outputs = [{"owner": payee, "amount": args.pay}]
    change = args.note_amount - args.pay
    if change:
        outputs.append({"owner": owner.address, "amount": change})
    transfer = {"inputs": [note_coin], "outputs": outputs}
    transfer_digest, transfer_signature = sign(
        owner.key, typed_data("Transfer", args.chain_id, vault, transfer))
    credited = [coin_id(transfer_digest, 0)]

    paid = args.pay
    if args.inflate_after_signing:
        # Tampering for negative tests: more to the payee, less change, so amounts still add up
        # and only the signature can tell.
        require(change > args.inflate_after_signing, "--inflate-after-signing needs more change")
        paid += args.inflate_after_signing
        outputs[0] = {"owner": payee, "amount": paid}
        outputs[1] = {"owner": owner.address, "amount": change - args.inflate_after_signing}

    wire_note = {
        0: serial, 1: unhex(issuer.address, 20), 2: unhex(ZERO_ADDRESS, 20),
        3: cbor_amount(args.note_amount), 4: unhex(owner.address, 20), 5: args.expiry,
        6: note_signature,
    }
    wire_transfer = {
        0: [note_coin],
        1: [[unhex(output["owner"], 20), cbor_amount(output["amount"])] for output in outputs],
        2: transfer_signature,
    }
    body = {
        0: request_id, 1: unhex(payee, 20), 2: cbor_amount(paid), 3: unhex(ZERO_ADDRESS, 20),
        4: args.memo, 5: {0: [wire_note], 1: [wire_transfer]}, 6: credited,
    }
    with open(args.out, "wb") as file:
        file.write(envelope_bytes("payment", args.chain_id, vault, body))
    return {
        "requestId": hexstr(request_id), "issuer": issuer.address, "owner": owner.address,
        "payee": payee, "amount": str(paid), "noteCoin": hexstr(note_coin),
        "noteDigest": hexstr(note_digest), "transferDigest": hexstr(transfer_digest),
        "credited": [hexstr(coin) for coin in credited], "file": args.out,
    }


# ---------- check-inspect ----------


def to_eth_values(type_name, value, where):
    """JSON from `tender inspect` (integers as decimal strings) to eth-account's Python values."""
    if type_name.endswith("[]"):
        require(isinstance(value, list), f"{where}: expected a list")
        return [to_eth_values(type_name[:-2], item, f"{where}[{i}]") for i, item in enumerate(value)]
    if type_name in TYPES:
        require(isinstance(value, Mapping), f"{where}: expected an object")
        names = [field["name"] for field in TYPES[type_name]]
        require(sorted(value) == sorted(names),
                f"{where}: fields {sorted(value)}, expected {sorted(names)}")
        return {f["name"]: to_eth_values(f["type"], value[f["name"]], f"{where}.{f['name']}")
                for f in TYPES[type_name]}
    if type_name.startswith("uint"):
        require(isinstance(value, str) and value.isdigit(),
                f"{where}: expected a decimal string, got {value!r}")
        number = int(value)
        require(number < 2 ** int(type_name[4:]), f"{where}: {number} does not fit {type_name}")
        return number
    if type_name == "address":
        require(is_checksum_address(value), f"{where}: {value!r} is not an EIP-55 checksummed address")
        return value
    if type_name.startswith("bytes"):
        return unhex(value, int(type_name[5:]), where)
    require(type_name == "string" and isinstance(value, str),
            f"{where}: unexpected {type_name} {value!r}")
    return value


def check_signed(path, item, expect):
    data = item["typedData"]
    primary = data["primaryType"]
    require(primary in REFERENCED, f"{path}: unknown primaryType {primary!r}")
    expected_types = {name: TYPES[name] for name in ["EIP712Domain", primary] + REFERENCED[primary]}
    require(data["types"] == expected_types,
            f"{path}: types {json.dumps(data['types'])} are not the canonical Tender types")
    domain = to_eth_values("EIP712Domain", data["domain"], f"{path}.domain")
    require(domain["name"] == "Tender" and domain["version"] == "1", f"{path}: domain is not Tender v1")
    message = to_eth_values(primary, data["message"], f"{path}.message")
    full_message = {
        "types": expected_types, "primaryType": primary, "domain": domain, "message": message}
    signable, digest = digest_of(full_message)
    require(hexstr(digest) == item["digest"],
            f"{path}: digest {item['digest']} but eth-account computes {hexstr(digest)}")
    signature = unhex(item["signature"], 65, f"{path}.signature")
    require(signature[64] in (27, 28), f"{path}: signature v is {signature[64]}, expected 27 or 28")
    require(int.from_bytes(signature[32:64], "big") <= SECP256K1_N // 2, f"{path}: high-s signature")
    signer = Account.recover_message(signable, signature=signature)
    require(item["signer"] == signer,
            f"{path}: signer {item['signer']} but the signature recovers to {signer}")
    if primary == "Note":
        require(signer == message["issuer"],
                f"{path}: signed by {signer}, not its issuer {message['issuer']}")
        require(item["coin"] == hexstr(coin_id(digest, 0)),
                f"{path}: coin {item['coin']} but keccak gives {hexstr(coin_id(digest, 0))}")
    if primary == "Transfer" and "outputCoins" in item:  # evidence transfers do not list them
        coins = [hexstr(coin_id(digest, i)) for i in range(len(message["outputs"]))]
        require(item["outputCoins"] == coins,
                f"{path}: outputCoins {item['outputCoins']} but keccak gives {coins}")
    kind = path.split("[")[0]
    if kind in expect:
        wanted = to_checksum_address(expect[kind])
        require(signer == wanted, f"{path}: signed by {signer}, expected {wanted}")
    return {"path": path, "primaryType": primary, "digest": item["digest"], "signer": signer}


def signed_list(inspection, key):
    """`tender inspect` puts notes/transfers beside `payment`; accept them inside it too."""
    return inspection.get(key, inspection.get("payment", {}).get(key, []))


def credited_coins(inspection):
    """The coins a payment names (PROTOCOL.md §5): distinct leaves of its bundle, owned by the
    payee, summing to the amount. Returned ascending, as the receipt's paymentDigest takes them."""
    payment = inspection["payment"]
    coins = {note["coin"]: note["typedData"]["message"] for note in signed_list(inspection, "notes")}
    spent = set()
    for transfer in signed_list(inspection, "transfers"):
        message = transfer["typedData"]["message"]
        spent.update(message["inputs"])
        coins.update(zip(transfer["outputCoins"], message["outputs"]))
    named = payment["coins"]
    require(named and len(set(named)) == len(named), f"payment.coins {named} are empty or repeat")
    for coin in named:
        require(coin in coins and coin not in spent, f"payment names {coin}, not a leaf of its bundle")
        require(coins[coin]["owner"] == payment["payee"], f"payment names {coin}, not the payee's")
    total = sum(int(coins[coin]["amount"]) for coin in named)
    require(total == int(payment["amount"]),
            f"the named coins sum to {total}, the payment says {payment['amount']}")
    return sorted(named)


def check_inspect(args):
    with open(args.file) as file:
        inspection = json.load(file)
    expect = dict(pair.split("=", 1) for pair in args.expect)
    structs = []
    for key in ("notes", "transfers"):
        structs += [(f"{key}[{i}]", item) for i, item in enumerate(signed_list(inspection, key))]
    if "receipt" in inspection:
        structs.append(("receipt", inspection["receipt"]))
    if "evidence" in inspection:
        structs += [(f"evidence.{side}", inspection["evidence"][side]) for side in ("first", "second")]
    require(structs, f"{args.file}: no signed structs found")
    checked = [check_signed(path, item, expect) for path, item in structs]
    for kind in expect:
        require(any(path.split("[")[0] == kind for path, _ in structs), f"--expect {kind}: none in file")
    result = {"kind": inspection.get("kind"), "checked": len(checked), "structs": checked}
    if "evidence" in inspection:
        # PROTOCOL.md §7: two different transfers by one signer consuming the same coin, in
        # digest order.
        evidence, (first, second) = inspection["evidence"], checked
        require(first["signer"] == second["signer"] == evidence["spender"],
                f"evidence: signers {first['signer']}, {second['signer']}, "
                f"spender {evidence['spender']}")
        require(first["digest"] < second["digest"], "evidence: transfers not in ascending digest order")
        for side in ("first", "second"):
            inputs = evidence[side]["typedData"]["message"]["inputs"]
            require(evidence["coin"] in inputs, f"evidence.{side} does not consume {evidence['coin']}")
    if "payment" in inspection:
        result["credited"] = credited_coins(inspection)
    if args.against_payment:
        # PROTOCOL.md §5: paymentDigest = keccak256 of the credited coin ids, ascending.
        with open(args.against_payment) as file:
            coins = credited_coins(json.load(file))
        expected = hexstr(keccak(b"".join(unhex(coin, 32) for coin in coins)))
        actual = inspection["receipt"]["typedData"]["message"]["paymentDigest"]
        require(actual == expected, f"receipt paymentDigest {actual}, referee computes {expected}")
        result["paymentDigest"] = expected
    return result


# ---------- check-cbor ----------

SHAPES = {  # field number -> (name, kind); kinds are checked by check_value
    "payment": {0: ("requestId", 32), 1: ("payee", 20), 2: ("amount", "amount"), 3: ("asset", 20),
                4: ("memo", str), 5: ("bundle", "bundle"), 6: ("coins", [32])},
    "receipt": {0: ("requestId", 32), 1: ("paymentDigest", 32), 2: ("time", int), 3: ("signature", 65)},
    "request": {0: ("id", 32), 1: ("payee", 20), 2: ("amount", "amount"), 3: ("asset", 20),
                4: ("memo", str), 5: ("expiry", int), 6: ("sessionKey", 32)},
    "evidence": {0: ("coin", 32), 1: ("first", "transfer"), 2: ("second", "transfer")},
    "bundle": {0: ("notes", ["note"]), 1: ("transfers", ["transfer"])},
    "note": {0: ("serial", 32), 1: ("issuer", 20), 2: ("asset", 20), 3: ("amount", "amount"),
             4: ("owner", 20), 5: ("expiry", int), 6: ("signature", 65)},
    "transfer": {0: ("inputs", [32]), 1: ("outputs", ["output"]), 2: ("signature", 65)},
}
OPTIONAL = {"request": {6}}


def check_value(kind, value, where):
    if isinstance(kind, list):
        require(isinstance(value, list), f"{where}: expected an array")
        for i, item in enumerate(value):
            check_value(kind[0], item, f"{where}[{i}]")
    elif isinstance(kind, int):
        require(isinstance(value, bytes) and len(value) == kind, f"{where}: expected {kind} bytes")
        if kind == 65:
            require(value[64] in (27, 28), f"{where}: signature v is {value[64]}")
    elif kind is int:
        require(type(value) is int and 0 <= value < 2**64, f"{where}: expected a uint64")
    elif kind is str:
        require(isinstance(value, str), f"{where}: expected text")
    elif kind == "amount":  # cbor2 turns tag-2 bignums into ints; byte equality checks the form
        require(type(value) is int and 0 <= value <= MAX_AMOUNT, f"{where}: expected an amount < 2^128")
    elif kind == "output":
        require(isinstance(value, list) and len(value) == 2, f"{where}: expected [owner, amount]")
        check_value(20, value[0], f"{where}.owner")
        check_value("amount", value[1], f"{where}.amount")
    else:
        require(isinstance(value, Mapping), f"{where}: expected a map")
        shape = SHAPES[kind]
        keys = set(value)
        required = set(shape) - OPTIONAL.get(kind, set())
        require(required <= keys <= set(shape),
                f"{where}: keys {sorted(keys)}, expected {sorted(shape)}")
        for key in sorted(keys):
            name, field_kind = shape[key]
            check_value(field_kind, value[key], f"{where}.{name}")


def check_cbor(args):
    with open(args.file, "rb") as file:
        data = file.read()
    require(data[:3] == b"\xd9\xd9\xf7", f"{args.file}: does not begin with the d9d9f7 tag 55799")
    # cbor2 drops tag 55799 while decoding, so decode what it wraps and put the tag back.
    envelope = cbor2.loads(data[3:], allow_duplicate_keys=False, allow_indefinite=False)
    require(isinstance(envelope, Mapping), f"envelope is a {type(envelope).__name__}, not a map")
    require(sorted(envelope) == [0, 1, 2, 3, 4], f"envelope keys {sorted(envelope)}, expected 0-4")
    kind = envelope[0]
    require(kind in ("payment", "receipt", "request", "evidence"), f"unknown kind {kind!r}")
    require(envelope[1] == VERSION, f"version {envelope[1]!r}, expected {VERSION}")
    check_value(int, envelope[2], "envelope.chainId")
    check_value(20, envelope[3], "envelope.vault")
    check_value(kind, envelope[4], kind)
    again = cbor2.dumps(cbor2.CBORTag(SELF_DESCRIBED, envelope), canonical=True)
    differ = [i for i, (a, b) in enumerate(zip(data, again)) if a != b] + [min(len(data), len(again))]
    require(again == data, f"{args.file}: not deterministic CBOR; {len(data)} bytes, cbor2's "
            f"canonical re-encoding has {len(again)}; first difference at byte {differ[0]}")
    return {"kind": kind, "chainId": envelope[2], "vault": to_checksum_address(envelope[3]),
            "bytes": len(data), "canonical": True}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("make-payment", help="sign a note and a transfer, write a payment file")
    make.add_argument("--issuer-key", required=True)
    make.add_argument("--owner-key", required=True)
    make.add_argument("--payee", required=True)
    make.add_argument("--chain-id", type=int, required=True)
    make.add_argument("--vault", required=True)
    make.add_argument("--expiry", type=int, required=True)
    make.add_argument("--note-amount", type=int, required=True)
    make.add_argument("--pay", type=int, required=True)
    make.add_argument("--request-id")
    make.add_argument("--serial", help="the note's serial (hex); the same serial, key and expiry "
                      "give the same note, so two payments from it are a double spend")
    make.add_argument("--memo", default="")
    make.add_argument("--inflate-after-signing", type=int, default=0,
                      help="tamper: add this to the payee's output after signing (negative tests)")
    make.add_argument("--out", required=True)
    make.set_defaults(run=make_payment)
    inspect = commands.add_parser("check-inspect", help="re-derive every digest, signer and coin id")
    inspect.add_argument("file", help="`tender inspect --json` output")
    inspect.add_argument("--expect", action="append", default=[], metavar="KIND=ADDR",
                         help="require every struct of KIND (notes, transfers, receipt, "
                         "evidence.first, evidence.second) to be signed by ADDR")
    inspect.add_argument("--against-payment", metavar="FILE",
                         help="inspect JSON of the payment a receipt answers: check its paymentDigest")
    inspect.set_defaults(run=check_inspect)
    cbor = commands.add_parser("check-cbor", help="decode, check shape, require canonical bytes")
    cbor.add_argument("file")
    cbor.set_defaults(run=check_cbor)
    args = parser.parse_args()
    try:
        result = args.run(args)
    except (Mismatch, ValueError, KeyError, TypeError, cbor2.CBORError, OSError) as error:
        kind = "" if isinstance(error, Mismatch) else f"{type(error).__name__}: "
        print(f"referee: {args.command}: {kind}{error}", file=sys.stderr)
        return 1
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
