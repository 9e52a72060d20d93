#!/usr/bin/env python3
"""Independent BOLT11 and Cashu implementations as referees for Tender's PaymentCodes module.

A test tool, never product code: it never imports or runs Tender. Every subcommand prints one
JSON list on stdout.

  payment_codes_referee.py bolt11-generate SEED COUNT
      COUNT random invoices signed by bolt11's encoder (random networks, amounts with every
      multiplier, tagged fields in random order), each with the fields it was built from.
  payment_codes_referee.py bolt11-decode FILE
      FILE is a JSON list of strings; bolt11's decoder reads each (signature checked). An
      entry is the fields, or {"error": ...} when bolt11 refuses the string.
  payment_codes_referee.py cashu-generate SEED COUNT
      COUNT random NUT-00 tokens, cashuA (json) and cashuB (cbor2), with the fields they carry.
  payment_codes_referee.py cashu-decode FILE
      Reads each string of FILE as NUT-00 says (base64url, then JSON or CBOR).
  payment_codes_referee.py bip21-generate SEED COUNT
      COUNT random bitcoin: URIs (urllib percent-encoding, amounts written several ways and
      converted with exact integers), with the fields they carry.
  payment_codes_referee.py address-decode FILE
      Reads each string of FILE as a Bitcoin address: segwit by bech32/bech32m (BIP-0173,
      BIP-0350, written here from the BIPs' text), legacy by base58check (`base58`).
  payment_codes_referee.py eip681-generate SEED COUNT
      COUNT random ethereum: URLs (eth-utils EIP-55 addresses, numbers written plainly or in
      scientific notation), with the fields they carry.

Field names, for both invoices and tokens, are those the Swift test compares.
"""
import base64
import json
import random
import re
import sys
from urllib.parse import quote, unquote

import base58
import bech32 as sipa_bech32
import bolt11
import cbor2
from bitstring import Bits, pack
from bolt11 import Bolt11, Feature, FeatureExtra, Features, FeatureState, Tag, TagChar, Tags
from bolt11.models.fallback import Fallback
from bolt11.models.routehint import Route, RouteHint
from coincurve import PrivateKey
from eth_utils import is_checksum_address, to_checksum_address

NETWORKS = ["bc", "tb", "tbs", "bcrt"]

# Even (required) feature bits Tender knows (BOLT 9): others must be refused, so only these
# are drawn as required; any odd (optional) bit is drawn.
KNOWN_EVEN_BITS = [8, 14, 16, 24, 36, 48]


# ---------------------------------------------------------------------------------- BOLT11


def feature_bits(features):
    """The set bit numbers of a bolt11 Features value (required = 2i, supported = 2i + 1)."""
    bits = []
    for feature, state in features.feature_list.items():
        bits.append(feature.value * 2 + (1 if state == FeatureState.supported else 0))
    return sorted(bits)


def features_from_bits(bits):
    chosen = {}
    for bit in bits:
        index = bit // 2
        feature = Feature(index) if index < len(Feature) else FeatureExtra(index)
        chosen[feature] = FeatureState.supported if bit % 2 else FeatureState.required
    return Features.from_feature_list(chosen)


def random_text(rng, max_bytes):
    """Printable text with ASCII, accents, CJK and emoji, at most max_bytes of UTF-8."""
    alphabet = "abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789.,;:!?'\"\\/%&=+#@-_" + "éüßçñ€£" + "ナンセンス杯咖啡" + "☕🙂🚀"
    text = ""
    for _ in range(rng.randrange(1, max_bytes + 1)):
        candidate = text + rng.choice(alphabet)
        if len(candidate.encode()) > max_bytes:
            break
        text = candidate
    return text


def random_amount(rng):
    """None, or millisatoshis that bolt11 writes with each multiplier (p, n, u, m, none).

    bolt11 2.2.0's msat_to_amount divides once too often when the amount is a whole multiple
    of 1,000 BTC (2.1e18 msat becomes "lnbc21000", 21,000 BTC): such amounts are not drawn.
    """
    while True:
        amount = draw_amount(rng)
        if amount is None or amount % (1000 * 10**11) != 0:
            return amount


