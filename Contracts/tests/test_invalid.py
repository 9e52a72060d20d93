"""Invalid bundles. Faults in what others signed refuse the coins that descend from them, and
the rest of the batch settles; faults in the encoding revert the whole batch
(Docs/VAULT.md, "What is refused where")."""

from dataclasses import replace

import pytest

from chain import Reverted, events
from tender import CURVE_ORDER, MAX_AMOUNT, Bundle, Domain, Note, Transfer, u16


def high_s(signature: bytes) -> bytes:
    """The other valid signature of the same digest: s -> n - s, parity flipped."""
    s = int.from_bytes(signature[32:64], "big")
    return signature[:32] + (CURVE_ORDER - s).to_bytes(32, "big") + bytes([55 - signature[64]])


def test_a_note_signed_by_someone_else_is_refused(world):
    world.deposit(1_000)
    forged = world.note(100, world.bob, signer=world.bob)
    good = world.note(100, world.bob)
    outcome = world.redeem(world.bob, Bundle([forged, good]), [world.coin(forged), world.coin(good)])
    assert outcome.coins == {world.coin(forged): "bad-note-signature", world.coin(good): "redeemed"}


def test_a_transfer_not_signed_by_the_owner_is_refused_with_its_descendants(world):
    world.deposit(1_000)
    note = world.note(100, world.alice)
    theft = world.transfer([world.coin(note)], [(world.bob, 100)], world.bob)
    onward = world.transfer([world.coin(theft)], [(world.carol, 100)], world.bob)
    outcome = world.redeem(world.carol, Bundle([note], [theft, onward]), [world.coin(onward)])
    assert outcome.coins == {world.coin(onward): "bad-transfer-signature"}
    assert world.consumed(world.coin(note)) == b"\0" * 32


def test_a_tampered_amount_breaks_the_signature(world):
    world.deposit(1_000)
    note, pay, bundle = world.alice_pays_bob()
    inflated = replace(pay, outputs=(replace(pay.outputs[0], amount=100), replace(pay.outputs[1], amount=0)))
    outcome = world.redeem(world.bob, Bundle([note], [inflated]), [world.coin(inflated, 0)])
    assert outcome.coins == {world.coin(inflated, 0): "bad-transfer-signature"}


@pytest.mark.parametrize("domain", ["chain", "vault"])
def test_a_note_signed_for_another_domain_is_refused(world, domain):
    world.deposit(1_000)
    other = Domain(1, world.vault.address) if domain == "chain" else Domain(world.domain.chain_id, world.token.address)
    note = world.note(100, world.bob)
    foreign = note.signed(world.issuer, other)
    outcome = world.redeem(world.bob, Bundle([foreign]), [world.coin(foreign)])
    assert outcome.coins == {world.coin(foreign): "bad-note-signature"}


@pytest.mark.parametrize("outputs, reason", [
    ([101], "conservation-broken"),
    ([99], "conservation-broken"),
    ([100, 0], "zero-amount"),
    ([MAX_AMOUNT, 1], "amount-overflow"),
])
def test_transfer_amount_rules(world, outputs, reason):
    world.deposit(1_000)
    note = world.note(100, world.alice)
    pay = world.transfer([world.coin(note)], [(world.bob, a) for a in outputs], world.alice)
    outcome = world.redeem(world.bob, Bundle([note], [pay]), [world.coin(pay, 0)])
    assert outcome.coins == {world.coin(pay, 0): reason}


def test_inputs_summing_past_the_largest_amount_overflow(world):
    notes = [world.note(MAX_AMOUNT, world.alice), world.note(1, world.alice)]
    pay = world.transfer([world.coin(n) for n in notes], [(world.bob, 1)], world.alice)
    outcome = world.redeem(world.bob, Bundle(notes, [pay]), [world.coin(pay)])
    assert outcome.coins == {world.coin(pay): "amount-overflow"}


