"""Gas of Contracts/Vault.vy's redeem, measured on the dev chain (Prague rules): per coin for
0, 1 and 3 hops, against batch size, and the largest batch under a 30,000,000 block gas limit.

    Rigs/dev-chain/.venv/bin/python Contracts/gas.py [--quick]

Per coin is the whole transaction's gas (21,000 base and calldata included) over the coins it
redeems; every batch is checked to redeem every coin. --quick skips the largest-batch runs."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "tests"))
from chain import Chain, events  # noqa: E402
from tender import NATIVE, Bundle, Key, Note, transfer  # noqa: E402

BLOCK_GAS_LIMIT = 30_000_000
ISSUER, ALICE, BOB, CAROL, DAVE = Key.of(1), Key.of(0xA), Key.of(0xB), Key.of(0xC), Key.of(0xD)


class Bench:
    def __init__(self):
        self.chain = Chain(gas_limit=BLOCK_GAS_LIMIT)
        self.vault = self.chain.deploy("Vault")
        self.domain = self.chain.domain(self.vault)
        for key in (ISSUER, ALICE, BOB, CAROL, DAVE):
            self.chain.account(key, wei=10**21)
        self.chain.send(self.vault.functions.deposit(NATIVE, 10**20), ISSUER.address, value=10**20)
        self.expiry = self.chain.now + 10**7
        self.serial = 0

    def note(self, amount: int, owner: Key) -> Note:
        self.serial += 1
        note = Note(self.serial.to_bytes(32, "big"), ISSUER.address, NATIVE, amount, owner.address, self.expiry)
        return note.signed(ISSUER, self.domain)

    def pay(self, inputs, outputs, key: Key):
        return transfer(inputs, [(k.address, a) for k, a in outputs], key, self.domain)

    # Shapes: each returns a bundle and the coins Bob redeems -----------------------------------
    def zero_hop(self, coins: int):
        notes = [self.note(100, BOB) for _ in range(coins)]
        return Bundle(notes), [n.coin(self.domain) for n in notes]

    def one_hop(self, coins: int, per_transfer: int):
        """Notes of Alice's, each spent by one transfer: `per_transfer` coins to Bob, and the
        change back to Alice when the transfer has room for it."""
        bundle, redeemed = Bundle(), []
        while len(redeemed) < coins:
            take = min(per_transfer, coins - len(redeemed))
            note = self.note(100, ALICE)
            outputs = [(BOB, 1)] * take + ([(ALICE, 100 - take)] if take < 16 else [])
            if take == 16:
                outputs[-1] = (BOB, 85)
            item = self.pay([note.coin(self.domain)], outputs, ALICE)
            bundle.notes.append(note)
            bundle.transfers.append(item)
            redeemed += item.coins(self.domain)[:take]
        return bundle, redeemed

    def three_hop(self, coins: int):
        bundle, redeemed = Bundle(), []
        for _ in range(coins):
            note = self.note(100, ALICE)
            first = self.pay([note.coin(self.domain)], [(CAROL, 70), (ALICE, 30)], ALICE)
            second = self.pay([first.coins(self.domain)[0]], [(DAVE, 50), (CAROL, 20)], CAROL)
            third = self.pay([second.coins(self.domain)[0]], [(BOB, 45), (DAVE, 5)], DAVE)
            bundle.notes.append(note)
            bundle.transfers += [first, second, third]
            redeemed.append(third.coins(self.domain)[0])
        return bundle, redeemed

    def gas(self, shape, coins: int) -> tuple[int, int]:
        """(gas used, calldata bytes) of redeeming `coins` coins of `shape`; every coin paid."""
        bundle, redeemed = shape(coins)
        batch = bundle.batch(redeemed, self.domain)
        snapshot = self.chain.snapshot()
        receipt = self.chain.redeem(self.vault, batch, BOB.address, gas=BLOCK_GAS_LIMIT)
        paid = events(self.vault, receipt, "CoinRedeemed")
        self.chain.revert(snapshot)
        assert len(paid) == coins, f"{len(paid)} of {coins} coins redeemed"
        return receipt.gasUsed, len(batch) + 4


def largest_batch(bench: Bench, shape, start: int, marginal: float) -> tuple[int, int, int]:
    """The most coins of `shape` one transaction redeems under the block gas limit: estimated
    from the marginal cost, then run: down while it fails, then up by halving steps."""
    base, _ = bench.gas(shape, start)
    coins = start + int((BLOCK_GAS_LIMIT - base) / marginal)
    while True:
        try:
            used, size = bench.gas(shape, coins)
            break
        except Exception:  # out of gas: a step smaller
            coins -= max(1, coins // 100)
    step = int((BLOCK_GAS_LIMIT - used) / (used / coins))
    while step > 0:
        try:
            used, size = bench.gas(shape, coins + step)
            coins += step
            step = int((BLOCK_GAS_LIMIT - used) / (used / coins))
        except Exception:  # too far: a smaller step
            step //= 2
    return coins, used, size


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="skip the largest-batch runs")
    options = parser.parse_args()
    started = time.perf_counter()
    bench = Bench()
    shapes = [
        ("0-hop: a note redeemed by its owner", bench.zero_hop),
        ("1-hop: note -> transfer -> 1 coin + change", lambda n: bench.one_hop(n, 1)),
        ("1-hop: note -> transfer -> 2 coins + change", lambda n: bench.one_hop(n, 2)),
        ("1-hop: note -> transfer -> 4 coins + change", lambda n: bench.one_hop(n, 4)),
        ("1-hop: note -> transfer -> 16 coins", lambda n: bench.one_hop(n, 16)),
        ("3-hop: note -> 3 transfers -> 1 coin", bench.three_hop),
    ]
    sizes = [1, 16, 64]
    print(f"Vault redeem gas (py-evm, Prague rules); per coin = transaction gas / coins redeemed")
    print(f"{'shape':46} " + " ".join(f"{f'{n} coins':>11}" for n in sizes) + f" {'marginal':>10}")
    marginal = {}
    for label, shape in shapes:
        figures = [bench.gas(shape, n)[0] for n in sizes]
        marginal[label] = (figures[-1] - figures[-2]) / (sizes[-1] - sizes[-2])
        print(f"{label:46} " + " ".join(f"{g // n:>11,}" for g, n in zip(figures, sizes)) + f" {marginal[label]:>10,.0f}")
    if not options.quick:
        print(f"\nLargest batch under a {BLOCK_GAS_LIMIT:,} gas block (found from the marginal cost, then run):")
        for label, shape in shapes:
            coins, used, size = largest_batch(bench, shape, sizes[-1], marginal[label])
            print(f"{label:46} {coins:>6,} coins  {used:>12,} gas  {used // coins:>7,} gas/coin  {size:>9,} calldata bytes")
    print(f"\n(measured in {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
