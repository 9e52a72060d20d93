"""Checks a cashuB token against its mint over the bare HTTP API (NUT-01/02/03/07/12), the way a
receiver that does not use nutshell's wallet would: decodes the token's CBOR itself, resolves
its short keyset ids through GET /v1/keysets, verifies each proof's DLEQ against GET /v1/keys,
asks POST /v1/checkstate for each proof's Y, and with --swap swaps the proofs for new ones
(POST /v1/swap), verifies the signatures' DLEQ, unblinds them and checks the states again.
Prints each request and answer (long values cut) and exits non-zero on any failure.

    python probe.py URL TOKEN [--swap] [--expect-state UNSPENT|SPENT]
"""

import argparse
import base64
import json
import os
import sys
import urllib.error
import urllib.request

import cbor2
from cashu.core.crypto.b_dhke import (alice_verify_dleq, carol_verify_dleq, hash_to_curve,
                                      step1_alice, step3_alice)
from coincurve import PrivateKey, PublicKey


def call(url, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:
        sys.exit(f"probe: {'POST' if body else 'GET'} {path} -> HTTP {error.code}: {error.read().decode()}")


def cut(value, keep=3):
    """The JSON with long strings and lists shortened, for printing."""
    if isinstance(value, str):
        return value if len(value) <= 24 else value[:12] + "…" + value[-6:]
    if isinstance(value, list):
        shown = [cut(v, keep) for v in value[:keep]]
        return shown + ([f"… {len(value) - keep} more"] if len(value) > keep else [])
    if isinstance(value, dict):
        items = list(value.items())
        shown = {k: cut(v, keep) for k, v in items[:keep if len(items) > 8 else len(items)]}
        if len(items) > 8 and len(items) > keep:
            shown["…"] = f"{len(items) - keep} more"
        return shown
    return value


def show(label, value):
    print(f"{label}: {json.dumps(cut(value), ensure_ascii=False)}")


def decode_token(token):
    if not token.startswith("cashuB"):
        sys.exit("probe: not a cashuB (V4) token")
    raw = token[len("cashuB"):]
    data = cbor2.loads(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))
    proofs = []
    for group in data["t"]:
        for p in group["p"]:
            proofs.append({"id": group["i"].hex(), "amount": p["a"], "secret": p["s"], "C": p["c"].hex(),
                           "dleq": {"e": p["d"]["e"].hex(), "s": p["d"]["s"].hex(), "r": p["d"]["r"].hex()}
                           if "d" in p else None,
                           "witness": p.get("w")})
    return data["m"], data["u"], proofs


def fail(message):
    print(f"probe: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("token")
    parser.add_argument("--swap", action="store_true")
    parser.add_argument("--expect-state", choices=["UNSPENT", "SPENT"])
    args = parser.parse_args()
    url = args.url.rstrip("/")

    mint, unit, proofs = decode_token(args.token)
    print(f"token: mint {mint}, unit {unit}, {len(proofs)} proofs, amounts {[p['amount'] for p in proofs]}")
    if mint.rstrip("/") != url:
        fail(f"token's mint {mint} is not {url}")

    keysets = call(url, "/v1/keysets")
    show("GET /v1/keysets", keysets)
    keys = call(url, "/v1/keys")
    show("GET /v1/keys", keys)
    full_ids = {}
    for p in proofs:
        matches = [k["id"] for k in keysets["keysets"] if k["id"].startswith(p["id"])]
        if len(matches) != 1:
            fail(f"short keyset id {p['id']} matches {matches}")
        full_ids[p["id"]] = matches[0]
    keyset_keys = {k["id"]: k["keys"] for k in keys["keysets"]}

    for p in proofs:
        A = PublicKey(bytes.fromhex(keyset_keys[full_ids[p["id"]]][str(p["amount"])]))
        if p["dleq"] is None:
            fail("token has no DLEQ proofs (send with --dleq)")
        ok = carol_verify_dleq(p["secret"], PrivateKey(bytes.fromhex(p["dleq"]["r"])),
                               PublicKey(bytes.fromhex(p["C"])), PrivateKey(bytes.fromhex(p["dleq"]["e"])),
                               PrivateKey(bytes.fromhex(p["dleq"]["s"])), A)
        if not ok:
            fail(f"DLEQ of the {p['amount']} proof does not verify")
    print(f"DLEQ: all {len(proofs)} proofs verify against /v1/keys")

    Ys = [hash_to_curve(p["secret"].encode()).format().hex() for p in proofs]
    request = {"Ys": Ys}
    states = call(url, "/v1/checkstate", request)
    show("POST /v1/checkstate request", request)
    show("POST /v1/checkstate response", states)
    got = [s["state"] for s in states["states"]]
    if [s["Y"] for s in states["states"]] != Ys:
        fail("checkstate answered other Ys")
    if args.expect_state and set(got) != {args.expect_state}:
        fail(f"states {got}, expected all {args.expect_state}")

    if not args.swap:
        return
    active = next(k["id"] for k in keysets["keysets"] if k["active"] and k["unit"] == unit)
    inputs = [{"id": full_ids[p["id"]], "amount": p["amount"], "secret": p["secret"], "C": p["C"]}
              | ({"witness": p["witness"]} if p["witness"] else {}) for p in proofs]
    secrets, blinds, outputs = [], [], []
    for p in proofs:
        secret = os.urandom(32).hex()
        B_, r = step1_alice(secret)
        secrets.append(secret)
        blinds.append(r)
        outputs.append({"amount": p["amount"], "id": active, "B_": B_.format().hex()})
    request = {"inputs": inputs, "outputs": outputs}
    answer = call(url, "/v1/swap", request)
    show("POST /v1/swap request", request)
    show("POST /v1/swap response", answer)
    new_Ys = []
    for out, r, secret, sig in zip(outputs, blinds, secrets, answer["signatures"]):
        A = PublicKey(bytes.fromhex(keyset_keys[sig["id"]][str(sig["amount"])]))
        C_ = PublicKey(bytes.fromhex(sig["C_"]))
        if not alice_verify_dleq(PublicKey(bytes.fromhex(out["B_"])), C_,
                                 PrivateKey(bytes.fromhex(sig["dleq"]["e"])),
                                 PrivateKey(bytes.fromhex(sig["dleq"]["s"])), A):
            fail("the swap's DLEQ does not verify")
        step3_alice(C_, r, A)
        new_Ys.append(hash_to_curve(secret.encode()).format().hex())
    print(f"swap: {len(answer['signatures'])} signatures, DLEQ verified, unblinded")
    old = [s["state"] for s in call(url, "/v1/checkstate", {"Ys": Ys})["states"]]
    new = [s["state"] for s in call(url, "/v1/checkstate", {"Ys": new_Ys})["states"]]
    print(f"after swap: inputs {old}, outputs {new}")
    if set(old) != {"SPENT"} or set(new) != {"UNSPENT"}:
        fail("after the swap the inputs must be SPENT and the outputs UNSPENT")
    again = urllib.request.Request(url + "/v1/swap", json.dumps(request).encode(),
                                   {"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(again, timeout=10)
        fail("swapping the same inputs twice succeeded")
    except urllib.error.HTTPError as error:
        print(f"double spend: HTTP {error.code} {error.read().decode()}")


if __name__ == "__main__":
    main()
