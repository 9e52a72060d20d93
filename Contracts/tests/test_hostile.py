"""What a stranger or a hostile token can do to the vault (issue: trust at the edges): each test
reproduces an attack first found against a deployed vault, then checks it fails."""

import pytest

from chain import Reverted, events
from tender import NATIVE, Bundle, evidence_args


@pytest.fixture
def hostile(world):
    """A token whose transfers can be paused, taxed, made to answer false or to burn gas."""
    return world.chain.deploy("tests/contracts/HostileToken")


def deposit(world, token, amount, issuer=None):
    issuer = issuer or world.issuer
    world.chain.send(token.functions.mint(issuer.address, amount), issuer.address)
    world.chain.send(token.functions.approve(world.vault.address, amount), issuer.address)
    return world.chain.send(world.vault.functions.deposit(token.address, amount), issuer.address)


def submit(world, coin, a, b, sender):
    call = world.vault.functions.submitFraudProof(coin, evidence_args(a), evidence_args(b))
    return world.chain.send(call, sender.address)


class TestFraudProofDecoy:
    """A stranger signs two 'spends' of a coin it does not own, to be on record first."""

    def test_a_strangers_proof_neither_blocks_nor_stands_for_the_owners(self, world):
        note = world.note(100, world.alice)
        coin = world.coin(note)
        decoy = [world.transfer([coin], [(world.dave, 100)], world.dave),
                 world.transfer([coin], [(world.carol, 100)], world.dave)]
        submit(world, coin, *decoy, world.dave)
        # The record names the signer only: nothing is said of the owner.
        assert world.vault.functions.doubleSpentBy(coin, world.dave.address).call()
        assert not world.vault.functions.doubleSpentBy(coin, world.alice.address).call()
        # The owner's genuine double spend is still recorded, by anyone.
        genuine = [world.transfer([coin], [(world.bob, 100)], world.alice),
                   world.transfer([coin], [(world.carol, 100)], world.alice)]
        receipt = submit(world, coin, *genuine, world.bob)
        assert [e["owner"] for e in events(world.vault, receipt, "FraudProven")] == [world.alice.address]
        assert world.vault.functions.doubleSpentBy(coin, world.alice.address).call()

    def test_a_proof_of_a_coin_that_does_not_exist_records_only_its_signer(self, world):
        coin = b"\x42" * 32
        decoy = [world.transfer([coin], [(world.dave, 1)], world.dave),
                 world.transfer([coin], [(world.carol, 1)], world.dave)]
        submit(world, coin, *decoy, world.dave)
        assert world.vault.functions.doubleSpentBy(coin, world.dave.address).call()
        assert not world.vault.functions.doubleSpentBy(coin, world.alice.address).call()

    def test_the_owners_record_is_made_once(self, world):
        note = world.note(100, world.alice)
        coin = world.coin(note)
        a = world.transfer([coin], [(world.bob, 100)], world.alice)
        b = world.transfer([coin], [(world.carol, 100)], world.alice)
        submit(world, coin, a, b, world.bob)
        with pytest.raises(Reverted, match="already proven for this coin and signer"):
            submit(world, coin, b, a, world.carol)


class TestATokenThatRefusesItsPayout:
    """A paused (or blacklisting, or false-answering, or gas-burning) token in a batch."""

    def batch(self, world, hostile):
        deposit(world, hostile, 1_000)
        world.deposit(1_000, issuer=world.other_issuer)
        honest = world.note(300, world.bob, issuer=world.other_issuer)
        poisoned = world.note(200, world.bob, asset=hostile.address)
        return honest, poisoned

    @pytest.mark.parametrize("knob", ["setPaused", "setAnswersFalse", "setBurnsGas"])
    def test_the_honest_coins_settle_and_the_refused_payout_is_owed(self, world, hostile, knob):
        honest, poisoned = self.batch(world, hostile)
        world.chain.send(getattr(hostile.functions, knob)(True), world.dave.address)
        before = world.balance(world.bob)
        outcome = world.redeem(world.bob, Bundle([honest, poisoned]), [world.coin(honest), world.coin(poisoned)])
        assert outcome.coins == {world.coin(honest): "redeemed", world.coin(poisoned): "redeemed"}
        gas = outcome.receipt.gasUsed * outcome.receipt.effectiveGasPrice
        assert world.balance(world.bob) - before == 300 - gas
        assert events(world.vault, outcome.receipt, "PayoutDeferred") == [
            {"redeemer": world.bob.address, "asset": hostile.address, "amount": 200, "owed": 200}
        ]
        assert world.vault.functions.owed(world.bob.address, hostile.address).call() == 200
        # The coin is paid for: the issuer's collateral is debited once, never again.
        assert world.collateral(asset=hostile.address) == 800
        again = world.redeem(world.bob, Bundle([poisoned]), [world.coin(poisoned)])
        assert again.coins == {world.coin(poisoned): "already-redeemed"}

        # While the token refuses, claiming reverts and changes nothing; then it pays.
        with pytest.raises(Reverted):
            world.chain.send(world.vault.functions.claim(hostile.address), world.bob.address)
        assert world.vault.functions.owed(world.bob.address, hostile.address).call() == 200
        world.chain.send(getattr(hostile.functions, knob)(False), world.dave.address)
        receipt = world.chain.send(world.vault.functions.claim(hostile.address), world.bob.address)
        assert events(world.vault, receipt, "Claimed") == [
            {"redeemer": world.bob.address, "asset": hostile.address, "amount": 200}
        ]
        assert hostile.functions.balanceOf(world.bob.address).call() == 200
        assert world.vault.functions.owed(world.bob.address, hostile.address).call() == 0
        with pytest.raises(Reverted, match="nothing is owed"):
            world.chain.send(world.vault.functions.claim(hostile.address), world.bob.address)

    def test_a_willing_token_is_paid_at_once(self, world, hostile):
        _, poisoned = self.batch(world, hostile)
        outcome = world.redeem(world.bob, Bundle([poisoned]), [world.coin(poisoned)])
        assert events(world.vault, outcome.receipt, "PayoutDeferred") == []
        assert hostile.functions.balanceOf(world.bob.address).call() == 200


class TestFeeOnTransfer:
    """A token that delivers less than it is asked to: one issuer's withdrawal would be paid
    from another's collateral."""

    def test_a_taxed_deposit_is_refused(self, world, hostile):
        world.chain.send(hostile.functions.setFee(100), world.dave.address)
        with pytest.raises(Reverted, match="fee on transfer"):
            deposit(world, hostile, 1_000)
        assert world.collateral(asset=hostile.address) == 0
        assert hostile.functions.balanceOf(world.vault.address).call() == 0

    def test_collateral_always_matches_what_the_vault_holds(self, world, hostile):
        deposit(world, hostile, 1_000)
        deposit(world, hostile, 500, issuer=world.other_issuer)
        world.chain.send(hostile.functions.setFee(100), world.dave.address)
        with pytest.raises(Reverted, match="fee on transfer"):
            deposit(world, hostile, 1_000, issuer=world.other_issuer)
        held = hostile.functions.balanceOf(world.vault.address).call()
        assert held == world.collateral(asset=hostile.address) + world.collateral(world.other_issuer, hostile.address)