def test_a_zero_note_is_refused(world):
    note = world.note(0, world.bob)
    assert world.redeem(world.bob, Bundle([note]), [world.coin(note)]).coins == {world.coin(note): "zero-amount"}


@pytest.mark.parametrize("mix", ["issuer", "asset", "owner"])
def test_a_transfer_mixing_issuers_assets_or_owners_is_refused(world, mix):
    world.deposit(1_000)
    first = world.note(50, world.alice)
    second = {
        "issuer": lambda: world.note(50, world.alice, issuer=world.other_issuer),
        "asset": lambda: world.note(50, world.alice, asset=world.token.address),
        "owner": lambda: world.note(50, world.carol),
    }[mix]()
    merge = world.transfer([world.coin(first), world.coin(second)], [(world.bob, 100)], world.alice)
    outcome = world.redeem(world.bob, Bundle([first, second], [merge]), [world.coin(merge)])
    assert outcome.coins == {world.coin(merge): "mixed-inputs"}


def test_an_input_listed_twice_is_refused(world):
    note = world.note(100, world.alice)
    twice = world.transfer([world.coin(note), world.coin(note)], [(world.bob, 200)], world.alice)
    outcome = world.redeem(world.bob, Bundle([note], [twice]), [world.coin(twice)])
    assert outcome.coins == {world.coin(twice): "duplicate-input"}


def test_a_transfer_without_inputs_is_refused(world):
    world.deposit(1_000)
    empty = world.transfer([], [(world.bob, 100)], world.bob)
    outcome = world.redeem(world.bob, Bundle([], [empty]), [world.coin(empty)])
    assert outcome.coins == {world.coin(empty): "empty-transfer"}


def test_a_zero_address_issuer_cannot_pass_with_an_unrecoverable_signature(world):
    # ecrecover answers the zero address when nothing recovers: it must not match.
    note = Note(b"\x07" * 32, "0x" + "00" * 20, "0x" + "00" * 20, 100, world.bob.address, 2**40, bytes(64) + b"\x1b")
    assert world.redeem(world.bob, Bundle([note]), [world.coin(note)]).coins == {world.coin(note): "bad-note-signature"}


@pytest.mark.parametrize("change, message", [
    (high_s, "high s"),
    (lambda s: s[:64] + b"\x00", "v must be 27 or 28"),
    (lambda s: s[:64] + b"\x01", "v must be 27 or 28"),
    (lambda s: s[:64] + b"\x1d", "v must be 27 or 28"),
    (lambda s: CURVE_ORDER.to_bytes(32, "big") + s[32:], "r is out of range"),
])
def test_a_signature_tender_would_not_write_reverts_the_batch(world, change, message):
    world.deposit(1_000)
    good = world.note(100, world.bob)
    odd = world.note(100, world.bob)
    odd = replace(odd, signature=change(odd.signature))
    with pytest.raises(Reverted, match=message):
        world.redeem(world.bob, Bundle([good, odd]), [world.coin(good), world.coin(odd)])


def test_a_transfer_signature_tender_would_not_write_reverts_the_batch(world):
    note = world.note(100, world.alice)
    pay = world.transfer([world.coin(note)], [(world.bob, 100)], world.alice)
    pay = replace(pay, signature=high_s(pay.signature))
    with pytest.raises(Reverted, match="high s"):
        world.redeem(world.bob, Bundle([note], [pay]), [world.coin(pay)])


def test_a_zero_r_recovers_nothing(world):
    note = world.note(100, world.bob)
    note = replace(note, signature=bytes(32) + note.signature[32:])
    assert world.redeem(world.bob, Bundle([note]), [world.coin(note)]).coins == {world.coin(note): "bad-note-signature"}


def redeem_raw(world, key, batch):
    return world.outcome(world.chain.redeem(world.vault, batch, key.address))


