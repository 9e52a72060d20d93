# pragma version ~=0.4.3
# pragma optimize gas
"""
@title Tender vault
@notice Holds issuers' collateral and redeems Tender coins on chain: each coin's proof (the
        notes and transfers it descends from) is verified here exactly as a node verifies it
        offline (Docs/PROTOCOL.md §2-4), and its owner is paid from its issuer's collateral.
@dev    The rules, the calldata layout, the events, the reason codes and the gas figures are in
        Docs/VAULT.md. In short:
        - Signatures are EIP-712 over the domain {name "Tender", version "1", chainId, this
          vault}; v must be 27 or 28, s in the lower half of the curve order, r below it.
        - A batch lists its notes and transfers once each (shared ancestry is sent and verified
          once), parents first. Every coin a batch creates gets an index in creation order: the
          notes' coins first, then each transfer's outputs. Transfer inputs and redeemed coins
          name coins by that index; coin ids are computed here, never sent.
        - consumed[coin] is the transfer digest that spent the coin on chain (event Consumed),
          or REDEEMED. The same digest again is fine; another one is a double spend: the coins
          descending from the second transfer are refused, the evidence is logged (DoubleSpend)
          and the rest of the batch settles.
        - Faults in what others signed refuse the coins that descend from them (CoinRejected
          with a reason code); faults in the encoding, which the redeemer made, revert the batch.
        - A coin is redeemable while block.timestamp < its expiry; redeeming it extends its
          issuer's lock to that expiry. Issuers withdraw only after their lock.
        - One payout per issuer and asset per batch, after every state change. A token that
          refuses its payout (paused, blacklisting, out of gas) does not revert the batch: the
          amount is owed to the redeemer (PayoutDeferred), who claims it later.
        - A fraud proof records its signer against the coin (doubleSpentBy[coin][signer]): a
          stranger's proof of a coin it does not own neither blocks nor stands for the owner's.
"""

from ethereum.ercs import IERC20

# The protocol's EIP-712 types (Docs/PROTOCOL.md §2).
DOMAIN_TYPEHASH: constant(bytes32) = keccak256(
    "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"
)
NOTE_TYPEHASH: constant(bytes32) = keccak256(
    "Note(bytes32 serial,address issuer,address asset,uint128 amount,address owner,uint64 expiry)"
)
TRANSFER_TYPEHASH: constant(bytes32) = keccak256(
    "Transfer(bytes32[] inputs,Output[] outputs)Output(address owner,uint128 amount)"
)
OUTPUT_TYPEHASH: constant(bytes32) = keccak256("Output(address owner,uint128 amount)")

# The protocol's caps on a coin and a transfer (Docs/PROTOCOL.md §3-4).
MAX_HOPS: constant(uint256) = 8
MAX_INPUTS: constant(uint256) = 32
MAX_OUTPUTS: constant(uint256) = 16
# A batch merges many bundles, so the offline verifier's caps on one bundle (256 notes, 512
# transfers) do not apply: these bounds are far above what a block's gas allows, and keep
# every coin index within 16 bits.
MAX_NOTES: constant(uint256) = 2048
MAX_TRANSFERS: constant(uint256) = 2048
# Every coin a batch can create: one per note, sixteen per transfer.
MAX_COINS: constant(uint256) = MAX_NOTES + MAX_TRANSFERS * MAX_OUTPUTS

MAX_AMOUNT: constant(uint256) = 2**128 - 1
# secp256k1's group order n and n / 2.
CURVE_ORDER: constant(uint256) = (
    115792089237316195423570985008687907852837564279074904382605163141518161494337
)
HALF_CURVE_ORDER: constant(uint256) = (
    57896044618658097711785492504343953926418782139537452191302581570759080747168
)
# consumed[coin] for a coin the vault paid out. No EIP-712 digest is all ones but with
# negligible probability.
REDEEMED: constant(bytes32) = (
    0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF
)

