"""Writes Tests/Vectors/vault-bundles.json: proof bundles with the verdict the vault
(Contracts/Vault.vy) and the offline verifier (Sources/Core/Tender/Verification) must each reach.

    Rigs/dev-chain/.venv/bin/python Tests/Vectors/vault_bundles.py [--check]

(--check: fail if the committed file is not what this script writes.)

Run by Contracts/tests/test_vectors.py (the vault) and Tests/TenderTests/VaultVectorTests.swift
(the offline verifier). Every expectation below is written by hand from Docs/PROTOCOL.md and
Docs/VAULT.md; nothing is computed by either implementation. Signatures are deterministic
(RFC 6979), so the file is the same on every run.

Each bundle vector has:
- `notes`, `transfers`: the bundle as JSON (what the vault's calldata is built from) and `cbor`:
  the same bundle in Tender's wire form (what the offline verifier decodes);
- `coins` to redeem by `redeemer` at time `now`, with `collateral` deposited first, and
  `calldata`: the `redeem()` call naming them (null when the bundle creates no such coin);
- `before`: batches redeemed on chain earlier (their transfers are also the node's seen-set);
  `seen`: a bundle of transfers only the node has seen (offline);
- `offline`: "ok" or the error code of decoding, `Verifier.verify`, or the redeem checks
  (each coin an unspent coin of the bundle, owned by the redeemer);
- `vault`: each coin's outcome, or the revert reason of the whole batch;
- `judged`: "both" (the two must agree: accept together, or refuse for the same reason),
  "vault" or "offline" (only that side can judge; `why` says why).
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Contracts" / "tests"))
from tender import CURVE_ORDER, MAX_AMOUNT, NATIVE, Bundle, Domain, Key, Note, Transfer, transfer  # noqa: E402

OUT = Path(__file__).resolve().parent / "vault-bundles.json"

# The node's defaults (Sources/Node/DevTools/NodeDefaults.swift) and the dev chain's: the vault is
# the first contract of dev account 0, the test token its second.
DOMAIN = Domain(31337, "0x5FbDB2315678afecb367f032d93F642f64180aa3")
TOKEN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"
NOW = 2_100_000_000
EXPIRY = NOW + 86_400
ISSUER, OTHER_ISSUER = Key.of(1), Key.of(2)
ALICE, BOB, CAROL, DAVE = Key.of(0xA), Key.of(0xB), Key.of(0xC), Key.of(0xD)
COLLATERAL = [(ISSUER, NATIVE, 10**18), (OTHER_ISSUER, NATIVE, 10**18), (ISSUER, TOKEN, MAX_AMOUNT)]

# How a batch the vault reverts corresponds to the offline verifier's refusal.
REVERTS = {
    "signature s is not canonical (high s)": "malformed",
    "signature v must be 27 or 28": "malformed",
    "signature r is out of range": "malformed",
    "transfer too large": "malformed",
    "input is not a coin created earlier in the batch": "unknown-input",
    "a note or transfer appears twice in the batch": {"duplicate-coin", "invalid-evidence"},
}


class Maker:
    def __init__(self):
        self.serial = 0

    def note(self, amount, owner: Key, issuer: Key = ISSUER, asset=NATIVE, expiry=EXPIRY, signer=None, domain=DOMAIN) -> Note:
        self.serial += 1
        note = Note(self.serial.to_bytes(32, "big"), issuer.address, asset, amount, owner.address, expiry)
        return note.signed(signer or issuer, domain)

    @staticmethod
    def transfer(inputs, outputs, key: Key, domain=DOMAIN) -> Transfer:
        return transfer([coin(i) for i in inputs], [(k.address, a) for k, a in outputs], key, domain)


def coin(item, index=0) -> bytes:
    if isinstance(item, bytes):
        return item
    return item.coin(DOMAIN) if isinstance(item, Note) else item.coins(DOMAIN)[index]


def with_signature(item, change):
    return replace(item, signature=change(item.signature))


def high_s(signature: bytes) -> bytes:
    s = int.from_bytes(signature[32:64], "big")
    return signature[:32] + (CURVE_ORDER - s).to_bytes(32, "big") + bytes([55 - signature[64]])


def hexed(data: bytes) -> str:
    return "0x" + data.hex()


def note_json(n: Note) -> dict:
    return {"serial": hexed(n.serial), "issuer": n.issuer, "asset": n.asset, "amount": str(n.amount),
            "owner": n.owner, "expiry": n.expiry, "signature": hexed(n.signature)}


def transfer_json(t: Transfer) -> dict:
    return {"inputs": [hexed(i) for i in t.inputs],
            "outputs": [{"owner": o.owner, "amount": str(o.amount)} for o in t.outputs],
            "signature": hexed(t.signature)}


def bundle_json(bundle: Bundle) -> dict:
    return {"notes": [note_json(n) for n in bundle.notes], "transfers": [transfer_json(t) for t in bundle.transfers],
            "cbor": hexed(bundle.cbor())}


VECTORS: list[dict] = []


def vector(name, description, notes, transfers, coins, redeemer: Key, offline, vault, judged="both",
           before=(), seen=(), collateral=COLLATERAL, why=None):
    """`vault`: a list of outcomes, one per coin, or {"revert": reason}."""
    bundle = Bundle(list(notes), list(transfers))
    entry = {
        "name": name, "description": description, "now": NOW, "redeemer": redeemer.address,
        "collateral": [{"issuer": k.address, "asset": a, "amount": str(v)} for k, a, v in collateral],
        "before": [dict(bundle_json(b), redeemer=r.address, coins=[hexed(coin(c)) for c in cs]) for b, cs, r in before],
        "seen": bundle_json(Bundle([], list(seen))),
        **bundle_json(bundle),
        "coins": [hexed(coin(c)) for c in coins],
        "calldata": calldata(bundle, coins),
        "offline": offline,
        "vault": vault if isinstance(vault, dict) else {"coins": dict(zip([hexed(coin(c)) for c in coins], vault))},
        "judged": judged,
    }
    if why:
        entry["why"] = why
    check_agreement(entry)
    VECTORS.append(entry)


def calldata(bundle: Bundle, coins) -> str | None:
    """redeem()'s calldata for the coins (Docs/VAULT.md, "Calldata"), or None when a coin is
    not created by the bundle at all (no batch can name it)."""
    try:
        return hexed(bytes.fromhex("be040fb0") + bundle.batch([coin(c) for c in coins], DOMAIN))
    except ValueError:
        return None


def check_agreement(entry):
    """The rule the file states: vectors both sides judge get the same verdict and reason."""
    vault = entry["vault"]
    if "revert" in vault:
        accepted, reasons = False, REVERTS[vault["revert"]]
        reasons = reasons if isinstance(reasons, set) else {reasons}
    else:
        outcomes = set(vault["coins"].values())
        accepted, reasons = outcomes == {"redeemed"}, outcomes - {"redeemed"}
    if entry["judged"] == "both":
        assert accepted == (entry["offline"] == "ok"), entry["name"]
        assert accepted or entry["offline"] in reasons, entry["name"]
    else:
        assert accepted != (entry["offline"] == "ok") and entry.get("why"), entry["name"]


def bundles():
    m = Maker()
    t = m.transfer

    n = m.note(100, BOB)
    vector("zero-hop", "a note redeemed by its owner", [n], [], [n], BOB, "ok", ["redeemed"])

    n = m.note(100, ALICE)
    pay = t([n], [(BOB, 60), (ALICE, 40)], ALICE)
    vector("one-hop", "Alice pays Bob 60 of a 100 note; Bob redeems", [n], [pay], [coin(pay, 0)], BOB, "ok", ["redeemed"])

    n = m.note(100, ALICE)
    a = t([n], [(CAROL, 70), (ALICE, 30)], ALICE)
    b = t([coin(a, 0)], [(DAVE, 50), (CAROL, 20)], CAROL)
    c = t([coin(b, 0)], [(BOB, 45), (DAVE, 5)], DAVE)
    vector("three-hop", "a note through three transfers to Bob", [n], [a, b, c], [coin(c, 0)], BOB, "ok", ["redeemed"])

    n = m.note(100, ALICE)
    a = t([n], [(BOB, 30), (ALICE, 70)], ALICE)
    b = t([coin(a, 1)], [(BOB, 50), (ALICE, 20)], ALICE)
    vector("shared-ancestry", "two of Bob's coins share a note and a transfer, sent once",
           [n], [a, b], [coin(a, 0), coin(b, 0)], BOB, "ok", ["redeemed", "redeemed"])

    n1, n2 = m.note(40, ALICE), m.note(60, ALICE)
    merge = t([n1, n2], [(BOB, 100)], ALICE)
    vector("merge", "a transfer of two coins of one owner, issuer and asset", [n1, n2], [merge], [merge], BOB, "ok", ["redeemed"])

    notes = [m.note(100, BOB), m.note(200, BOB, issuer=OTHER_ISSUER), m.note(300, BOB, asset=TOKEN)]
    vector("issuers-and-assets", "coins of two issuers and two assets in one batch", notes, [], notes, BOB, "ok", ["redeemed"] * 3)

    def chain_of(hops, note):
        items, current, holder = [], note, ALICE
        for hop in range(hops):
            receiver = BOB if hop % 2 == 0 else ALICE
            items.append(t([current], [(receiver, 100)], holder))
            current, holder = items[-1], receiver
        return items, holder

    n = m.note(100, ALICE)
    items, holder = chain_of(8, n)
    vector("eight-hops", "a coin eight transfers from its note: the cap", [n], items, [items[-1]], holder, "ok", ["redeemed"])

    n = m.note(MAX_AMOUNT, ALICE, asset=TOKEN)
    pay = t([n], [(BOB, MAX_AMOUNT - 1), (ALICE, 1)], ALICE)
    vector("largest-amount", "2^128 - 1 (a CBOR bignum)", [n], [pay], [coin(pay, 0)], BOB, "ok", ["redeemed"])

    n = m.note(100, ALICE)
    pay = t([n], [(BOB, 60), (ALICE, 40)], ALICE)
    vector("same-transfer-again", "Bob redeemed his coin; Alice redeems her change of the same transfer",
           [n], [pay], [coin(pay, 1)], ALICE, "ok", ["redeemed"], before=[(Bundle([n], [pay]), [coin(pay, 0)], BOB)])

    # Refused by both, coin by coin on chain.
    n = m.note(100, BOB, signer=BOB)
    vector("note-signed-by-another", "Bob signs a note naming the issuer", [n], [], [n], BOB, "bad-note-signature", ["bad-note-signature"])

    for name, domain in (("wrong-chain-id", Domain(1, DOMAIN.vault)), ("wrong-vault", Domain(DOMAIN.chain_id, TOKEN))):
        n = m.note(100, BOB, domain=domain)
        vector(name, f"a note signed for another domain ({name.split('-')[1]})", [n], [], [n], BOB,
               "bad-note-signature", ["bad-note-signature"])

    n = m.note(100, ALICE)
    theft = t([n], [(BOB, 100)], BOB)
    vector("transfer-signed-by-another", "Bob signs Alice's coin over to himself", [n], [theft], [theft], BOB,
           "bad-transfer-signature", ["bad-transfer-signature"])

    n = m.note(100, ALICE)
    pay = t([n], [(BOB, 60), (ALICE, 40)], ALICE)
    inflated = replace(pay, outputs=(replace(pay.outputs[0], amount=90), replace(pay.outputs[1], amount=10)))
    vector("tampered-amount", "an output changed after signing", [n], [inflated], [coin(inflated, 0)], BOB,
           "bad-transfer-signature", ["bad-transfer-signature"])

    for name, outputs, reason in (
        ("outputs-exceed-inputs", [(BOB, 101)], "conservation-broken"),
        ("outputs-below-inputs", [(BOB, 99)], "conservation-broken"),
        ("zero-output", [(BOB, 100), (ALICE, 0)], "zero-amount"),
        ("outputs-overflow", [(BOB, MAX_AMOUNT), (ALICE, 1)], "amount-overflow"),
    ):
        n = m.note(100, ALICE)
        item = t([n], outputs, ALICE)
        vector(name, f"transfer rule: {reason}", [n], [item], [coin(item, 0)], BOB, reason, [reason])

    n1, n2 = m.note(MAX_AMOUNT, ALICE, asset=TOKEN), m.note(1, ALICE, asset=TOKEN)
    item = t([n1, n2], [(BOB, 1)], ALICE)
    vector("inputs-overflow", "inputs summing past 2^128 - 1", [n1, n2], [item], [item], BOB, "amount-overflow", ["amount-overflow"])

    n = m.note(0, BOB)
    vector("zero-note", "a note of nothing", [n], [], [n], BOB, "zero-amount", ["zero-amount"])

    for name, second in (
        ("mixed-issuers", lambda: m.note(50, ALICE, issuer=OTHER_ISSUER)),
        ("mixed-assets", lambda: m.note(50, ALICE, asset=TOKEN)),
        ("mixed-owners", lambda: m.note(50, CAROL)),
    ):
        n1, n2 = m.note(50, ALICE), second()
        item = t([n1, n2], [(BOB, 100)], ALICE)
        vector(name, "one transfer, inputs of different " + name.split("-")[1], [n1, n2], [item], [item], BOB,
               "mixed-inputs", ["mixed-inputs"])

    n = m.note(100, ALICE)
    item = t([n, n], [(BOB, 200)], ALICE)
    vector("input-twice", "a transfer lists one coin twice", [n], [item], [item], BOB, "duplicate-input", ["duplicate-input"])

    item = t([], [(BOB, 100)], BOB)
    vector("no-inputs", "a transfer from nothing", [], [item], [item], BOB, "empty-transfer", ["empty-transfer"])

    n = m.note(100, ALICE)
    items, holder = chain_of(9, n)
    vector("nine-hops", "one hop past the cap", [n], items, [items[-1]], holder, "hop-cap-exceeded", ["hop-cap-exceeded"])

    for name, expiry in (("expired", NOW - 1), ("expires-now", NOW)):
        n = m.note(100, ALICE, expiry=expiry)
        pay = t([n], [(BOB, 100)], ALICE)
        vector(name, "a coin is redeemable while now < expiry", [n], [pay], [pay], BOB, "expired", ["expired"])

    n = m.note(100, ALICE)
    first = t([n], [(BOB, 100)], ALICE)
    second = t([n], [(BOB, 60), (ALICE, 40)], ALICE)
    vector("double-spend-in-bundle", "Alice spends one coin twice, both to Bob: the first branch settles on chain",
           [n], [first, second], [first, coin(second, 0)], BOB, "double-spend", ["redeemed", "double-spend"])

    n = m.note(100, ALICE)
    first = t([n], [(CAROL, 100)], ALICE)
    second = t([n], [(BOB, 100)], ALICE)
    vector("double-spend-against-earlier", "Carol redeemed the first spend; Bob brings the second",
           [n], [second], [second], BOB, "double-spend", ["double-spend"], before=[(Bundle([n], [first]), [first], CAROL)])

    n = m.note(100, BOB)
    n = replace(n, signature=bytes(32) + n.signature[32:])
    vector("unrecoverable-signature", "r = 0: nothing recovers", [n], [], [n], BOB, "bad-note-signature", ["bad-note-signature"])

    n = m.note(100, ALICE)
    pay = t([n], [(BOB, 60), (ALICE, 40)], ALICE)
    vector("not-the-owner", "Carol asks for Bob's coin", [n], [pay], [coin(pay, 0)], CAROL, "not-owner", ["not-owner"])

    n = m.note(100, BOB)
    onward = t([n], [(CAROL, 100)], BOB)
    vector("spent-in-bundle", "Bob asks for a coin the bundle shows he spent", [n], [onward], [n], BOB, "spent", ["spent"])

    # Refused as malformed: the whole batch reverts; the offline verifier refuses to decode.
    for name, target, change, revert in (
        ("high-s-note", "note", high_s, "signature s is not canonical (high s)"),
        ("high-s-transfer", "transfer", high_s, "signature s is not canonical (high s)"),
        ("v-zero", "note", lambda s: s[:64] + b"\x00", "signature v must be 27 or 28"),
        ("v-29", "note", lambda s: s[:64] + b"\x1d", "signature v must be 27 or 28"),
        ("r-not-below-order", "note", lambda s: CURVE_ORDER.to_bytes(32, "big") + s[32:], "signature r is out of range"),
    ):
        n = m.note(100, ALICE)
        pay = t([n], [(BOB, 100)], ALICE)
        if target == "note":
            n = with_signature(n, change)
            pay = t([n], [(BOB, 100)], ALICE)
        else:
            pay = with_signature(pay, change)
        vector(name, f"a {target} signature Tender never writes", [n], [pay], [pay], BOB, "malformed", {"revert": revert})

    n = m.note(100, BOB)
    vector("note-twice", "the same note twice in one bundle", [n, n], [], [n], BOB, "duplicate-coin",
           {"revert": "a note or transfer appears twice in the batch"})

    n = m.note(100, ALICE)
    pay = t([n], [(BOB, 100)], ALICE)
    vector("transfer-twice", "the same transfer twice in one bundle (offline: a 'double spend' whose evidence is one transfer)",
           [n], [pay, pay], [pay], BOB, "invalid-evidence", {"revert": "a note or transfer appears twice in the batch"})

    n = m.note(100, ALICE)
    pay = t([n], [(BOB, 100)], ALICE)
    vector("input-not-in-bundle", "the note a transfer spends is missing", [], [pay], [pay], BOB, "unknown-input",
           {"revert": "input is not a coin created earlier in the batch"})

    n = m.note(100, ALICE)
    a = t([n], [(CAROL, 100)], ALICE)
    b = t([a], [(BOB, 100)], CAROL)
    vector("child-before-parent", "transfers out of order", [n], [b, a], [b], BOB, "unknown-input",
           {"revert": "input is not a coin created earlier in the batch"})

    n = m.note(100, ALICE)
    wide = t([n], [(BOB, 1)] * 16 + [(ALICE, 84)], ALICE)
    vector("seventeen-outputs", "one output past the cap of 16", [n], [wide], [n], ALICE, "malformed",
           {"revert": "transfer too large"})

    notes = [m.note(1, ALICE) for _ in range(33)]
    wide = t(notes, [(BOB, 33)], ALICE)
    vector("thirty-three-inputs", "one input past the cap of 32", notes, [wide], [wide], BOB, "malformed",
           {"revert": "transfer too large"})

    # Only the vault can judge: it knows the chain.
    n = m.note(100, BOB)
    vector("already-redeemed", "the same coin again", [n], [], [n], BOB, "ok", ["already-redeemed"], judged="vault",
           before=[(Bundle([n]), [n], BOB)], why="redemptions are recorded on chain; a node's seen-set holds transfers")

    n = m.note(100, BOB, issuer=DAVE)
    vector("no-collateral", "an issuer that deposited nothing", [n], [], [n], BOB, "ok", ["insufficient-collateral"],
           judged="vault", why="collateral is on chain (offline, the issuer policy decides whom to trust)")

    n = m.note(100, ALICE)
    later = t([n], [(BOB, 100)], ALICE)
    vector("spent-after-redemption", "Alice redeemed her note, then spent it to Bob", [n], [later], [later], BOB, "ok",
           ["double-spend"], judged="vault", before=[(Bundle([n]), [n], ALICE)],
           why="the seen-set holds transfers, not redemptions: only the chain knows the note was redeemed")

    n = m.note(100, BOB)
    onward = t([n], [(CAROL, 100)], BOB)
    vector("redeemed-after-spent", "Carol redeemed Bob's spend; Bob then asks for the note itself", [n], [], [n], BOB, "ok",
           ["spent"], judged="vault", before=[(Bundle([n], [onward]), [onward], CAROL)],
           why="the offline verifier checks a bundle's transfers against the seen-set, not its unspent coins")

    # Only the node can judge.
    n = m.note(100, ALICE)
    first = t([n], [(CAROL, 100)], ALICE)
    second = t([n], [(BOB, 100)], ALICE)
    vector("double-spend-seen-offline", "the node saw the first spend in a payment; the chain never did",
           [n], [second], [second], BOB, "double-spend", ["redeemed"], judged="offline", seen=[first],
           why="the seen-set is offline: a spend the chain never saw is not on chain")

    stale, fresh = m.note(100, BOB, expiry=NOW - 10), m.note(100, BOB)
    vector("expired-coin-not-asked-for", "the bundle holds an expired coin Bob does not redeem", [stale, fresh], [], [fresh],
           BOB, "expired", ["redeemed"], judged="offline",
           why="the offline verifier judges every unspent coin of a bundle; the vault, the coins asked for")


def evidence():
    m = Maker()
    n = m.note(100, ALICE)
    a = m.transfer([n], [(BOB, 100)], ALICE)
    b = m.transfer([n], [(CAROL, 60), (ALICE, 40)], ALICE)
    low, high = sorted([a, b], key=lambda x: x.digest(DOMAIN))
    other = m.transfer([n], [(CAROL, 100)], CAROL)
    unrelated = m.transfer([m.note(5, ALICE)], [(CAROL, 5)], ALICE)
    broken = replace(b, signature=bytes(64) + b"\x1b")
    cases = [
        ("digest-order", low, high, None),
        ("reverse-order", high, low, None),
        ("same-transfer", a, a, "both transfers are the same transfer"),
        ("different-signers", a, other, "the transfers have different signers"),
        ("coin-not-spent-by-both", a, unrelated, "a transfer does not consume the coin"),
        ("unrecoverable-signature", broken, a, "a signature does not recover"),
    ]
    return [
        {"name": name, "coin": hexed(coin(n)), "first": transfer_json(x), "second": transfer_json(y),
         "cbor": hexed(Bundle([], [x, y]).cbor()), "valid": reason is None, "reason": reason,
         "spender": ALICE.address if reason is None else None}
        for name, x, y, reason in cases
    ]


def main():
    bundles()
    document = {
        "about": __doc__.split("\n\n")[0].replace("\n", " "),
        "generator": "Tests/Vectors/vault_bundles.py",
        "domain": {"chainId": DOMAIN.chain_id, "vault": DOMAIN.vault},
        "token": TOKEN,
        "reverts": {k: sorted(v) if isinstance(v, set) else v for k, v in REVERTS.items()},
        "bundles": VECTORS,
        "evidence": evidence(),
    }
    text = json.dumps(document, indent=1) + "\n"
    summary = f"{OUT.relative_to(ROOT)}: {len(VECTORS)} bundles, {len(document['evidence'])} evidence pairs"
    if "--check" in sys.argv[1:]:
        if not OUT.exists() or OUT.read_text() != text:
            sys.exit(f"{summary}: out of date; run {document['generator']} and commit the result")
        print(f"{summary}: up to date")
        return
    OUT.write_text(text)
    print(summary)


if __name__ == "__main__":
    main()
