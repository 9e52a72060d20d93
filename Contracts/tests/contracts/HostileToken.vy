# pragma version ~=0.4.3
"""
@title Hostile token
@notice An ERC-20 that turns on the vault when told to, for the vault's tests only: it can be
        paused (every transfer reverts, as a paused or blacklisting token does), charge a fee
        on transfer (the receiver gets less than was sent), answer false instead of reverting,
        or burn the gas it is given. Anyone may mint and set the knobs.
"""

from ethereum.ercs import IERC20

implements: IERC20

event Transfer:
    sender: indexed(address)
    receiver: indexed(address)
    value: uint256


event Approval:
    owner: indexed(address)
    spender: indexed(address)
    value: uint256


balanceOf: public(HashMap[address, uint256])
allowance: public(HashMap[address, HashMap[address, uint256]])
totalSupply: public(uint256)

paused: public(bool)
# Basis points of every transfer kept back (burnt) from the receiver.
feeBasisPoints: public(uint256)
# Transfers answer false (and move nothing) instead of reverting.
answersFalse: public(bool)
# Transfers loop until they run out of gas.
burnsGas: public(bool)


@external
def mint(to: address, amount: uint256):
    self.totalSupply += amount
    self.balanceOf[to] += amount
    log Transfer(sender=empty(address), receiver=to, value=amount)


@external
def setPaused(paused: bool):
    self.paused = paused


@external
def setFee(basisPoints: uint256):
    self.feeBasisPoints = basisPoints


@external
def setAnswersFalse(answersFalse: bool):
    self.answersFalse = answersFalse


@external
def setBurnsGas(burnsGas: bool):
    self.burnsGas = burnsGas


@external
def transfer(receiver: address, amount: uint256) -> bool:
    return self._move(msg.sender, receiver, amount)


@external
def transferFrom(sender: address, receiver: address, amount: uint256) -> bool:
    self.allowance[sender][msg.sender] -= amount
    return self._move(sender, receiver, amount)


@external
def approve(spender: address, amount: uint256) -> bool:
    self.allowance[msg.sender][spender] = amount
    log Approval(owner=msg.sender, spender=spender, value=amount)
    return True


@internal
def _move(sender: address, receiver: address, amount: uint256) -> bool:
    assert not self.paused, "paused"
    if self.burnsGas:
        counter: uint256 = 0
        for _: uint256 in range(10**9):
            counter += 1
            self.totalSupply = counter
    if self.answersFalse:
        return False
    fee: uint256 = amount * self.feeBasisPoints // 10_000
    self.balanceOf[sender] -= amount
    self.balanceOf[receiver] += amount - fee
    self.totalSupply -= fee
    log Transfer(sender=sender, receiver=receiver, value=amount - fee)
    return True