# Why a coin was refused (CoinRejected.reason). The names are the offline verifier's error
# codes where it has one (Docs/VAULT.md, "Reason codes").
OK: constant(uint8) = 0
ZERO_AMOUNT: constant(uint8) = 1
BAD_NOTE_SIGNATURE: constant(uint8) = 2
BAD_TRANSFER_SIGNATURE: constant(uint8) = 3
EMPTY_TRANSFER: constant(uint8) = 4
DUPLICATE_INPUT: constant(uint8) = 5
MIXED_INPUTS: constant(uint8) = 6
DOUBLE_SPEND: constant(uint8) = 7
AMOUNT_OVERFLOW: constant(uint8) = 8
CONSERVATION_BROKEN: constant(uint8) = 9
HOP_CAP_EXCEEDED: constant(uint8) = 10
EXPIRED: constant(uint8) = 11
NOT_OWNER: constant(uint8) = 12
SPENT: constant(uint8) = 13
ALREADY_REDEEMED: constant(uint8) = 14
INSUFFICIENT_COLLATERAL: constant(uint8) = 15

# The packed batch (Docs/VAULT.md, "Calldata"): a 6-byte header, 181-byte notes, transfers of
# 3 + 2 × inputs + 36 × outputs + 64 bytes, 2-byte coin indexes.
HEADER_SIZE: constant(uint256) = 6
NOTE_SIZE: constant(uint256) = 181

# Gas a token's payout may use: enough for any ERC-20 transfer seen (about 30,000 to 65,000),
# little enough that a token burning what it gets leaves the batch its other payouts.
TOKEN_PAYOUT_GAS: constant(uint256) = 150_000

# Bit positions of a coin's packed record (see _pack).
EXPIRY_SHIFT: constant(uint256) = 128
DEPTH_SHIFT: constant(uint256) = 192
REASON_SHIFT: constant(uint256) = 200
GROUP_SHIFT: constant(uint256) = 208
EXPIRY_MASK: constant(uint256) = 2**64 - 1
BYTE_MASK: constant(uint256) = 255
# 16 bits: the header's counts, coin indexes, a group's index in its tag (see _group).
U16_MASK: constant(uint256) = 2**16 - 1


struct Output:
    owner: address
    amount: uint128


struct TransferEvidence:
    # Coin ids, as signed.
    inputs: DynArray[bytes32, MAX_INPUTS]
    outputs: DynArray[Output, MAX_OUTPUTS]
    r: bytes32
    s: bytes32
    v: uint8


event Deposited:
    issuer: indexed(address)
    asset: indexed(address)
    amount: uint256
    collateral: uint256


event Withdrawn:
    issuer: indexed(address)
    asset: indexed(address)
    amount: uint256
    collateral: uint256


event LockExtended:
    issuer: indexed(address)
    lockedUntil: uint256


# consumed[coin] was set to `transfer`: a valid transfer of the batch spent the coin.
event Consumed:
    coin: indexed(bytes32)
    transfer: bytes32


event CoinRedeemed:
    coin: indexed(bytes32)
    amount: uint256


event CoinRejected:
    coin: indexed(bytes32)
    reason: uint8


event Payout:
    redeemer: indexed(address)
    issuer: indexed(address)
    asset: indexed(address)
    amount: uint256


# A transfer that spends a coin already consumed on chain by another transfer (`recorded`), or
# already redeemed (`recorded` = REDEEMED), signed by the coin's owner.
event DoubleSpend:
    coin: indexed(bytes32)
    recorded: bytes32
    presented: bytes32
    owner: indexed(address)


# A token payout the token refused: `amount` is owed to `redeemer` (claim), `owed` in all.
event PayoutDeferred:
    redeemer: indexed(address)
    asset: indexed(address)
    amount: uint256
    owed: uint256


event Claimed:
    redeemer: indexed(address)
    asset: indexed(address)
    amount: uint256


