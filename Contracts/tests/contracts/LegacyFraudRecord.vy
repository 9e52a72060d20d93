# pragma version ~=0.4.3
"""
@title Legacy fraud record
@notice The fraud-proof record of vaults deployed before `doubleSpentBy`: one signer per coin,
        the first proof's (`doubleSpender`). For the node's tests only: anyone may set it.
"""

doubleSpender: public(HashMap[bytes32, address])


@external
def record(coin: bytes32, signer: address):
    self.doubleSpender[coin] = signer
