"""Redemption of valid coins: 0, 1 and 3 hops, shared ancestry, several issuers and assets,
replays, ownership, spent coins, expiry, the hop cap and collateral limits."""

import pytest

from chain import events
from conftest import DAY, NOW
from tender import MAX_AMOUNT, NATIVE, REDEEMED, Bundle


def paid(world, key, receipt, before, asset=NATIVE):
    """What `key` received in the transaction, its gas fee added back for the native coin."""
    after = world.balance(key, asset)
    fee = receipt.gasUsed * receipt.effectiveGasPrice if asset == NATIVE else 0
    return after - before + fee


def test_a_note_is_redeemed_by_its_owner(world):
    world.deposit(1_000)
    note = world.note(100, world.bob)
    before = world.balance(world.bob)
    outcome = world.redeem(world.bob, Bundle([note]), [world.coin(note)])
    assert outcome.coins == {world.coin(note): "redeemed"}
    assert paid(world, world.bob, outcome.receipt, before) == 100
    assert world.collateral() == 900
    assert world.consumed(world.coin(note)) == REDEEMED
    assert outcome.payouts == [
        {"redeemer": world.bob.address, "issuer": world.issuer.address, "asset": NATIVE, "amount": 100}
    ]


def test_a_one_hop_coin_records_its_input_and_pays_the_payee(world):
    world.deposit(1_000)
    note, pay, bundle = world.alice_pays_bob()
    before = world.balance(world.bob)
    outcome = world.redeem(world.bob, bundle, [world.coin(pay, 0)])
    assert outcome.coins == {world.coin(pay, 0): "redeemed"}
    assert paid(world, world.bob, outcome.receipt, before) == 60
    assert world.consumed(world.coin(note)) == pay.digest(world.domain)
    assert world.consumed(world.coin(pay, 1)) == b"\0" * 32  # Alice's change is hers to redeem
    assert world.collateral() == 940


def test_a_three_hop_coin(world):
    world.deposit(1_000)
    note = world.note(100, world.alice)
    first = world.transfer([world.coin(note)], [(world.carol, 70), (world.alice, 30)], world.alice)
    second = world.transfer([world.coin(first, 0)], [(world.dave, 50), (world.carol, 20)], world.carol)
    third = world.transfer([world.coin(second, 0)], [(world.bob, 45), (world.dave, 5)], world.dave)
    outcome = world.redeem(world.bob, Bundle([note], [first, second, third]), [world.coin(third, 0)])
    assert outcome.coins == {world.coin(third, 0): "redeemed"}
    spends = [(world.coin(note), first), (world.coin(first, 0), second), (world.coin(second, 0), third)]
    for spent, by in spends:
        assert world.consumed(spent) == by.digest(world.domain)
    assert events(world.vault, outcome.receipt, "Consumed") == [
        {"coin": spent, "transfer": by.digest(world.domain)} for spent, by in spends
    ]


def test_shared_ancestry_is_sent_once_and_pays_every_coin(world):
    world.deposit(1_000)
    note = world.note(100, world.alice)
    split = world.transfer([world.coin(note)], [(world.bob, 30), (world.alice, 70)], world.alice)
    again = world.transfer([world.coin(split, 1)], [(world.bob, 50), (world.alice, 20)], world.alice)
    outcome = world.redeem(world.bob, Bundle([note], [split, again]), [world.coin(split, 0), world.coin(again, 0)])
    assert set(outcome.coins.values()) == {"redeemed"} and len(outcome.coins) == 2
    assert [p["amount"] for p in outcome.payouts] == [80]  # one payout per issuer and asset


def test_a_transfer_may_merge_several_coins(world):
    world.deposit(1_000)
    notes = [world.note(40, world.alice), world.note(60, world.alice)]
    merge = world.transfer([world.coin(n) for n in notes], [(world.bob, 100)], world.alice)
    outcome = world.redeem(world.bob, Bundle(notes, [merge]), [world.coin(merge)])
    assert outcome.coins == {world.coin(merge): "redeemed"}
    assert all(world.consumed(world.coin(n)) == merge.digest(world.domain) for n in notes)


def test_several_issuers_and_assets_settle_in_one_batch(world):
    world.deposit(1_000)
    world.deposit(1_000, issuer=world.other_issuer)
    token = world.token.address
    world.deposit(5_000, asset=token)
    notes = [
        world.note(100, world.bob),
        world.note(200, world.bob, issuer=world.other_issuer),
        world.note(300, world.bob, asset=token),
        world.note(400, world.bob, asset=token),
    ]
    token_before = world.balance(world.bob, token)
    outcome = world.redeem(world.bob, Bundle(notes), [world.coin(n) for n in notes])
    assert set(outcome.coins.values()) == {"redeemed"}
    assert sorted((p["issuer"], p["asset"], p["amount"]) for p in outcome.payouts) == sorted([
        (world.issuer.address, NATIVE, 100),
        (world.other_issuer.address, NATIVE, 200),
        (world.issuer.address, token, 700),
    ])
    assert world.balance(world.bob, token) - token_before == 700
    assert world.collateral(asset=token) == 4_300
    assert world.collateral(world.other_issuer) == 800