def draw_amount(rng):
    kind = rng.randrange(7)
    if kind == 0:
        return None
    if kind == 1:
        return rng.randrange(1, 10)  # pico: "10p" … "90p"
    if kind == 2:
        return rng.randrange(1, 10**6)  # mostly p or n
    if kind == 3:
        return rng.randrange(1, 10**5) * 10**5  # u, m or whole BTC
    if kind == 4:
        return rng.randrange(1, 21 * 10**6) * 10**11  # whole bitcoins
    if kind == 5:
        return 20_999_999 * 10**11  # nearly every bitcoin there will ever be
    return rng.randrange(1, 21 * 10**17)


def generate_invoice(rng):
    network = rng.choice(NETWORKS)
    amount = random_amount(rng)
    timestamp = rng.randrange(0, 2**35)
    key = PrivateKey(rng.randbytes(32))
    expected = {
        "network": network,
        "msat": None if amount is None else str(amount),
        "timestamp": timestamp,
        "payment_hash": rng.randbytes(32).hex(),
        "payment_secret": None,
        "description": None,
        "description_hash": None,
        "expiry": None,
        "cltv": None,
        "payee": None,
        "features": [],
        "other_fields": [],
    }
    tags = [Tag(TagChar.payment_hash, expected["payment_hash"])]
    if rng.random() < 0.85:
        expected["payment_secret"] = rng.randbytes(32).hex()
        tags.append(Tag(TagChar.payment_secret, expected["payment_secret"]))
    shape = rng.randrange(4)
    if shape in (0, 1):
        # Up to 639 bytes: the longest a 10-bit field length (1023 groups) can hold.
        expected["description"] = random_text(rng, 639 if rng.random() < 0.1 else 80)
        tags.append(Tag(TagChar.description, expected["description"]))
    elif shape == 2:
        expected["description_hash"] = rng.randbytes(32).hex()
        tags.append(Tag(TagChar.description_hash, expected["description_hash"]))
    if rng.random() < 0.5:
        expected["expiry"] = rng.choice([1, 60, 3600, 604800, rng.randrange(1, 2**40)])
        tags.append(Tag(TagChar.expire_time, expected["expiry"]))
    if rng.random() < 0.5:
        expected["cltv"] = rng.choice([9, 18, 144, rng.randrange(1, 2**20)])
        tags.append(Tag(TagChar.min_final_cltv_expiry, expected["cltv"]))
    if rng.random() < 0.7:
        bits = set()
        for _ in range(rng.randrange(1, 6)):
            bits.add(rng.choice(KNOWN_EVEN_BITS) if rng.random() < 0.5 else 2 * rng.randrange(0, 60) + 1)
        if expected["payment_secret"] is None:
            bits -= {14, 15}  # payment_secret set without a secret is refused (BOLT 11)
        if bits:
            features = features_from_bits(bits)
            expected["features"] = feature_bits(features)
            tags.append(Tag(TagChar.features, features))
    extras = []
    if rng.random() < 0.3 and network in ("bc", "tb"):
        version = rng.choice([0, 17, 18])  # P2WPKH, P2PKH, P2SH programs
        extras.append(("f", Tag(TagChar.fallback, Fallback(pack("uint:5", version) + Bits(rng.randbytes(20)), network))))
    if rng.random() < 0.3:
        routes = [
            Route(
                public_key=PrivateKey(rng.randbytes(32)).public_key.format().hex(),
                short_channel_id=f"{rng.randrange(2**24)}x{rng.randrange(2**24)}x{rng.randrange(2**16)}",
                base_fee=rng.randrange(2**31),
                ppm_fee=rng.randrange(2**31),
                cltv_expiry_delta=rng.randrange(2**15),
            )
            for _ in range(rng.randrange(1, 3))
        ]
        extras.append(("r", Tag(TagChar.route_hint, RouteHint(routes))))
    if rng.random() < 0.2:
        extras.append(("m", Tag(TagChar.metadata, rng.randbytes(rng.randrange(1, 40)).hex())))
    keep_payee = rng.random() < 0.4
    if keep_payee:
        expected["payee"] = key.public_key.format().hex()
        tags.append(Tag(TagChar.payee, expected["payee"]))
    tags += [tag for _, tag in extras]
    rng.shuffle(tags)
    expected["other_fields"] = [tag.char.value for tag in tags if tag.char.value in ("f", "r", "m")]

    invoice = Bolt11(currency=network, date=timestamp, tags=Tags(tags), amount_msat=amount)
    text = bolt11.encode(invoice, private_key=key.secret.hex(), ignore_exceptions=True, keep_payee=keep_payee)
    expected["invoice"] = text
    expected["signature"] = invoice.signature.signature_data.hex()
    # The referee must agree with itself before it judges anyone else.
    again = decode_invoice(text)
    for name in ("network", "msat", "timestamp", "payment_hash", "payment_secret", "description",
                 "description_hash", "expiry", "cltv", "features", "signature"):
        if again.get(name) != expected[name]:
            sys.exit(f"referee: bolt11 disagrees with itself on {name}: {again.get(name)!r} != {expected[name]!r}")
    if again["payee"] != key.public_key.format().hex():
        sys.exit("referee: bolt11 recovers another payee than the signer")
    return expected