event FraudProven:
    coin: indexed(bytes32)
    first: bytes32
    second: bytes32
    owner: indexed(address)


DOMAIN_SEPARATOR: public(immutable(bytes32))

# issuer => asset (the zero address for the native coin) => collateral not yet paid out.
collateral: public(HashMap[address, HashMap[address, uint256]])
# issuer => Unix time before which its collateral cannot be withdrawn.
lockedUntil: public(HashMap[address, uint256])
# coin => the transfer digest that spent it on chain, or REDEEMED.
consumed: public(HashMap[bytes32, bytes32])
# coin => signer => the signer is proven (submitFraudProof) to have signed two different spends
# of the coin. Whether the signer owned the coin is the reader's to check, from the coin's
# provenance: a record under any other signer says nothing about the owner.
doubleSpentBy: public(HashMap[bytes32, HashMap[address, bool]])
# redeemer => asset => payouts a token refused (PayoutDeferred), paid by claim(asset).
owed: public(HashMap[address, HashMap[address, uint256]])

# Working tables of one redeem call, by coin index and group index (an issuer and asset). A
# call reads only entries it wrote; the keyed ones hold the call's batchNonce, so that a second
# call in the same transaction never sees the first's.
batchNonce: transient(uint256)
coinIds: transient(bytes32[MAX_COINS])
coinOwners: transient(address[MAX_COINS])
coinRecords: transient(uint256[MAX_COINS])
itemSeen: transient(HashMap[bytes32, uint256])
groupTags: transient(HashMap[address, HashMap[address, uint256]])
groupIssuers: transient(address[MAX_NOTES])
groupAssets: transient(address[MAX_NOTES])
groupAvailable: transient(uint256[MAX_NOTES])
groupPaid: transient(uint256[MAX_NOTES])
groupLockTo: transient(uint256[MAX_NOTES])


@deploy
def __init__():
    DOMAIN_SEPARATOR = keccak256(
        abi_encode(DOMAIN_TYPEHASH, keccak256("Tender"), keccak256("1"), chain.id, self)
    )


@external
@payable
@nonreentrant
def deposit(asset: address, amount: uint256):
    """
    @notice Adds collateral for the caller's notes in `asset`.
    @param asset The token contract, or the zero address for the native coin (then
           msg.value must equal `amount`). A token deposit whose balance here grows by other
           than `amount` (a fee on transfer) is refused; rebasing tokens are not supported.
    @param amount Base units of `asset`; the vault pulls tokens with transferFrom.
    """
    assert amount > 0, "nothing to deposit"
    if asset == empty(address):
        assert msg.value == amount, "msg.value must equal amount"
    else:
        assert msg.value == 0, "native coin sent with a token deposit"
    balance: uint256 = self.collateral[msg.sender][asset] + amount
    self.collateral[msg.sender][asset] = balance
    log Deposited(issuer=msg.sender, asset=asset, amount=amount, collateral=balance)
    if asset != empty(address):
        held: uint256 = staticcall IERC20(asset).balanceOf(self)
        assert extcall IERC20(asset).transferFrom(
            msg.sender, self, amount, default_return_value=True
        ), "token transfer failed"
        # A token that delivers other than it was asked (a fee on transfer) would make one
        # issuer's collateral pay another's coins.
        assert staticcall IERC20(asset).balanceOf(self) == held + amount, "the token delivered other than the amount (fee on transfer): not supported"


@external
@nonreentrant
def extendLock(until: uint256):
    """
    @notice Locks the caller's collateral until `until` (Unix seconds). A lock is extended,
            never shortened. Lock it past the expiry of every note issued.
    @param until The new end of the lock, later than the current one.
    """
    assert until > self.lockedUntil[msg.sender], "a lock can only be extended"
    self.lockedUntil[msg.sender] = until
    log LockExtended(issuer=msg.sender, lockedUntil=until)


