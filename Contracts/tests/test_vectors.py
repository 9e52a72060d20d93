"""Every vector of Tests/Vectors/vault-bundles.json through the vault; the offline verifier runs
the same file in Tests/TenderTests/VaultVectorTests.swift."""

import json
import re
from pathlib import Path

import pytest

from chain import Reverted, events
from tender import Bundle, Domain, Note, Output, Transfer

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "Tests" / "Vectors" / "vault-bundles.json").read_text())


def note(item) -> Note:
    return Note(bytes.fromhex(item["serial"][2:]), item["issuer"], item["asset"], int(item["amount"]), item["owner"],
                item["expiry"], bytes.fromhex(item["signature"][2:]))


def transfer(item) -> Transfer:
    return Transfer(tuple(bytes.fromhex(i[2:]) for i in item["inputs"]),
                    tuple(Output(o["owner"], int(o["amount"])) for o in item["outputs"]),
                    bytes.fromhex(item["signature"][2:]))


def bundle(item) -> Bundle:
    return Bundle([note(n) for n in item["notes"]], [transfer(t) for t in item["transfers"]])


def coins(item) -> list[bytes]:
    return [bytes.fromhex(c[2:]) for c in item["coins"]]


def key_of(world, address):
    return next(k for k in (world.issuer, world.other_issuer, world.alice, world.bob, world.carol, world.dave)
                if k.address == address)


def test_the_vectors_are_for_this_vault(world):
    assert Domain(VECTORS["domain"]["chainId"], VECTORS["domain"]["vault"]) == world.domain
    assert VECTORS["token"] == world.token.address


@pytest.mark.parametrize("vector", VECTORS["bundles"], ids=lambda v: v["name"])
def test_bundle(world, vector):
    for deposit in vector["collateral"]:
        world.deposit(int(deposit["amount"]), key_of(world, deposit["issuer"]), deposit["asset"])
    world.chain.set_time(vector["now"] - 100)
    for earlier in vector["before"]:
        outcome = world.redeem(key_of(world, earlier["redeemer"]), bundle(earlier), coins(earlier))
        assert set(outcome.coins.values()) == {"redeemed"}
    world.chain.set_time(vector["now"])
    redeemer = key_of(world, vector["redeemer"])
    expected = vector["vault"]
    if "revert" in expected:
        with pytest.raises(Reverted, match=re.escape(expected["revert"])):
            world.redeem(redeemer, bundle(vector), coins(vector))
        return
    outcome = world.redeem(redeemer, bundle(vector), coins(vector))
    assert {"0x" + c.hex(): result for c, result in outcome.coins.items()} == expected["coins"]


@pytest.mark.parametrize("vector", VECTORS["evidence"], ids=lambda v: v["name"])
def test_evidence(world, vector):
    def args(item):
        t = transfer(item)
        return [list(t.inputs), [(o.owner, o.amount) for o in t.outputs], t.signature[:32], t.signature[32:64], t.signature[64]]

    call = world.vault.functions.submitFraudProof(bytes.fromhex(vector["coin"][2:]), args(vector["first"]), args(vector["second"]))
    if not vector["valid"]:
        with pytest.raises(Reverted, match=re.escape(vector["reason"])):
            world.chain.send(call, world.dave.address)
        return
    proven = events(world.vault, world.chain.send(call, world.dave.address), "FraudProven")
    digests = sorted(transfer(vector[k]).digest(world.domain) for k in ("first", "second"))
    assert proven == [{"coin": bytes.fromhex(vector["coin"][2:]), "first": digests[0], "second": digests[1],
                       "owner": vector["spender"]}]