def decode_invoice(text):
    try:
        invoice = bolt11.decode(text, ignore_exceptions=True)
    except Exception as error:  # noqa: BLE001: any refusal is a refusal
        return {"error": f"{type(error).__name__}: {error}"}
    tags = invoice.tags

    def value(char):
        tag = tags.get(char)
        return None if tag is None else tag.data

    features = value(TagChar.features)
    return {
        "network": invoice.currency,
        "msat": None if invoice.amount_msat is None else str(int(invoice.amount_msat)),
        "timestamp": invoice.date,
        "payment_hash": value(TagChar.payment_hash),
        "payment_secret": value(TagChar.payment_secret),
        "description": value(TagChar.description),
        "description_hash": value(TagChar.description_hash),
        "expiry": value(TagChar.expire_time),
        "cltv": value(TagChar.min_final_cltv_expiry),
        # From the `n` field (then checked against the signature), else recovered from it.
        "payee": value(TagChar.payee),
        "features": [] if features is None else feature_bits(features),
        "signature": invoice.signature.signature_data.hex(),
    }


# ----------------------------------------------------------------------------------- Cashu

UNITS = ["sat", "msat", "usd", "eur", "auth"]


def random_mint(rng):
    host = rng.choice(["mint.example", "8333.space:3338", "localhost:3338", "testnut.cashu.space", "ecash.xn--ls8h.la"])
    path = rng.choice(["", "/", "/cashu/api/v1/abc", "/Bitcoin"])
    return rng.choice(["https://", "http://"]) + host + path


def random_amounts(rng):
    count = rng.randrange(1, 9)
    if rng.random() < 0.1:
        # Totals past 2^64: Tender sums into 128 bits.
        return [2**63] * rng.randrange(2, 5) + [2**64 - 1]
    return [2 ** rng.randrange(0, 64 if rng.random() < 0.1 else 20) for _ in range(count)]


def b64(data, rng):
    text = base64.urlsafe_b64encode(data).decode()
    return text.rstrip("=") if rng.random() < 0.5 else text


def generate_v3(rng):
    entries = []
    mints = []
    for _ in range(rng.randrange(1, 4)):
        mint = random_mint(rng)
        keyset_pool = ["00" + rng.randbytes(7).hex() for _ in range(rng.randrange(1, 3))]
        proofs = []
        keysets = []
        amounts = random_amounts(rng)
        for amount in amounts:
            proof = {"amount": amount, "secret": rng.randbytes(32).hex(), "C": "02" + rng.randbytes(32).hex()}
            if rng.random() < 0.9:
                proof["id"] = rng.choice(keyset_pool)
                if proof["id"] not in keysets:
                    keysets.append(proof["id"])
            keys = list(proof)
            rng.shuffle(keys)
            proofs.append({key: proof[key] for key in keys})
        entries.append({"mint": mint, "proofs": proofs})
        mints.append({"mint": mint, "amounts": [str(a) for a in amounts], "keysets": keysets})
    token = {"token": entries}
    unit = rng.choice(UNITS + [None])
    memo = random_text(rng, 60) if rng.random() < 0.5 else None
    if unit is not None:
        token["unit"] = unit
    if memo is not None:
        token["memo"] = memo
    elif rng.random() < 0.3:
        token["memo"] = None  # JSON null: no memo
    text = json.dumps(token, ensure_ascii=rng.random() < 0.5, separators=rng.choice([(",", ":"), (", ", ": ")]))
    return {
        "token": "cashuA" + b64(text.encode(), rng),
        "version": "A",
        "mints": mints,
        "unit": unit,
        "memo": memo,
        "total": str(sum(int(a) for m in mints for a in m["amounts"])),
    }