@external
@nonreentrant
def withdraw(asset: address, amount: uint256):
    """
    @notice Pays the caller back collateral its notes no longer need: only once the lock has
            ended (it lasts at least until the expiry of every coin the vault has redeemed).
    @param asset The token contract, or the zero address for the native coin.
    @param amount Base units to withdraw, at most the remaining collateral.
    """
    assert block.timestamp >= self.lockedUntil[msg.sender], "collateral is locked"
    balance: uint256 = self.collateral[msg.sender][asset]
    assert amount > 0 and amount <= balance, "amount exceeds collateral"
    balance -= amount
    self.collateral[msg.sender][asset] = balance
    log Withdrawn(issuer=msg.sender, asset=asset, amount=amount, collateral=balance)
    self._pay(asset, msg.sender, amount)


@external
@nonreentrant
def claim(asset: address):
    """
    @notice Pays the caller what redeems owed it in `asset` and could not pay (the token
            refused the payout: PayoutDeferred). Reverts while the token still refuses.
    @param asset The token contract.
    """
    amount: uint256 = self.owed[msg.sender][asset]
    assert amount > 0, "nothing is owed"
    self.owed[msg.sender][asset] = 0
    log Claimed(redeemer=msg.sender, asset=asset, amount=amount)
    self._pay(asset, msg.sender, amount)


@external
@nonreentrant
def redeem():
    """
    @notice Redeems a batch of coins for the caller, their owner. The calldata is this
            function's selector followed by the packed batch (Docs/VAULT.md, "Calldata"): a
            header, every note and transfer the coins descend from (once each, parents
            first) and the indexes of the coins to redeem. Each coin is paid (CoinRedeemed)
            or refused with a reason (CoinRejected); a double spend is refused with its
            evidence (DoubleSpend) and the rest of the batch settles.
    @dev    The batch is read from msg.data: Vyper would copy a declared `bytes` argument into
            memory sized for the largest batch, which costs millions of gas.
    """
    header: uint256 = convert(slice(msg.data, 4, HEADER_SIZE), uint256)
    noteCount: uint256 = header >> 32
    transferCount: uint256 = (header >> 16) & U16_MASK
    coinCount: uint256 = header & U16_MASK
    assert noteCount <= MAX_NOTES and transferCount <= MAX_TRANSFERS, "batch too large"
    assert coinCount > 0, "nothing to redeem"
    nonce: uint256 = self.batchNonce + 1
    self.batchNonce = nonce
    position: uint256 = 4 + HEADER_SIZE
    groups: uint256 = 0
    for index: uint256 in range(noteCount, bound=MAX_NOTES):
        groups = self._applyNote(slice(msg.data, position, NOTE_SIZE), index, nonce, groups)
        position += NOTE_SIZE
    created: uint256 = noteCount
    for _: uint256 in range(transferCount, bound=MAX_TRANSFERS):
        created, position = self._applyTransfer(position, created, nonce)
    for _: uint256 in range(coinCount, bound=MAX_COINS):
        self._redeemCoin(convert(slice(msg.data, position, 2), uint256), created)
        position += 2
    assert position == len(msg.data), "batch length does not match its header"
    self._settle(groups)


@external
@nonreentrant
def submitFraudProof(coin: bytes32, first: TransferEvidence, second: TransferEvidence):
    """
    @notice Records that one key signed two different transfers spending `coin`, under that
            key (doubleSpentBy): a proof by a key that does not own the coin records only
            that key, and blocks no one's. Collateral is untouched: the issuer owes the coin once, to whichever branch is
            redeemed first (Docs/VAULT.md, "Fraud proofs").
    @param coin The coin spent twice.
    @param first One transfer consuming `coin`, as signed (input coin ids, outputs, r, s, v).
    @param second Another transfer consuming `coin`, in either order.
    """
    a: bytes32 = self._transferDigest(first.inputs, first.outputs)
    b: bytes32 = self._transferDigest(second.inputs, second.outputs)
    assert a != b, "both transfers are the same transfer"
    assert coin in first.inputs and coin in second.inputs, "a transfer does not consume the coin"
    spender: address = self._signer(a, first.v, first.r, first.s)
    assert spender != empty(address), "a signature does not recover"
    assert spender == self._signer(b, second.v, second.r, second.s), "the transfers have different signers"
    assert not self.doubleSpentBy[coin][spender], "fraud already proven for this coin and signer"
    self.doubleSpentBy[coin][spender] = True
    if convert(a, uint256) < convert(b, uint256):
        log FraudProven(coin=coin, first=a, second=b, owner=spender)
    else:
        log FraudProven(coin=coin, first=b, second=a, owner=spender)


