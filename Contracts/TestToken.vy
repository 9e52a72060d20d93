# pragma version ~=0.4.3
"""
@title Test token
@notice A minimal ERC-20 for the vault's tests: anyone may mint. Never deploy it for value.
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


# What wallets read at sync to show amounts (2.50 TUSD); optional in ERC-20, so not in IERC20.
symbol: public(constant(String[8])) = "TUSD"
decimals: public(constant(uint8)) = 6

balanceOf: public(HashMap[address, uint256])
allowance: public(HashMap[address, HashMap[address, uint256]])
totalSupply: public(uint256)


@external
def mint(to: address, amount: uint256):
    """
    @notice Creates `amount` tokens for `to`.
    """
    self.totalSupply += amount
    self.balanceOf[to] += amount
    log Transfer(sender=empty(address), receiver=to, value=amount)


@external
def transfer(receiver: address, amount: uint256) -> bool:
    """
    @notice Moves `amount` of the caller's tokens to `receiver`.
    """
    self._move(msg.sender, receiver, amount)
    return True


@external
def transferFrom(sender: address, receiver: address, amount: uint256) -> bool:
    """
    @notice Moves `amount` of `sender`'s tokens to `receiver`, within the caller's allowance.
    """
    self.allowance[sender][msg.sender] -= amount
    self._move(sender, receiver, amount)
    return True


@external
def approve(spender: address, amount: uint256) -> bool:
    """
    @notice Lets `spender` move up to `amount` of the caller's tokens.
    """
    self.allowance[msg.sender][spender] = amount
    log Approval(owner=msg.sender, spender=spender, value=amount)
    return True


@internal
def _move(sender: address, receiver: address, amount: uint256):
    self.balanceOf[sender] -= amount
    self.balanceOf[receiver] += amount
    log Transfer(sender=sender, receiver=receiver, value=amount)