def test_a_replay_pays_nothing_twice_and_the_same_transfer_again_is_fine(world):
    world.deposit(1_000)
    note, pay, bundle = world.alice_pays_bob()
    world.redeem(world.bob, bundle, [world.coin(pay, 0)])
    replay = world.redeem(world.bob, bundle, [world.coin(pay, 0)])
    assert replay.coins == {world.coin(pay, 0): "already-redeemed"}
    assert replay.payouts == []
    assert world.collateral() == 940
    # Alice's change comes with the same transfer, recorded already: no double spend.
    change = world.redeem(world.alice, bundle, [world.coin(pay, 1)])
    assert change.coins == {world.coin(pay, 1): "redeemed"}
    assert change.double_spends == []
    assert world.collateral() == 900


def test_only_the_owner_redeems_a_coin(world):
    world.deposit(1_000)
    note, pay, bundle = world.alice_pays_bob()
    outcome = world.redeem(world.carol, bundle, [world.coin(pay, 0), world.coin(pay, 1)])
    assert outcome.coins == {world.coin(pay, 0): "not-owner", world.coin(pay, 1): "not-owner"}
    assert world.collateral() == 1_000


def test_a_coin_spent_inside_the_batch_is_not_redeemed(world):
    world.deposit(1_000)
    note = world.note(100, world.bob)
    onward = world.transfer([world.coin(note)], [(world.carol, 100)], world.bob)
    outcome = world.redeem(world.bob, Bundle([note], [onward]), [world.coin(note)])
    assert outcome.coins == {world.coin(note): "spent"}


def test_a_coin_spent_by_an_earlier_batch_is_not_redeemed(world):
    world.deposit(1_000)
    note = world.note(100, world.bob)
    onward = world.transfer([world.coin(note)], [(world.carol, 100)], world.bob)
    world.redeem(world.carol, Bundle([note], [onward]), [world.coin(onward)])
    outcome = world.redeem(world.bob, Bundle([note]), [world.coin(note)])
    assert outcome.coins == {world.coin(note): "spent"}
    assert world.collateral() == 900


def test_expiry_is_the_earliest_note_and_ends_redemption(world):
    world.deposit(1_000)
    early = world.note(50, world.alice, expiry=NOW + 1_000)
    late = world.note(50, world.alice, expiry=NOW + DAY)
    merge = world.transfer([world.coin(early), world.coin(late)], [(world.bob, 100)], world.alice)
    bundle = Bundle([early, late], [merge])
    snapshot = world.chain.snapshot()
    world.chain.set_time(NOW + 999)
    assert world.redeem(world.bob, bundle, [world.coin(merge)]).coins == {world.coin(merge): "redeemed"}
    world.chain.revert(snapshot)
    world.chain.set_time(NOW + 1_000)  # `now < expiry`, as offline: at the expiry it is over
    assert world.redeem(world.bob, bundle, [world.coin(merge)]).coins == {world.coin(merge): "expired"}


def chain_of(world, hops):
    """A note of Alice's passed back and forth `hops` times, ending with Bob."""
    note = world.note(100, world.alice)
    coin, holder, transfers = world.coin(note), world.alice, []
    for hop in range(hops):
        receiver = world.bob if hop % 2 == 0 else world.alice
        item = world.transfer([coin], [(receiver, 100)], holder)
        transfers.append(item)
        coin, holder = world.coin(item), receiver
    return Bundle([note], transfers), coin, holder


def test_the_hop_cap_is_eight(world):
    world.deposit(1_000)
    bundle, coin, holder = chain_of(world, 8)
    assert world.redeem(holder, bundle, [coin]).coins == {coin: "redeemed"}
    bundle, coin, holder = chain_of(world, 9)
    assert world.redeem(holder, bundle, [coin]).coins == {coin: "hop-cap-exceeded"}


def test_coins_beyond_the_collateral_are_refused_and_the_rest_settles(world):
    world.deposit(250)
    notes = [world.note(100, world.bob) for _ in range(3)]
    outcome = world.redeem(world.bob, Bundle(notes), [world.coin(n) for n in notes])
    assert [outcome.coins[world.coin(n)] for n in notes] == ["redeemed", "redeemed", "insufficient-collateral"]
    assert world.collateral() == 50
    # Once the issuer adds collateral, the refused coin is redeemable.
    world.deposit(50)
    assert world.redeem(world.bob, Bundle(notes[2:]), [world.coin(notes[2])]).coins == {world.coin(notes[2]): "redeemed"}


def test_an_issuer_without_collateral_pays_nothing(world):
    note = world.note(100, world.bob, issuer=world.other_issuer)
    assert world.redeem(world.bob, Bundle([note]), [world.coin(note)]).coins == {world.coin(note): "insufficient-collateral"}


def test_the_largest_amount_is_redeemable(world):
    token = world.token.address
    world.deposit(MAX_AMOUNT, asset=token)
    note = world.note(MAX_AMOUNT, world.alice, asset=token)
    pay = world.transfer([world.coin(note)], [(world.bob, MAX_AMOUNT - 1), (world.alice, 1)], world.alice)
    outcome = world.redeem(world.bob, Bundle([note], [pay]), [world.coin(pay, 0)])
    assert outcome.coins == {world.coin(pay, 0): "redeemed"}
    assert world.balance(world.bob, token) == MAX_AMOUNT - 1


@pytest.mark.parametrize("count", [1, 2, 5])
def test_every_coin_of_a_batch_has_one_outcome_event(world, count):
    world.deposit(1_000)
    notes = [world.note(100, world.bob) for _ in range(count)] + [world.note(100, world.carol)]
    outcome = world.redeem(world.bob, Bundle(notes), [world.coin(n) for n in notes])
    assert len(outcome.coins) == count + 1
    assert list(outcome.coins.values()).count("redeemed") == count