@internal
def _applyNote(note: Bytes[NOTE_SIZE], index: uint256, nonce: uint256, groups: uint256) -> uint256:
    """
    @dev Verifies one packed note (amount, then the issuer's signature) and adds its coin to
         the coin table at `index`; returns the new group count.
    """
    head: uint256 = extract32(note, 0, output_type=uint256)
    amount: uint256 = (head >> 56) & MAX_AMOUNT
    expiry: uint256 = (head >> 184) & EXPIRY_MASK
    issuer: address = self._address(extract32(note, 25, output_type=uint256))
    asset: address = self._address(extract32(note, 45, output_type=uint256))
    owner: address = self._address(extract32(note, 65, output_type=uint256))
    digest: bytes32 = self._digest(
        keccak256(
            abi_encode(
                NOTE_TYPEHASH, extract32(note, 85), issuer, asset, amount, owner, expiry
            )
        )
    )
    self._once(digest, nonce)
    reason: uint8 = OK
    group: uint256 = 0
    count: uint256 = groups
    if amount == 0:
        reason = ZERO_AMOUNT
    elif not self._signedBy(
        issuer, digest, convert(head >> 248, uint8), extract32(note, 117), extract32(note, 149)
    ):
        reason = BAD_NOTE_SIGNATURE
    else:
        group, count = self._group(issuer, asset, nonce, groups)
    self._addCoin(index, self._coinId(digest, 0), owner, self._pack(amount, expiry, 0, reason, group))
    return count