def generate_v4(rng):
    mint = random_mint(rng)
    unit = rng.choice(UNITS)
    memo = random_text(rng, 60) if rng.random() < 0.5 else None
    groups = []
    amounts = []
    keysets = []
    for _ in range(rng.randrange(1, 4)):
        keyset = b"\x00" + rng.randbytes(7)
        proofs = []
        for amount in random_amounts(rng):
            proof = {"a": amount, "s": rng.randbytes(32).hex(), "c": b"\x02" + rng.randbytes(32)}
            if rng.random() < 0.3:  # NUT-12 DLEQ proof, which a reader skips
                proof["d"] = {"e": rng.randbytes(32), "s": rng.randbytes(32), "r": rng.randbytes(32)}
            if rng.random() < 0.2:  # NUT-11 witness
                proof["w"] = json.dumps({"signatures": [rng.randbytes(64).hex()]})
            keys = list(proof)
            rng.shuffle(keys)
            proofs.append({key: proof[key] for key in keys})
            amounts.append(amount)
        groups.append({"i": keyset, "p": proofs})
        keysets.append(keyset.hex())
    token = {"m": mint, "u": unit, "t": groups}
    if memo is not None:
        token["d"] = memo
    keys = list(token)
    rng.shuffle(keys)  # NUT-00's own example writes "t" first
    token = {key: token[key] for key in keys}
    return {
        "token": "cashuB" + b64(cbor2.dumps(token), rng),
        "version": "B",
        "mints": [{"mint": mint, "amounts": [str(a) for a in amounts], "keysets": keysets}],
        "unit": unit,
        "memo": memo,
        "total": str(sum(amounts)),
    }


def generate_token(rng):
    expected = generate_v3(rng) if rng.random() < 0.5 else generate_v4(rng)
    if rng.random() < 0.2:
        expected["token"] = "cashu:" + expected["token"]
    again = decode_token(expected["token"])
    if again != {key: expected[key] for key in again}:
        sys.exit(f"referee: the Cashu reader disagrees with its own writer: {again!r} != {expected!r}")
    return expected


def unbase64(text):
    text = text.rstrip("=")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def decode_token(text):
    try:
        return read_token(text)
    except Exception as error:  # noqa: BLE001: any refusal is a refusal
        return {"error": f"{type(error).__name__}: {error}"}


def read_token(text):
    body = text[len("cashu:"):] if text.lower().startswith("cashu:") else text
    if not body.startswith("cashu") or len(body) < 7:
        raise ValueError("not a cashu token")
    version, payload = body[5], unbase64(body[6:])
    if version == "A":
        token = json.loads(payload.decode("utf-8"))
        mints = []
        for entry in token["token"]:
            if not entry["proofs"]:
                raise ValueError("no proofs")
            keysets = []
            for proof in entry["proofs"]:
                if not isinstance(proof["secret"], str) or not isinstance(proof["C"], str):
                    raise ValueError("secret and C must be strings")
                if "id" in proof and proof["id"] not in keysets:
                    keysets.append(proof["id"])
            amounts = [check_amount(proof["amount"]) for proof in entry["proofs"]]
            mints.append({"mint": entry["mint"], "amounts": [str(a) for a in amounts], "keysets": keysets})
        if not mints:
            raise ValueError("no mints")
        unit, memo = token.get("unit"), token.get("memo")
    elif version == "B":
        token = cbor2.loads(payload)
        amounts = []
        keysets = []
        for group in token["t"]:
            if not isinstance(group["i"], bytes) or not group["p"]:
                raise ValueError("bad proof group")
            keysets.append(group["i"].hex())
            for proof in group["p"]:
                if not isinstance(proof["s"], str) or not isinstance(proof["c"], bytes):
                    raise ValueError("s must be text and c bytes")
                amounts.append(check_amount(proof["a"]))
        if not token["t"] or not isinstance(token["m"], str) or not isinstance(token["u"], str):
            raise ValueError("bad V4 token")
        mints = [{"mint": token["m"], "amounts": [str(a) for a in amounts], "keysets": keysets}]
        unit, memo = token["u"], token.get("d")
    else:
        raise ValueError(f"unknown version {version}")
    return {
        "version": version,
        "mints": mints,
        "unit": unit,
        "memo": memo,
        "total": str(sum(int(a) for m in mints for a in m["amounts"])),
    }


def check_amount(amount):
    if type(amount) is not int or not 0 <= amount < 2**64:
        raise ValueError(f"amount {amount!r} is not a 64-bit unsigned integer")
    return amount


# ----------------------------------------------------------------------------------- BIP21

