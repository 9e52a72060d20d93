#!/usr/bin/env python3
"""Tender referee: an independent implementation of Tender's wire format and signatures.

Follows Docs/PROTOCOL.md, built only on other people's code (eth-account
for EIP-712 and secp256k1, eth-hash for keccak, cbor2 for CBOR), never on Tender's, so that
when `tender` and this file agree, two implementations agree. A test referee; never part of
the product. See README.md.

Every subcommand prints JSON on stdout; any disagreement exits 1 with `referee: ...` on stderr.
Protocol version 2: the payer signs the payment's terms (EIP-712 `Payment`, body field 7) and
a receipt signs that digest.
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
VERSION = 2
ZERO_ADDRESS = "0x" + "00" * 20
MAX_AMOUNT = 2**128 - 1
SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
MINIMUM_COIN_LIFETIME = 3600  # PROTOCOL.md §5: a paid coin must live this much longer

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
    "Payment": [
        {"name": "requestId", "type": "bytes32"},
        {"name": "payee", "type": "address"},
        {"name": "asset", "type": "address"},
        {"name": "amount", "type": "uint128"},
        {"name": "memo", "type": "string"},
        {"name": "coins", "type": "bytes32[]"},
    ],
    "Receipt": [
        {"name": "requestId", "type": "bytes32"},
        {"name": "paymentDigest", "type": "bytes32"},
        {"name": "time", "type": "uint64"},
    ],
}
REFERENCED = {"Note": [], "Transfer": ["Output"], "Payment": [], "Receipt": []}


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
    """Signs with eth-account (encode_typed_data, then sign_message); returns (digest, 65-byte
    r‖s‖v signature with v = 27/28, the only form the wire takes: PROTOCOL.md §1)."""
    signable, digest = digest_of(full_message)
    signed = Account.sign_message(signable, private_key=key)
    require(bytes(signed.message_hash) == digest, "eth-account's digest disagrees with itself")
    signature = bytes(signed.signature)
    require(len(signature) == 65 and signature[64] in (27, 28), "unexpected signature form")
    return digest, signature


def account(text):
    """A private key as 0x hex, or BIP39 words: the account at m/44'/60'/0'/0/0, where a
    Tender wallet restored from those words keeps its key (PROTOCOL.md §8)."""
    if len(text.split()) > 1:
        Account.enable_unaudited_hdwallet_features()
        return Account.from_mnemonic(" ".join(text.split()))
    return Account.from_key(text)


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


def wire_note_of(note, signature):
    return {
        0: note["serial"], 1: unhex(note["issuer"], 20), 2: unhex(note["asset"], 20),
        3: cbor_amount(note["amount"]), 4: unhex(note["owner"], 20), 5: note["expiry"],
        6: signature,
    }


def make_note(issuer, owner, amount, expiry, serial, chain_id, vault):
    note = {"serial": serial, "issuer": issuer.address, "asset": ZERO_ADDRESS, "amount": amount,
            "owner": owner, "expiry": expiry}
    digest, signature = sign(issuer.key, typed_data("Note", chain_id, vault, note))
    return note, digest, signature


def make_payment(args):
    issuer = account(args.issuer_key)
    owner = account(args.owner_key)
    payee = to_checksum_address(args.payee)
    vault = to_checksum_address(args.vault)
    pays = args.pay
    require(pays and all(pay > 0 for pay in pays), "need one or more --pay > 0")
    request_id = (unhex(args.request_id, 32, "--request-id") if args.request_id
                  else secrets.token_bytes(32))
    serial = unhex(args.serial, 32, "--serial") if args.serial else secrets.token_bytes(32)
    notes, transfers, result = [], [], {}

    if args.issue:
        # An issuance (PROTOCOL.md §5): notes straight to the payee, the issuer is the payer.
        require(not (args.serial or args.inflate_after_signing or args.unrelated_note),
                "--issue takes no --serial, --inflate-after-signing or --unrelated-note")
        payer, credited = issuer, []
        for i, pay in enumerate(pays):
            note, digest, signature = make_note(
                issuer, payee, pay, args.expiry, secrets.token_bytes(32), args.chain_id, vault)
            notes.append(wire_note_of(note, signature))
            credited.append(coin_id(digest, 0))
        paid = sum(pays)
    else:
        require(args.note_amount is not None, "--note-amount is required without --issue")
        require(sum(pays) <= args.note_amount <= MAX_AMOUNT,
                "need the --pay values to sum to at most --note-amount < 2^128")
        note, note_digest, note_signature = make_note(
            issuer, owner.address, args.note_amount, args.expiry, serial, args.chain_id, vault)
        note_coin = coin_id(note_digest, 0)
        notes.append(wire_note_of(note, note_signature))
        outputs = [{"owner": payee, "amount": pay} for pay in pays]
        change = args.note_amount - sum(pays)
        if change:
            outputs.append({"owner": owner.address, "amount": change})
        transfer = {"inputs": [note_coin], "outputs": outputs}
        transfer_digest, transfer_signature = sign(
            owner.key, typed_data("Transfer", args.chain_id, vault, transfer))
        payer, credited = owner, [coin_id(transfer_digest, i) for i in range(len(pays))]
        paid = sum(pays)
        if args.inflate_after_signing:
            # Tampering for negative tests: more to the payee, less change, so amounts still
            # add up and only the transfer's signature can tell.
            require(change > args.inflate_after_signing, "--inflate-after-signing needs more change")
            outputs[0] = {"owner": payee, "amount": pays[0] + args.inflate_after_signing}
            outputs[-1] = {"owner": owner.address, "amount": change - args.inflate_after_signing}
        transfers.append({
            0: [note_coin],
            1: [[unhex(output["owner"], 20), cbor_amount(output["amount"])] for output in outputs],
            2: transfer_signature,
        })
        if args.unrelated_note:
            # A second note to the payer that no paid coin descends from (PROTOCOL.md §5 step 6).
            extra, _, extra_signature = make_note(
                issuer, owner.address, 1, args.expiry, secrets.token_bytes(32), args.chain_id,
                vault)
            notes.append(wire_note_of(extra, extra_signature))
        result.update(noteCoin=hexstr(note_coin), noteDigest=hexstr(note_digest),
                      transferDigest=hexstr(transfer_digest))

    # The terms, signed by the payer (PROTOCOL.md §2, §5) unless --payment-key says otherwise.
    terms = {"requestId": request_id, "payee": payee, "asset": ZERO_ADDRESS, "amount": paid,
             "memo": args.memo, "coins": credited}
    signer = account(args.payment_key) if args.payment_key else payer
    payment_digest, payment_signature = sign(
        signer.key, typed_data("Payment", args.chain_id, vault, terms))
    if args.inflate_after_signing:
        paid += args.inflate_after_signing  # the body says what the altered transfer pays

    body = {
        0: request_id, 1: unhex(payee, 20), 2: cbor_amount(paid), 3: unhex(ZERO_ADDRESS, 20),
        4: args.memo, 5: {0: notes, 1: transfers}, 6: credited, 7: payment_signature,
    }
    with open(args.out, "wb") as file:
        file.write(envelope_bytes("payment", args.chain_id, vault, body))
    result.update({
        "requestId": hexstr(request_id), "issuer": issuer.address, "owner": owner.address,
        "payer": payer.address, "paymentSigner": signer.address, "payee": payee,
        "amount": str(paid), "credited": [hexstr(coin) for coin in credited],
        "paymentDigest": hexstr(payment_digest), "paymentSignature": hexstr(payment_signature),
        "file": args.out,
    })
    return result


# ---------- tamper ----------

TAMPERABLE = ["requestId", "payee", "asset", "amount", "memo", "coins-reorder", "coins-drop",
              "signature-v01", "signature-high-s", "evidence-swap"]


def flip_last_byte(data):
    return data[:-1] + bytes([data[-1] ^ 0x01])


def tamper(args):
    """Changes one signed term of a payment file and keeps field 7, the payer's signature over
    the old terms: what a relay that alters a payment in flight would send. Or re-spells that
    signature in a form the wire refuses though it means the same (PROTOCOL.md §1): v 0/1
    instead of 27/28, or the high-s twin (n - s, the other recovery id). `evidence-swap` puts
    an evidence file's two transfers out of digest order (PROTOCOL.md §7)."""
    envelope = decode_envelope(read_bytes(args.file))
    if args.field == "evidence-swap":
        require(envelope[0] == "evidence", f"{args.file} is a {envelope[0]}, not evidence")
        body = dict(envelope[4])
        body[1], body[2] = body[2], body[1]
        envelope[4] = body
        with open(args.out, "wb") as file:
            file.write(cbor2.dumps(cbor2.CBORTag(SELF_DESCRIBED, envelope), canonical=True))
        return {"field": args.field, "file": args.out}
    require(envelope[0] == "payment", f"{args.file} is a {envelope[0]}, not a payment")
    body = dict(envelope[4])
    field = args.field
    number = {"requestId": 0, "payee": 1, "amount": 2, "asset": 3, "memo": 4}.get(
        field, 7 if field.startswith("signature") else 6)
    before = body[number]
    if field == "signature-v01":
        after = before[:64] + bytes([before[64] - 27])
    elif field == "signature-high-s":
        high_s = SECP256K1_N - int.from_bytes(before[32:64], "big")
        after = before[:32] + high_s.to_bytes(32, "big") + bytes([55 - before[64]])  # 27 <-> 28
    elif field == "requestId":
        after = bytes([before[0] ^ 0xFF]) + before[1:]
    elif field in ("payee", "asset"):
        after = unhex(args.value, 20, "--value") if args.value else flip_last_byte(before)
    elif field == "amount":
        after = int(args.value) if args.value else before + 1
        require(0 < after <= MAX_AMOUNT, "--value: the amount must be in 1 ... 2^128 - 1")
    elif field == "memo":
        after = args.value if args.value is not None else before + "!"
    else:
        require(len(before) >= 2, f"{field} needs a payment naming two coins or more")
        after = list(reversed(before)) if field == "coins-reorder" else before[:-1]
    require(after != before, f"{field}: the change leaves it as it was")
    body[number] = cbor_amount(after) if field == "amount" else after
    envelope[4] = body
    with open(args.out, "wb") as file:
        file.write(cbor2.dumps(cbor2.CBORTag(SELF_DESCRIBED, envelope), canonical=True))

    def show(value):
        if isinstance(value, list):
            return [show(item) for item in value]
        if isinstance(value, bytes):
            return to_checksum_address(value) if len(value) == 20 else hexstr(value)
        return value if isinstance(value, str) else str(value)

    return {"field": field, "before": show(before), "after": show(after),
            "signature": hexstr(body[7]), "file": args.out}


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