@internal
def _applyTransfer(start: uint256, created: uint256, nonce: uint256) -> (uint256, uint256):
    """
    @dev Verifies the packed transfer at calldata offset `start` (Docs/PROTOCOL.md §3, in the
         offline verifier's order), records its inputs as consumed when it is valid, and adds
         its outputs to the coin table, carrying the reason of the first fault when it is not.
         Returns the new coin count and the offset after the transfer. Every read stays
         within a well-formed batch (a slice past the end of calldata reverts).
    """
    head: uint256 = convert(slice(msg.data, start, 3), uint256)
    inputCount: uint256 = (head >> 8) & BYTE_MASK
    outputCount: uint256 = head & BYTE_MASK
    assert inputCount <= MAX_INPUTS and outputCount <= MAX_OUTPUTS, "transfer too large"
    reason: uint8 = OK
    if inputCount == 0 or outputCount == 0:
        reason = EMPTY_TRANSFER

    # Inputs: indexes of coins created earlier in the batch, 16 bits each, in two words.
    inputs: Bytes[2 * MAX_INPUTS] = slice(msg.data, start + 3, 2 * MAX_INPUTS)
    words: uint256[2] = [extract32(inputs, 0, output_type=uint256), extract32(inputs, 32, output_type=uint256)]
    refs: DynArray[uint256, MAX_INPUTS] = []
    ids: DynArray[bytes32, MAX_INPUTS] = []
    owner: address = empty(address)
    group: uint256 = 0
    expiry: uint256 = EXPIRY_MASK
    depth: uint256 = 0
    inputSum: uint256 = 0
    for position: uint256 in range(inputCount, bound=MAX_INPUTS):
        ref: uint256 = (words[position // 16] >> (240 - 16 * (position % 16))) & U16_MASK
        assert ref < created, "input is not a coin created earlier in the batch"
        ids.append(self.coinIds[ref])
        if ref in refs and reason == OK:
            reason = DUPLICATE_INPUT
        refs.append(ref)
        if reason != OK:
            continue
        record: uint256 = self.coinRecords[ref]
        inherited: uint8 = convert((record >> REASON_SHIFT) & BYTE_MASK, uint8)
        if inherited != OK:
            reason = inherited
            continue
        if position == 0:
            owner = self.coinOwners[ref]
            group = record >> GROUP_SHIFT
        elif self.coinOwners[ref] != owner or record >> GROUP_SHIFT != group:
            reason = MIXED_INPUTS
        inputSum += record & MAX_AMOUNT
        expiry = min(expiry, (record >> EXPIRY_SHIFT) & EXPIRY_MASK)
        depth = max(depth, (record >> DEPTH_SHIFT) & BYTE_MASK)
    depth += 1

    # Outputs: owner (20 bytes) and amount (16 bytes) each, after the inputs.
    outputs: DynArray[Output, MAX_OUTPUTS] = []
    outputSum: uint256 = 0
    zeroOutput: bool = False
    for position: uint256 in range(outputCount, bound=MAX_OUTPUTS):
        output: Bytes[36] = slice(msg.data, start + 3 + 2 * inputCount + 36 * position, 36)
        amount: uint256 = extract32(output, 4, output_type=uint256) & MAX_AMOUNT
        outputs.append(Output(owner=self._address(extract32(output, 0, output_type=uint256)), amount=convert(amount, uint128)))
        outputSum += amount
        zeroOutput = zeroOutput or amount == 0
    end: uint256 = start + 3 + 2 * inputCount + 36 * outputCount
    signature: Bytes[64] = slice(msg.data, end, 64)
    digest: bytes32 = self._transferDigest(ids, outputs)
    self._once(digest, nonce)

    if reason == OK and not self._signedBy(
        owner, digest, convert(head >> 16, uint8), extract32(signature, 0), extract32(signature, 32)
    ):
        reason = BAD_TRANSFER_SIGNATURE
    if reason == OK:
        for coin: bytes32 in ids:
            recorded: bytes32 = self.consumed[coin]
            if recorded != empty(bytes32) and recorded != digest:
                log DoubleSpend(coin=coin, recorded=recorded, presented=digest, owner=owner)
                reason = DOUBLE_SPEND
    if reason == OK:
        if zeroOutput:
            reason = ZERO_AMOUNT
        elif inputSum > MAX_AMOUNT or outputSum > MAX_AMOUNT:
            reason = AMOUNT_OVERFLOW
        elif inputSum != outputSum:
            reason = CONSERVATION_BROKEN
        elif depth > MAX_HOPS:
            reason = HOP_CAP_EXCEEDED
    if reason == OK:
        for coin: bytes32 in ids:
            if self.consumed[coin] == empty(bytes32):
                self.consumed[coin] = digest
                log Consumed(coin=coin, transfer=digest)

    count: uint256 = created
    for position: uint256 in range(outputCount, bound=MAX_OUTPUTS):
        output: Output = outputs[position]
        self._addCoin(
            count,
            self._coinId(digest, position),
            output.owner,
            self._pack(convert(output.amount, uint256), expiry, depth, reason, group),
        )
        count += 1
    return count, end + 64


@internal
def _redeemCoin(index: uint256, created: uint256):
    """
    @dev Pays coin `index` to the caller from its group's collateral, or refuses it.
    """
    assert index < created, "redeemed coin is not in the batch"
    coin: bytes32 = self.coinIds[index]
    record: uint256 = self.coinRecords[index]
    reason: uint8 = convert((record >> REASON_SHIFT) & BYTE_MASK, uint8)
    amount: uint256 = record & MAX_AMOUNT
    expiry: uint256 = (record >> EXPIRY_SHIFT) & EXPIRY_MASK
    group: uint256 = record >> GROUP_SHIFT
    if reason == OK:
        recorded: bytes32 = self.consumed[coin]
        if self.coinOwners[index] != msg.sender:
            reason = NOT_OWNER
        elif block.timestamp >= expiry:
            reason = EXPIRED
        elif recorded == REDEEMED:
            reason = ALREADY_REDEEMED
        elif recorded != empty(bytes32):
            reason = SPENT
        elif self.groupAvailable[group] < amount:
            reason = INSUFFICIENT_COLLATERAL
    if reason != OK:
        log CoinRejected(coin=coin, reason=reason)
        return
    self.consumed[coin] = REDEEMED
    self.groupAvailable[group] -= amount
    if expiry > self.groupLockTo[group]:
        self.groupLockTo[group] = expiry
    log CoinRedeemed(coin=coin, amount=amount)


@internal
def _settle(groups: uint256):
    """
    @dev Debits each issuer's collateral and extends its lock to the expiry of the coins paid,
         then (every state change done) makes one payout per issuer and asset.
    """
    for group: uint256 in range(groups, bound=MAX_NOTES):
        issuer: address = self.groupIssuers[group]
        asset: address = self.groupAssets[group]
        available: uint256 = self.groupAvailable[group]
        paid: uint256 = self.collateral[issuer][asset] - available
        self.groupPaid[group] = paid
        if paid == 0:
            continue
        self.collateral[issuer][asset] = available
        lockTo: uint256 = self.groupLockTo[group]
        if lockTo > self.lockedUntil[issuer]:
            self.lockedUntil[issuer] = lockTo
            log LockExtended(issuer=issuer, lockedUntil=lockTo)
        log Payout(redeemer=msg.sender, issuer=issuer, asset=asset, amount=paid)
    for group: uint256 in range(groups, bound=MAX_NOTES):
        paid: uint256 = self.groupPaid[group]
        if paid == 0:
            continue
        asset: address = self.groupAssets[group]
        if asset == empty(address):
            raw_call(msg.sender, b"", value=paid)
        elif not self._tokenPaid(asset, msg.sender, paid):
            owed: uint256 = self.owed[msg.sender][asset] + paid
            self.owed[msg.sender][asset] = owed
            log PayoutDeferred(redeemer=msg.sender, asset=asset, amount=paid, owed=owed)


@internal
def _group(issuer: address, asset: address, nonce: uint256, groups: uint256) -> (uint256, uint256):
    """
    @dev The index of the (issuer, asset) group in this call, created on first use with the
         issuer's collateral as what is available; returns it and the new group count.
    """
    tag: uint256 = self.groupTags[issuer][asset]
    if tag >> 16 == nonce:
        return tag & U16_MASK, groups
    self.groupTags[issuer][asset] = nonce << 16 | groups
    self.groupIssuers[groups] = issuer
    self.groupAssets[groups] = asset
    self.groupAvailable[groups] = self.collateral[issuer][asset]
    self.groupLockTo[groups] = 0
    return groups, groups + 1


@internal
def _addCoin(index: uint256, coin: bytes32, owner: address, record: uint256):
    self.coinIds[index] = coin
    self.coinOwners[index] = owner
    self.coinRecords[index] = record


@internal
def _once(digest: bytes32, nonce: uint256):
    """
    @dev Refuses a note or transfer this call has seen: its coins would be listed twice.
    """
    assert self.itemSeen[digest] != nonce, "a note or transfer appears twice in the batch"
    self.itemSeen[digest] = nonce


@internal
def _pay(asset: address, to: address, amount: uint256):
    if asset == empty(address):
        raw_call(to, b"", value=amount)
    else:
        assert extcall IERC20(asset).transfer(to, amount, default_return_value=True), "token transfer failed"


@internal
def _tokenPaid(asset: address, to: address, amount: uint256) -> bool:
    """
    @dev Asks `asset` to transfer `amount` to `to` with at most TOKEN_PAYOUT_GAS: whether it
         did (no revert, and true or nothing answered), without reverting when it did not.
    """
    if not asset.is_contract:
        return False
    success: bool = False
    answer: Bytes[32] = b""
    success, answer = raw_call(
        asset,
        abi_encode(to, amount, method_id=method_id("transfer(address,uint256)")),
        max_outsize=32,
        gas=TOKEN_PAYOUT_GAS,
        revert_on_failure=False,
    )
    if not success:
        return False
    if len(answer) == 0:
        return True
    return len(answer) == 32 and convert(answer, uint256) == 1


@internal
@view
def _transferDigest(
    inputs: DynArray[bytes32, MAX_INPUTS], outputs: DynArray[Output, MAX_OUTPUTS]
) -> bytes32:
    outputHashes: DynArray[bytes32, MAX_INPUTS] = []
    for output: Output in outputs:
        outputHashes.append(keccak256(abi_encode(OUTPUT_TYPEHASH, output.owner, output.amount)))
    return self._digest(
        keccak256(
            abi_encode(TRANSFER_TYPEHASH, self._hashWords(inputs), self._hashWords(outputHashes))
        )
    )


@internal
@pure
def _hashWords(words: DynArray[bytes32, MAX_INPUTS]) -> bytes32:
    """
    @dev keccak256 of the words concatenated: EIP-712's encoding of an array member. One and
         two words (a transfer's usual input and outputs) skip the general copy.
    """
    count: uint256 = len(words)
    if count == 1:
        return keccak256(words[0])
    if count == 2:
        return keccak256(concat(words[0], words[1]))
    return keccak256(slice(abi_encode(words, ensure_tuple=False), 32, 32 * count))


@internal
@view
def _digest(structHash: bytes32) -> bytes32:
    return keccak256(concat(b"\x19\x01", DOMAIN_SEPARATOR, structHash))


@internal
@pure
def _address(word: uint256) -> address:
    """
    @dev The address in the top 20 bytes of `word`.
    """
    return convert(convert(word >> 96, uint160), address)


@internal
@pure
def _coinId(digest: bytes32, index: uint256) -> bytes32:
    """
    @dev keccak256(digest ‖ uint32 big-endian index) (Docs/PROTOCOL.md §3).
    """
    return keccak256(concat(digest, convert(convert(index, uint32), bytes4)))


@internal
@pure
def _pack(amount: uint256, expiry: uint256, depth: uint256, reason: uint8, group: uint256) -> uint256:
    """
    @dev A coin's record: amount (bits 0-127), expiry (128-191), depth (192-199), reason
         (200-207), group (208-255).
    """
    return (
        amount
        | expiry << EXPIRY_SHIFT
        | depth << DEPTH_SHIFT
        | convert(reason, uint256) << REASON_SHIFT
        | group << GROUP_SHIFT
    )


@internal
@view
def _signedBy(signer: address, digest: bytes32, v: uint8, r: bytes32, s: bytes32) -> bool:
    recovered: address = self._signer(digest, v, r, s)
    return recovered != empty(address) and recovered == signer


@internal
@view
def _signer(digest: bytes32, v: uint8, r: bytes32, s: bytes32) -> address:
    """
    @dev The address that signed `digest`, or the zero address when none recovers. A
         signature Tender would not write reverts the call: v not 27 or 28, r or s out of
         range, or s in the upper half of the order (its twin's low-s form is the valid one).
    """
    assert v == 27 or v == 28, "signature v must be 27 or 28"
    assert convert(r, uint256) < CURVE_ORDER, "signature r is out of range"
    assert convert(s, uint256) <= HALF_CURVE_ORDER, "signature s is not canonical (high s)"
    return ecrecover(digest, v, r, s)