SUB_DELIMS = "!$'()*,;:@/?"  # allowed unescaped in a query value (RFC 3986), less & = +


def encode_value(rng, text):
    """Percent-encode UTF-8 as RFC 3986 allows: sometimes leaving sub-delimiters bare."""
    safe = "".join(c for c in SUB_DELIMS if rng.random() < 0.5) if rng.random() < 0.5 else ""
    encoded = quote(text, safe=safe)
    if rng.random() < 0.2:  # %c3%a9 is %C3%A9
        encoded = re.sub("%[0-9A-F]{2}", lambda m: m.group(0).lower(), encoded)
    return encoded


def write_decimal(rng, units, scale):
    """units / 10^scale as BIP21 `*DIGIT ["." *DIGIT]`, in one of several equal spellings."""
    whole, fraction = divmod(units, 10**scale)
    digits = str(fraction).rjust(scale, "0").rstrip("0")
    form = rng.randrange(6)
    if form == 1:
        digits += "0" * rng.randrange(0, 4)  # trailing zeros, even past the last satoshi
    text = str(whole) + ("." + digits if digits else "")
    if form == 2 and whole == 0 and digits:
        text = "." + digits  # no whole part
    elif form == 3 and not digits:
        text = str(whole) + "."  # a bare point
    elif form == 4:
        text = "0" * rng.randrange(1, 3) + text  # leading zeros
    return text


BECH32_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
BECH32_CONST, BECH32M_CONST = 1, 0x2BC830A3  # BIP-0173, BIP-0350


def bech32_polymod(values):
    generator = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    check = 1
    for value in values:
        top = check >> 25
        check = (check & 0x1FFFFFF) << 5 ^ value
        for i in range(5):
            check ^= generator[i] if (top >> i) & 1 else 0
    return check


def hrp_expand(hrp):
    return [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]


def regroup(data, frombits, tobits, pad):
    accumulator, bits, out = 0, 0, []
    for value in data:
        accumulator = accumulator << frombits | value
        bits += frombits
        while bits >= tobits:
            bits -= tobits
            out.append(accumulator >> bits & (1 << tobits) - 1)
    if pad and bits:
        out.append(accumulator << tobits - bits & (1 << tobits) - 1)
    elif not pad and (bits >= frombits or accumulator & (1 << bits) - 1):
        raise ValueError("bad padding")
    return out