class TestMalformedBatches:
    """Encodings the redeemer's own software made wrong: the whole batch reverts."""

    def batch(self, world):
        world.deposit(1_000)
        note, pay, bundle = world.alice_pays_bob()
        return note, pay, bundle

    def test_the_valid_batch_redeems(self, world):
        note, pay, bundle = self.batch(world)
        assert redeem_raw(world, world.bob, bundle.batch([world.coin(pay)], world.domain)).coins == {world.coin(pay): "redeemed"}

    def test_truncated_or_extended(self, world):
        note, pay, bundle = self.batch(world)
        batch = bundle.batch([world.coin(pay)], world.domain)
        for wrong in (batch[:-1], batch + b"\0", batch[:-2], batch[:100]):
            with pytest.raises(Reverted):
                redeem_raw(world, world.bob, wrong)

    def test_an_input_the_batch_does_not_create_before_its_transfer(self, world):
        note, pay, _ = self.batch(world)
        with pytest.raises(Reverted, match="input is not a coin created earlier"):
            world.redeem(world.bob, Bundle([], [pay]), [world.coin(pay)])
        child = world.transfer([world.coin(pay)], [(world.carol, 60)], world.bob)
        with pytest.raises(Reverted, match="input is not a coin created earlier"):
            world.redeem(world.carol, Bundle([note], [child, pay]), [world.coin(child)])

    def test_a_coin_index_beyond_the_batch(self, world):
        note, pay, bundle = self.batch(world)
        batch = bundle.batch([world.coin(pay)], world.domain)
        with pytest.raises(Reverted, match="redeemed coin is not in the batch"):
            redeem_raw(world, world.bob, batch[:-2] + u16(3))

    def test_an_item_twice(self, world):
        note, pay, _ = self.batch(world)
        with pytest.raises(Reverted, match="appears twice"):
            world.redeem(world.bob, Bundle([note, note], [pay]), [world.coin(pay)])
        with pytest.raises(Reverted, match="appears twice"):
            world.redeem(world.bob, Bundle([note], [pay, pay]), [world.coin(pay)])

    def test_nothing_to_redeem(self, world):
        note, pay, bundle = self.batch(world)
        with pytest.raises(Reverted, match="nothing to redeem"):
            redeem_raw(world, world.bob, bundle.batch([], world.domain))

    def test_counts_above_the_caps(self, world):
        with pytest.raises(Reverted, match="batch too large"):
            redeem_raw(world, world.bob, u16(2049) + u16(0) + u16(1))
        with pytest.raises(Reverted, match="batch too large"):
            redeem_raw(world, world.bob, u16(0) + u16(2049) + u16(1))
        note = world.note(100, world.alice)
        wide = Transfer((world.coin(note),) * 33, ())
        many = Transfer((world.coin(note),), tuple(world.transfer([], [(world.bob, 1)] * 17, world.alice).outputs))
        for item in (wide, many):
            item = item.signed(world.alice, world.domain)
            with pytest.raises(Reverted, match="transfer too large"):
                world.redeem(world.bob, Bundle([note], [item]), [world.coin(note)])


def test_one_bad_item_does_not_block_the_rest(world):
    world.deposit(1_000)
    good_note = world.note(100, world.alice)
    good = world.transfer([world.coin(good_note)], [(world.bob, 100)], world.alice)
    bad_note = world.note(100, world.alice)
    bad = world.transfer([world.coin(bad_note)], [(world.bob, 150)], world.alice)
    outcome = world.redeem(world.bob, Bundle([good_note, bad_note], [good, bad]), [world.coin(good), world.coin(bad)])
    assert outcome.coins == {world.coin(good): "redeemed", world.coin(bad): "conservation-broken"}
    assert world.consumed(world.coin(bad_note)) == b"\0" * 32  # an invalid transfer records nothing
    assert [e["coin"] for e in events(world.vault, outcome.receipt, "Consumed")] == [world.coin(good_note)]