PLAIN_TERMS = ["requestId", "payee", "amount", "asset", "memo", "coins"]


def terms_digest(payment, chain_id, vault):
    """The EIP-712 Payment digest of a payment's plain fields, computed here (PROTOCOL.md §5:
    paymentDigest = keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(Payment)))."""
    message = to_eth_values("Payment", {name: payment[name] for name in PLAIN_TERMS}, "payment")
    return digest_of(typed_data("Payment", chain_id, vault, message))[1]


def paid_coins(inspection, payer, now=None):
    """PROTOCOL.md §5: the coins a payment names are distinct unspent leaves of its bundle,
    owned by the payee, in its asset, summing to its amount; each was created by `payer` (the
    owner of the inputs of the transfer that made it, or its note's issuer); and every note and
    transfer of the bundle is an ancestor of a paid coin. With `now` (the payee's clock), each
    paid coin expires (the earliest expiry of its notes) more than the minimum coin lifetime
    after it. Returned in the signed order."""
    payment = inspection["payment"]
    coins, creator, parents, expiry = {}, {}, {}, {}  # coin -> fields, creator, maker, expiry
    notes, transfers = signed_list(inspection, "notes"), signed_list(inspection, "transfers")
    for i, note in enumerate(notes):
        message = note["typedData"]["message"]
        coins[note["coin"]] = message
        creator[note["coin"]] = message["issuer"]
        parents[note["coin"]] = ("note", i, [])
        expiry[note["coin"]] = int(message["expiry"])
    spent = set()
    for i, transfer in enumerate(transfers):
        message = transfer["typedData"]["message"]
        for coin in message["inputs"]:
            require(coin in coins, f"transfers[{i}] spends {coin}, not created before it")
        owners = {coins[coin]["owner"] for coin in message["inputs"]}
        require(len(owners) == 1, f"transfers[{i}] spends coins of several owners {owners}")
        spent.update(message["inputs"])
        for coin, output in zip(transfer["outputCoins"], message["outputs"]):
            coins[coin] = {**output, "asset": coins[message["inputs"][0]]["asset"]}
            creator[coin] = next(iter(owners))
            parents[coin] = ("transfer", i, message["inputs"])
            expiry[coin] = min(expiry[source] for source in message["inputs"])
    named = payment["coins"]
    require(named and len(set(named)) == len(named), f"payment.coins {named} are empty or repeat")
    for coin in named:
        require(coin in coins and coin not in spent, f"payment names {coin}, not a leaf of its bundle")
        require(coins[coin]["owner"] == payment["payee"], f"payment names {coin}, not the payee's")
        require(coins[coin]["asset"] == payment["asset"],
                f"payment names {coin}, asset {coins[coin]['asset']}, not {payment['asset']}")
        require(creator[coin] == payer,
                f"payment names {coin}, created by {creator[coin]}, but its terms are signed by "
                f"{payer}")
        require(now is None or expiry[coin] > now + MINIMUM_COIN_LIFETIME,
                f"payment names {coin}, which expires at {expiry[coin]}: not more than "
                f"{MINIMUM_COIN_LIFETIME} s after {now}")
    total = sum(int(coins[coin]["amount"]) for coin in named)
    require(total == int(payment["amount"]),
            f"the named coins sum to {total}, the payment says {payment['amount']}")
    ancestors, queue = set(), list(named)
    while queue:
        kind, index, inputs = parents[queue.pop()]
        ancestors.add((kind, index))
        queue.extend(inputs)
    for kind, items in (("note", notes), ("transfer", transfers)):
        for index in range(len(items)):
            require((kind, index) in ancestors, f"the bundle's {kind} #{index} leads to no paid coin")
    return named


