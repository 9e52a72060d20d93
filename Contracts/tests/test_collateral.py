"""Collateral: native and ERC-20 deposits, locks that only grow, withdrawals after them."""

import pytest

from chain import Reverted, events
from conftest import DAY, NOW
from tender import NATIVE, Bundle


def test_native_and_token_deposits_add_up(world):
    receipt = world.deposit(300)
    world.deposit(200)
    token = world.token.address
    world.deposit(1_000, asset=token)
    assert world.collateral() == 500
    assert world.collateral(asset=token) == 1_000
    assert world.token.functions.balanceOf(world.vault.address).call() == 1_000
    assert world.chain.balance(world.vault.address) == 500
    assert events(world.vault, receipt, "Deposited") == [
        {"issuer": world.issuer.address, "asset": NATIVE, "amount": 300, "collateral": 300}
    ]


@pytest.mark.parametrize("value, amount, message", [
    (5, 6, "msg.value must equal amount"),
    (0, 0, "nothing to deposit"),
])
def test_a_native_deposit_must_carry_its_amount(world, value, amount, message):
    with pytest.raises(Reverted, match=message):
        world.chain.send(world.vault.functions.deposit(NATIVE, amount), world.issuer.address, value=value)


def test_a_token_deposit_needs_the_tokens_and_no_native_coin(world):
    token = world.token.address
    with pytest.raises(Reverted):  # no allowance
        world.chain.send(world.vault.functions.deposit(token, 10), world.issuer.address)
    world.chain.send(world.token.functions.mint(world.issuer.address, 10), world.issuer.address)
    world.chain.send(world.token.functions.approve(world.vault.address, 10), world.issuer.address)
    with pytest.raises(Reverted, match="native coin sent with a token deposit"):
        world.chain.send(world.vault.functions.deposit(token, 10), world.issuer.address, value=1)
    assert world.collateral(asset=token) == 0


def test_a_token_must_be_a_contract(world):
    with pytest.raises(Reverted):  # else an address with no code could pose as collateral
        world.chain.send(world.vault.functions.deposit(world.alice.address, 10), world.issuer.address)
    assert world.collateral(asset=world.alice.address) == 0


def test_a_lock_is_extended_never_shortened(world):
    extend = world.vault.functions.extendLock
    receipt = world.chain.send(extend(NOW + DAY), world.issuer.address)
    assert events(world.vault, receipt, "LockExtended") == [{"issuer": world.issuer.address, "lockedUntil": NOW + DAY}]
    for shorter in (NOW + DAY, NOW + DAY - 1):
        with pytest.raises(Reverted, match="only be extended"):
            world.chain.send(extend(shorter), world.issuer.address)
    world.chain.send(extend(NOW + 2 * DAY), world.issuer.address)
    assert world.locked_until() == NOW + 2 * DAY


def test_collateral_is_withdrawn_only_after_the_lock(world):
    world.deposit(1_000)
    world.chain.send(world.vault.functions.extendLock(NOW + DAY), world.issuer.address)
    withdraw = world.vault.functions.withdraw
    with pytest.raises(Reverted, match="collateral is locked"):
        world.chain.send(withdraw(NATIVE, 1), world.issuer.address)
    world.chain.set_time(NOW + DAY)
    with pytest.raises(Reverted, match="exceeds collateral"):
        world.chain.send(withdraw(NATIVE, 1_001), world.issuer.address)
    before = world.balance(world.issuer)
    receipt = world.chain.send(withdraw(NATIVE, 600), world.issuer.address)
    assert world.balance(world.issuer) - before + receipt.gasUsed * receipt.effectiveGasPrice == 600
    assert world.collateral() == 400
    assert events(world.vault, receipt, "Withdrawn") == [
        {"issuer": world.issuer.address, "asset": NATIVE, "amount": 600, "collateral": 400}
    ]


def test_a_token_withdrawal(world):
    token = world.token.address
    world.deposit(1_000, asset=token)
    world.chain.send(world.vault.functions.withdraw(token, 1_000), world.issuer.address)
    assert world.balance(world.issuer, token) == 1_000
    assert world.collateral(asset=token) == 0


def test_redeeming_a_note_holds_the_issuer_to_its_expiry(world):
    world.deposit(1_000)
    world.chain.send(world.vault.functions.extendLock(NOW + 10), world.issuer.address)
    note, pay, bundle = world.alice_pays_bob(expiry=NOW + 3 * DAY)
    outcome = world.redeem(world.bob, bundle, [world.coin(pay, 0)])
    assert events(world.vault, outcome.receipt, "LockExtended") == [
        {"issuer": world.issuer.address, "lockedUntil": NOW + 3 * DAY}
    ]
    # Alice's change lives until the note's expiry: the issuer cannot leave before it.
    world.chain.set_time(NOW + 3 * DAY - 1)
    with pytest.raises(Reverted, match="collateral is locked"):
        world.chain.send(world.vault.functions.withdraw(NATIVE, 1), world.issuer.address)
    world.chain.set_time(NOW + 3 * DAY)
    world.chain.send(world.vault.functions.withdraw(NATIVE, 940), world.issuer.address)
    assert world.collateral() == 0


def test_only_the_issuer_withdraws_its_collateral(world):
    world.deposit(1_000)
    with pytest.raises(Reverted, match="exceeds collateral"):
        world.chain.send(world.vault.functions.withdraw(NATIVE, 1), world.bob.address)
    assert world.collateral() == 1_000
