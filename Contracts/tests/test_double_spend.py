"""Double spends: inside a batch, across batches, after a redemption; and fraud proofs."""

import pytest

from chain import Reverted, events
from tender import REDEEMED, Bundle, evidence_args


def two_spends(world):
    """Alice spends one coin twice: once to Bob, once to Carol."""
    note = world.note(100, world.alice)
    to_bob = world.transfer([world.coin(note)], [(world.bob, 100)], world.alice)
    to_carol = world.transfer([world.coin(note)], [(world.carol, 60), (world.alice, 40)], world.alice)
    return note, to_bob, to_carol


def test_a_double_spend_inside_a_batch_is_refused_with_evidence_and_the_rest_settles(world):
    world.deposit(1_000)
    note, first, second = two_spends(world)
    # Carol holds a coin of each branch (Bob paid her onward) and one unrelated note.
    onward = world.transfer([world.coin(first)], [(world.carol, 100)], world.bob)
    other = world.note(10, world.carol)
    outcome = world.redeem(
        world.carol, Bundle([note, other], [first, second, onward]),
        [world.coin(onward), world.coin(second, 0), world.coin(other)],
    )
    assert outcome.coins == {
        world.coin(onward): "redeemed",
        world.coin(second, 0): "double-spend",
        world.coin(other): "redeemed",
    }
    assert outcome.double_spends == [{
        "coin": world.coin(note),
        "recorded": first.digest(world.domain),
        "presented": second.digest(world.domain),
        "owner": world.alice.address,
    }]
    assert world.consumed(world.coin(note)) == first.digest(world.domain)
    assert world.collateral() == 890


def test_a_double_spend_against_an_earlier_batch(world):
    world.deposit(1_000)
    note, first, second = two_spends(world)
    world.redeem(world.bob, Bundle([note], [first]), [world.coin(first)])
    outcome = world.redeem(world.carol, Bundle([note], [second]), [world.coin(second, 0)])
    assert outcome.coins == {world.coin(second, 0): "double-spend"}
    assert [(e["recorded"], e["presented"], e["owner"]) for e in outcome.double_spends] == [
        (first.digest(world.domain), second.digest(world.domain), world.alice.address)
    ]
    assert outcome.payouts == []


def test_spending_a_redeemed_coin_is_a_double_spend(world):
    world.deposit(1_000)
    note = world.note(100, world.alice)
    world.redeem(world.alice, Bundle([note]), [world.coin(note)])
    later = world.transfer([world.coin(note)], [(world.bob, 100)], world.alice)
    outcome = world.redeem(world.bob, Bundle([note], [later]), [world.coin(later)])
    assert outcome.coins == {world.coin(later): "double-spend"}
    assert [(e["recorded"], e["presented"]) for e in outcome.double_spends] == [(REDEEMED, later.digest(world.domain))]
    assert world.collateral() == 900


def test_a_transfer_that_is_not_validly_signed_is_no_evidence(world):
    world.deposit(1_000)
    note, first, _ = two_spends(world)
    world.redeem(world.bob, Bundle([note], [first]), [world.coin(first)])
    forged = world.transfer([world.coin(note)], [(world.carol, 100)], world.carol)
    outcome = world.redeem(world.carol, Bundle([note], [forged]), [world.coin(forged)])
    assert outcome.coins == {world.coin(forged): "bad-transfer-signature"}
    assert outcome.double_spends == []


class TestFraudProof:
    def submit(self, world, coin, a, b, sender=None):
        call = world.vault.functions.submitFraudProof(coin, evidence_args(a), evidence_args(b))
        return world.chain.send(call, (sender or world.dave).address)

    def test_two_spends_by_the_owner_are_recorded_in_digest_order(self, world):
        world.deposit(1_000)
        note, a, b = two_spends(world)
        receipt = self.submit(world, world.coin(note), b, a)
        digests = sorted([a.digest(world.domain), b.digest(world.domain)])
        assert events(world.vault, receipt, "FraudProven") == [
            {"coin": world.coin(note), "first": digests[0], "second": digests[1], "owner": world.alice.address}
        ]
        assert world.vault.functions.doubleSpentBy(world.coin(note), world.alice.address).call()
        # The issuer owes the coin once: nothing moves, and the first branch redeemed is paid.
        assert world.collateral() == 1_000
        assert world.consumed(world.coin(note)) == b"\0" * 32
        assert world.redeem(world.bob, Bundle([note], [a]), [world.coin(a)]).coins == {world.coin(a): "redeemed"}

    def test_the_same_fraud_is_recorded_once(self, world):
        note, a, b = two_spends(world)
        self.submit(world, world.coin(note), a, b)
        with pytest.raises(Reverted, match="already proven for this coin and signer"):
            self.submit(world, world.coin(note), b, a)

    def test_the_same_transfer_twice_is_no_fraud(self, world):
        note, a, _ = two_spends(world)
        with pytest.raises(Reverted, match="same transfer"):
            self.submit(world, world.coin(note), a, a)

    def test_transfers_by_different_signers_are_no_fraud(self, world):
        note, a, _ = two_spends(world)
        other = world.transfer([world.coin(note)], [(world.carol, 100)], world.carol)
        with pytest.raises(Reverted, match="different signers"):
            self.submit(world, world.coin(note), a, other)

    def test_both_transfers_must_consume_the_coin(self, world):
        note, a, b = two_spends(world)
        unrelated = world.note(5, world.alice)
        c = world.transfer([world.coin(unrelated)], [(world.carol, 5)], world.alice)
        with pytest.raises(Reverted, match="does not consume the coin"):
            self.submit(world, world.coin(note), a, c)
        with pytest.raises(Reverted, match="does not consume the coin"):
            self.submit(world, world.coin(unrelated), a, b)

    def test_an_unrecoverable_signature_is_no_fraud(self, world):
        note, a, b = two_spends(world)
        from dataclasses import replace
        broken = replace(a, signature=bytes(64) + b"\x1b")
        with pytest.raises(Reverted, match="does not recover"):
            self.submit(world, world.coin(note), broken, replace(b, signature=bytes(64) + b"\x1c"))