def check_inspect(args):
    with open(args.file) as file:
        inspection = json.load(file)
    expect = dict(pair.split("=", 1) for pair in args.expect)
    structs = []
    for key in ("notes", "transfers"):
        structs += [(f"{key}[{i}]", item) for i, item in enumerate(signed_list(inspection, key))]
    if "payment" in inspection:
        structs.append(("payment", inspection["payment"]))
    if "receipt" in inspection:
        structs.append(("receipt", inspection["receipt"]))
    if "evidence" in inspection:
        structs += [(f"evidence.{side}", inspection["evidence"][side]) for side in ("first", "second")]
    require(structs, f"{args.file}: no signed structs found")
    checked = [check_signed(path, item, expect) for path, item in structs]
    for kind in expect:
        require(any(path.split("[")[0] == kind for path, _ in structs), f"--expect {kind}: none in file")
    result = {"kind": inspection.get("kind"), "version": inspection.get("version"),
              "checked": len(checked), "structs": checked}
    require(inspection.get("version") == VERSION,
            f"inspect says version {inspection.get('version')!r}, expected {VERSION}")
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
        # PROTOCOL.md §5: the plain fields are the signed terms, the digest is theirs, and the
        # signature recovers to the creator of every paid coin.
        payment = inspection["payment"]
        signed_terms = payment["typedData"]["message"]
        for name in PLAIN_TERMS:
            require(payment[name] == signed_terms[name],
                    f"payment.{name} {payment[name]!r} but the signed terms say {signed_terms[name]!r}")
        payer = next(item["signer"] for item in checked if item["path"] == "payment")
        digest = terms_digest(payment, int(inspection["chainId"]), inspection["vault"])
        require(hexstr(digest) == payment["digest"],
                f"payment digest {payment['digest']}, referee computes {hexstr(digest)}")
        result.update(credited=paid_coins(inspection, payer, args.now), payer=payer,
                      paymentDigest=hexstr(digest))
    if "receipt" in inspection:
        result["paymentDigest"] = inspection["receipt"]["typedData"]["message"]["paymentDigest"]
    if args.against_payment:
        # PROTOCOL.md §5: a receipt signs the request id and the EIP-712 digest of the terms.
        with open(args.against_payment) as file:
            paid = json.load(file)
        payment = paid["payment"]
        paid_coins(paid, check_signed("payment", payment, {})["signer"])
        expected = hexstr(terms_digest(payment, int(paid["chainId"]), paid["vault"]))
        message = inspection["receipt"]["typedData"]["message"]
        require(message["paymentDigest"] == expected,
                f"receipt paymentDigest {message['paymentDigest']}, referee computes {expected}")
        require(message["requestId"] == payment["requestId"],
                f"receipt requestId {message['requestId']}, payment's {payment['requestId']}")
    if args.payment_digest:
        actual = inspection["receipt"]["typedData"]["message"]["paymentDigest"]
        require(actual == args.payment_digest.lower(),
                f"receipt paymentDigest {actual}, expected {args.payment_digest}")
    return result


