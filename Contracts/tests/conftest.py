"""Fixtures: one in-process dev chain per test session with the vault (deployed first, at the
node's default address) and a test token, reverted to a snapshot around every test."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import pytest

from chain import Chain, Reverted, events
from tender import NATIVE, REASONS, Bundle, Key, Note, transfer

# Chain time at the start of every test; notes live a day from it unless told otherwise.
NOW = 2_000_000_000
DAY = 86_400


@dataclass
class Outcome:
    """What one redeem did, read from its receipt."""
    receipt: object
    coins: dict = field(default_factory=dict)  # coin id -> "redeemed" or a reason name
    double_spends: list = field(default_factory=list)
    payouts: list = field(default_factory=list)


class World:
    """The chain, the contracts and the people of the tests."""

    def __init__(self):
        self.chain = Chain()
        self.vault = self.chain.deploy("Vault")
        self.token = self.chain.deploy("TestToken")
        self.domain = self.chain.domain(self.vault)
        self.issuer, self.other_issuer = Key.of(1), Key.of(2)
        self.alice, self.bob, self.carol, self.dave = Key.of(0xA), Key.of(0xB), Key.of(0xC), Key.of(0xD)
        for key in (self.issuer, self.other_issuer, self.alice, self.bob, self.carol, self.dave):
            self.chain.account(key)
        self.chain.set_time(NOW)
        self.serials = itertools.count(1)

    # Notes and transfers -------------------------------------------------------------------
    def note(self, amount, owner: Key, issuer: Key | None = None, asset=NATIVE, expiry=None, signer=None) -> Note:
        issuer = issuer or self.issuer
        note = Note(next(self.serials).to_bytes(32, "big"), issuer.address, asset, amount, owner.address,
                    NOW + DAY if expiry is None else expiry)
        return note.signed(signer or issuer, self.domain)

    def transfer(self, inputs, outputs, key: Key):
        return transfer(inputs, [(k.address, a) for k, a in outputs], key, self.domain)

    def alice_pays_bob(self, expiry=None):
        """Alice holds a note of 100 and pays Bob 60 of it, 40 back to her as change."""
        note = self.note(100, self.alice, expiry=expiry)
        pay = self.transfer([self.coin(note)], [(self.bob, 60), (self.alice, 40)], self.alice)
        return note, pay, Bundle([note], [pay])

    def coin(self, item, index=0) -> bytes:
        return item.coin(self.domain) if isinstance(item, Note) else item.coins(self.domain)[index]

    # Transactions ---------------------------------------------------------------------------
    def deposit(self, amount, issuer: Key | None = None, asset=NATIVE):
        issuer = issuer or self.issuer
        if asset == NATIVE:
            return self.chain.send(self.vault.functions.deposit(asset, amount), issuer.address, value=amount)
        self.chain.send(self.token.functions.mint(issuer.address, amount), issuer.address)
        self.chain.send(self.token.functions.approve(self.vault.address, amount), issuer.address)
        return self.chain.send(self.vault.functions.deposit(asset, amount), issuer.address)

    def redeem(self, redeemer: Key, bundle: Bundle, coins: list[bytes]) -> Outcome:
        return self.outcome(self.chain.redeem(self.vault, bundle.batch(coins, self.domain), redeemer.address))

    def outcome(self, receipt) -> Outcome:
        if receipt.status != 1:
            raise Reverted("redeem reverted")
        result = Outcome(receipt)
        for event in events(self.vault, receipt, "CoinRedeemed"):
            result.coins[event["coin"]] = "redeemed"
        for event in events(self.vault, receipt, "CoinRejected"):
            result.coins[event["coin"]] = REASONS[event["reason"]]
        result.double_spends = events(self.vault, receipt, "DoubleSpend")
        result.payouts = events(self.vault, receipt, "Payout")
        return result

    # State -----------------------------------------------------------------------------------
    def collateral(self, issuer: Key | None = None, asset=NATIVE) -> int:
        return self.vault.functions.collateral((issuer or self.issuer).address, asset).call()

    def locked_until(self, issuer: Key | None = None) -> int:
        return self.vault.functions.lockedUntil((issuer or self.issuer).address).call()

    def consumed(self, coin: bytes) -> bytes:
        return self.vault.functions.consumed(coin).call()

    def balance(self, key: Key, asset=NATIVE) -> int:
        if asset == NATIVE:
            return self.chain.balance(key.address)
        return self.token.functions.balanceOf(key.address).call()


@pytest.fixture(scope="session")
def session_world():
    return World()


@pytest.fixture
def world(session_world):
    snapshot = session_world.chain.snapshot()
    yield session_world
    session_world.chain.revert(snapshot)