def segwit_encode(hrp, version, program):
    data = [version] + regroup(program, 8, 5, True)
    constant = BECH32_CONST if version == 0 else BECH32M_CONST
    polymod = bech32_polymod(hrp_expand(hrp) + data + [0] * 6) ^ constant
    checksum = [(polymod >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH32_CHARSET[d] for d in data + checksum)


def segwit_decode(text):
    if text.lower() != text and text.upper() != text:
        raise ValueError("mixed case")
    text = text.lower()
    separator = text.rfind("1")
    hrp, data = text[:separator], [BECH32_CHARSET.index(c) for c in text[separator + 1:]]
    if hrp not in ("bc", "tb", "bcrt") or len(text) > 90 or len(data) < 7:
        raise ValueError("not a segwit address")
    check = bech32_polymod(hrp_expand(hrp) + data)
    version, program = data[0], regroup(data[1:-6], 5, 8, False)
    if version > 16 or not 2 <= len(program) <= 40 or version == 0 and len(program) not in (20, 32):
        raise ValueError("bad version or program")
    if check != (BECH32_CONST if version == 0 else BECH32M_CONST):
        raise ValueError("bad checksum")
    return {"network": {"bc": "mainnet", "tb": "testnet", "bcrt": "regtest"}[hrp],
            "kind": f"segwit{version}", "program": bytes(program).hex()}


LEGACY_VERSIONS = {0x00: ("mainnet", "p2pkh"), 0x05: ("mainnet", "p2sh"),
                   0x6F: ("testnet", "p2pkh"), 0xC4: ("testnet", "p2sh")}


def decode_address(text):
    try:
        if text.lower().startswith(("bc1", "tb1", "bcrt1")):
            return segwit_decode(text)
        payload = base58.b58decode_check(text)
        if len(payload) != 21 or payload[0] not in LEGACY_VERSIONS:
            raise ValueError("not a Bitcoin address")
        network, kind = LEGACY_VERSIONS[payload[0]]
        return {"network": network, "kind": kind, "program": payload[1:].hex()}
    except Exception as error:  # noqa: BLE001: any refusal is a refusal
        return {"error": f"{type(error).__name__}: {error}"}


def random_address(rng):
    """A valid address of any kind, and its network."""
    kind = rng.randrange(4)
    if kind == 0:
        version = rng.choice(list(LEGACY_VERSIONS))
        text = base58.b58encode_check(bytes([version]) + rng.randbytes(20)).decode()
        network = LEGACY_VERSIONS[version][0]
    else:
        hrp = rng.choice(["bc", "bc", "tb", "bcrt"])
        version = [0, 1, rng.randrange(2, 17)][kind - 1]
        length = rng.choice([20, 32]) if version == 0 else 32 if version == 1 else rng.randrange(2, 41)
        text = segwit_encode(hrp, version, rng.randbytes(length))
        if version == 0 and hrp != "bcrt" and sipa_bech32.decode(hrp, text) == (None, None):
            sys.exit(f"referee: the bech32 package refuses its own kind of address {text}")
        if rng.random() < 0.2:
            text = text.upper()
        network = {"bc": "mainnet", "tb": "testnet", "bcrt": "regtest"}[hrp]
    if "error" in decode_address(text):
        sys.exit(f"referee: cannot read back the address it wrote: {text}")
    return text, network


def generate_bip21(rng):
    lightning = rng.random() < 0.2
    address, network = ("", None) if lightning and rng.random() < 0.5 else random_address(rng)
    expected = {"address": address, "network": network, "satoshis": None, "label": None, "message": None,
                "lightning": None, "required": [], "others": []}
    params = []
    if rng.random() < 0.8:
        sats = rng.choice([1, 10**8, rng.randrange(1, 10**8), rng.randrange(1, 21 * 10**14 + 1)])
        expected["satoshis"] = str(sats)
        params.append(("amount", write_decimal(rng, sats, 8)))
    for key in ("label", "message"):
        if rng.random() < 0.5:
            expected[key] = random_text(rng, 50)
            params.append((key, encode_value(rng, expected[key])))
    if lightning:
        expected["lightning"] = "lnbc1" + "".join(rng.choice("qpzry9x8gf2tvdw0s3jn54khce6mua7l") for _ in range(60))
        params.append(("lightning", expected["lightning"]))
    for index in range(rng.randrange(0, 3)):
        key, value = f"x-{index}{rng.choice(['', 'é'])}", random_text(rng, 20)
        expected["others"].append(f"{key}={value}")
        params.append((quote(key, safe=""), encode_value(rng, value)))
    if rng.random() < 0.15:
        expected["required"].append("req-future")
        params.append(("req-future", "1"))
    rng.shuffle(params)
    order = [f"{unquote(k)}={unquote(v)}" for k, v in params]
    expected["others"] = [item for item in order if item in expected["others"]]
    scheme = rng.choice(["bitcoin", "BITCOIN", "Bitcoin"])
    query = "&".join(f"{k}={v}" for k, v in params)
    expected["uri"] = f"{scheme}:{address}" + (f"?{query}" if query else "")
    return expected


# -------------------------------------------------------------------------------- EIP-681


def write_number(rng, value):
    """An integer as EIP-681's number: plain, or with an exponent (2014e15, 2.014e18, 2.0140e18)."""
    digits = str(value)
    zeros = min(len(digits) - len(digits.rstrip("0")), len(digits) - 1)
    e = rng.choice("eE")
    sign = "+" if rng.random() < 0.05 else ""
    form = rng.randrange(3)
    if form == 1 and zeros:  # whole mantissa
        k = rng.randrange(1, zeros + 1)
        return f"{sign}{digits[:len(digits) - k]}{e}{k}"
    if form == 2 and len(digits) > 1:  # mantissa with a point, maybe padded with zeros
        point = rng.randrange(1, len(digits))
        padding = "0" * rng.randrange(0, 3)
        return f"{sign}{digits[:point]}.{digits[point:]}{padding}{e}{len(digits) - point}"
    return sign + digits


def read_number(text):
    """Exact integer value of an EIP-681 number (the referee's own check of write_number)."""
    mantissa, _, exponent = text.lstrip("+").lower().partition("e")
    whole, _, fraction = mantissa.partition(".")
    value = int(whole + fraction) * 10 ** int(exponent or 0)
    return value // 10 ** len(fraction) if value % 10 ** len(fraction) == 0 else None


def random_eth_address(rng, failures, field):
    raw = rng.randbytes(20).hex()
    checksummed = to_checksum_address("0x" + raw)
    form = rng.randrange(5)
    if form == 0:
        return "0x" + raw, checksummed
    if form == 1:
        return "0x" + raw.upper(), checksummed
    text = checksummed
    letters = [i for i, c in enumerate(text) if i > 1 and c.isalpha()]
    if form == 4 and len(letters) > 1:  # one letter in the wrong case: a typo EIP-55 catches
        i = rng.choice(letters)
        text = text[:i] + text[i].swapcase() + text[i + 1:]
        has_lower = any(c.islower() for c in text[2:])
        has_upper = any(c.isupper() for c in text[2:])
        if has_lower and has_upper and not is_checksum_address(text):
            failures.append(field)
    return text, checksummed


def generate_eip681(rng):
    failures = []
    ens = rng.random() < 0.15
    if ens:
        target_text = target = rng.choice(["alice.eth", "pay.shop.eth", "my-stall.example.eth", "x1.eth"])
    else:
        target_text, target = random_eth_address(rng, failures, "target_address")
    pay = rng.random() < 0.5
    chain = rng.choice([None, 1, 10, 137, 8453, 31337, 11155111, rng.randrange(1, 2**40)])
    chain_text = "" if chain is None else "@" + "0" * (rng.random() < 0.1) + str(chain)
    kind = rng.choice(["native", "native", "transfer", "call"])
    function = {"native": None, "transfer": "transfer", "call": rng.choice(["approve", "mint", "safeTransferFrom"])}[kind]
    params = []
    numbers = {}
    expected = {"pay": "true" if pay else "false", "target": target, "chain_id": None if chain is None else str(chain),
                "function": function, "value": None, "intent": kind, "to": None, "amount": None,
                "checksum_failures": []}
    if kind == "native" or rng.random() < 0.2:
        if rng.random() < 0.8:
            value = numbers["value"] = rng.choice([0, 1, 10**18, 2014 * 10**15, rng.randrange(2**128)])
            expected["value"] = str(value)
            params.append(("value", write_number(rng, value)))
    if kind != "native":
        if rng.random() < 0.85:
            to_text, to = random_eth_address(rng, failures, "address")
            params.append(("address", to_text))
            expected["to"] = to if kind == "transfer" else None
        if rng.random() < 0.85:
            amount = numbers["uint256"] = rng.choice([1, 10**6, rng.randrange(2**64), rng.randrange(2**128)])
            params.append(("uint256", write_number(rng, amount)))
            expected["amount"] = str(amount) if kind == "transfer" else None
    else:
        expected["to"], expected["amount"] = target, expected["value"]
    for key in rng.sample(["gas", "gasLimit", "gasPrice"], rng.randrange(0, 3)):
        numbers[key] = rng.randrange(21000, 10**12)
        params.append((key, write_number(rng, numbers[key])))
    rng.shuffle(params)
    order = {k: i for i, (k, _) in enumerate(params)}
    expected["checksum_failures"] = sorted(failures, key=lambda f: -1 if f == "target_address" else order["address"])
    for key, text in params:
        if key != "address" and read_number(text) != numbers[key]:
            sys.exit(f"referee: wrote {numbers[key]} as {text!r}")
    url = f"{rng.choice(['ethereum', 'ETHEREUM'])}:{'pay-' if pay else ''}{target_text}{chain_text}"
    url += f"/{function}" if function else ""
    url += "?" + "&".join(f"{k}={v}" for k, v in params) if params else ""
    expected["url"] = url
    return expected


# ------------------------------------------------------------------------------------ main


def main(argv):
    generators = {"bolt11-generate": generate_invoice, "cashu-generate": generate_token,
                  "bip21-generate": generate_bip21, "eip681-generate": generate_eip681}
    if len(argv) == 4 and argv[1] in generators:
        rng = random.Random(int(argv[2]))
        result = [generators[argv[1]](rng) for _ in range(int(argv[3]))]
    elif len(argv) == 3 and argv[1] in ("bolt11-decode", "cashu-decode", "address-decode"):
        with open(argv[2], encoding="utf-8") as file:
            texts = json.load(file)
        read = {"bolt11-decode": decode_invoice, "cashu-decode": decode_token,
                "address-decode": decode_address}[argv[1]]
        result = [read(text) for text in texts]
    else:
        sys.exit(__doc__)
    json.dump(result, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main(sys.argv)