# ---------- check-cbor ----------

SHAPES = {  # field number -> (name, kind); kinds are checked by check_value
    "payment": {0: ("requestId", 32), 1: ("payee", 20), 2: ("amount", "amount"), 3: ("asset", 20),
                4: ("memo", str), 5: ("bundle", "bundle"), 6: ("coins", [32]), 7: ("signature", 65)},
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
        if kind == 65:  # PROTOCOL.md §1: one encoding per signature, v 27/28 and low s
            require(value[64] in (27, 28), f"{where}: signature v is {value[64]}, not 27 or 28")
            require(int.from_bytes(value[32:64], "big") <= SECP256K1_N // 2,
                    f"{where}: high-s signature")
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


def read_bytes(path):
    with open(path, "rb") as file:
        return file.read()


def decode_envelope(data):
    require(data[:3] == b"\xd9\xd9\xf7", "does not begin with the d9d9f7 tag 55799")
    # cbor2 drops tag 55799 while decoding, so decode what it wraps (the tag goes back on when
    # re-encoding).
    envelope = cbor2.loads(data[3:], allow_duplicate_keys=False, allow_indefinite=False)
    require(isinstance(envelope, Mapping), f"envelope is a {type(envelope).__name__}, not a map")
    require(sorted(envelope) == [0, 1, 2, 3, 4], f"envelope keys {sorted(envelope)}, expected 0-4")
    return dict(envelope)


def transfer_digest(transfer, chain_id, vault):
    message = {"inputs": list(transfer[0]),
               "outputs": [{"owner": to_checksum_address(owner), "amount": amount}
                           for owner, amount in transfer[1]]}
    return digest_of(typed_data("Transfer", chain_id, vault, message))[1]


def check_cbor(args):
    data = read_bytes(args.file)
    require(data[:3] == b"\xd9\xd9\xf7", f"{args.file}: does not begin with the d9d9f7 tag 55799")
    envelope = decode_envelope(data)
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
    vault = to_checksum_address(envelope[3])
    result = {"kind": kind, "version": envelope[1], "chainId": envelope[2], "vault": vault,
              "bytes": len(data), "canonical": True}
    if kind == "evidence":
        # PROTOCOL.md §6-7: the transfer with the smaller digest first, so one fraud has one
        # encoding.
        first, second = (transfer_digest(envelope[4][i], envelope[2], vault) for i in (1, 2))
        require(first < second, f"evidence transfers out of digest order: {hexstr(first)} "
                f"before {hexstr(second)}")
        result["digests"] = [hexstr(first), hexstr(second)]
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser(
        "make-payment", help="sign a note, a transfer and the payment's terms; write a payment file")
    make.add_argument("--issuer-key", required=True, help="0x hex private key, or BIP39 words")
    make.add_argument("--owner-key", required=True,
                      help="the payer: owner of the note the transfer spends (hex, or BIP39 words)")
    make.add_argument("--payee", required=True)
    make.add_argument("--chain-id", type=int, required=True)
    make.add_argument("--vault", required=True)
    make.add_argument("--expiry", type=int, required=True)
    make.add_argument("--note-amount", type=int, help="the payer's note (required without --issue)")
    make.add_argument("--pay", type=int, action="append", required=True,
                      help="one coin to the payee (repeat for several coins; the rest is change)")
    make.add_argument("--issue", action="store_true",
                      help="an issuance: one note to the payee per --pay, the issuer as payer")
    make.add_argument("--request-id")
    make.add_argument("--serial", help="the note's serial (hex); the same serial, key and expiry "
                      "give the same note, so two payments from it are a double spend")
    make.add_argument("--memo", default="")
    make.add_argument("--payment-key",
                      help="sign the terms with this key (hex, or BIP39 words) instead of the "
                      "payer's (negative tests)")
    make.add_argument("--inflate-after-signing", type=int, default=0,
                      help="tamper: add this to the payee's output after signing (negative tests)")
    make.add_argument("--unrelated-note", action="store_true",
                      help="add a note to the payer that leads to no paid coin (negative tests)")
    make.add_argument("--out", required=True)
    make.set_defaults(run=make_payment)
    alter = commands.add_parser(
        "tamper", help="change one signed term of a payment file, keeping the payer's signature "
        "(or swap an evidence file's transfers)")
    alter.add_argument("file")
    alter.add_argument("--field", required=True, choices=TAMPERABLE)
    alter.add_argument("--value", help="the new value (payee/asset: address; amount: integer; "
                       "memo: text); by default a minimal change")
    alter.add_argument("--out", required=True)
    alter.set_defaults(run=tamper)
    inspect = commands.add_parser("check-inspect", help="re-derive every digest, signer and coin id")
    inspect.add_argument("file", help="`tender inspect --json` output")
    inspect.add_argument("--expect", action="append", default=[], metavar="KIND=ADDR",
                         help="require every struct of KIND (notes, transfers, payment, receipt, "
                         "evidence.first, evidence.second) to be signed by ADDR")
    inspect.add_argument("--against-payment", metavar="FILE",
                         help="inspect JSON of the payment a receipt answers: check its paymentDigest")
    inspect.add_argument("--payment-digest", metavar="HEX",
                         help="require the receipt to sign this paymentDigest (e.g. make-payment's)")
    inspect.add_argument("--now", type=int, metavar="SECONDS",
                         help="the payee's clock: every paid coin must expire more than the "
                         f"minimum coin lifetime ({MINIMUM_COIN_LIFETIME} s) after it")
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
