"""Tender's signed structures in Python, written from Docs/PROTOCOL.md: EIP-712 hashing, coin
ids, signing, the deterministic CBOR of a proof bundle (what the Swift verifier decodes) and the
vault's calldata (Docs/VAULT.md, "Calldata"). Shared by the contract tests, the gas report and
the vector generator (Tests/Vectors/vault_bundles.py)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from eth_keys import keys
from eth_utils import keccak, to_canonical_address, to_checksum_address

DOMAIN_TYPE = b"EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"
NOTE_TYPE = b"Note(bytes32 serial,address issuer,address asset,uint128 amount,address owner,uint64 expiry)"
OUTPUT_TYPE = b"Output(address owner,uint128 amount)"
TRANSFER_TYPE = b"Transfer(bytes32[] inputs,Output[] outputs)" + OUTPUT_TYPE

CURVE_ORDER = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
MAX_AMOUNT = 2**128 - 1
NATIVE = "0x" + "00" * 20
REDEEMED = b"\xff" * 32


def word(value: int | str | bytes) -> bytes:
    """One 32-byte ABI word: an unsigned integer, an address, or 32 bytes as they are."""
    if isinstance(value, int):
        return value.to_bytes(32, "big")
    if isinstance(value, str):
        return to_canonical_address(value).rjust(32, b"\0")
    assert len(value) == 32
    return value


def coin_id(digest: bytes, index: int) -> bytes:
    """keccak256(digest ‖ uint32 big-endian index) (Docs/PROTOCOL.md §3)."""
    return keccak(digest + index.to_bytes(4, "big"))


@dataclass(frozen=True)
class Domain:
    chain_id: int
    vault: str

    @property
    def separator(self) -> bytes:
        return keccak(
            keccak(DOMAIN_TYPE) + keccak(b"Tender") + keccak(b"1")
            + word(self.chain_id) + word(self.vault)
        )

    def digest(self, struct_hash: bytes) -> bytes:
        return keccak(b"\x19\x01" + self.separator + struct_hash)


@dataclass(frozen=True)
class Key:
    """A secp256k1 key and its address."""
    secret: bytes

    @staticmethod
    def of(number: int) -> Key:
        return Key(number.to_bytes(32, "big"))

    @property
    def address(self) -> str:
        return keys.PrivateKey(self.secret).public_key.to_checksum_address()

    def sign(self, digest: bytes) -> bytes:
        """65 bytes r ‖ s ‖ v with low s and v = 27 + recovery id, as Tender writes them."""
        signature = keys.PrivateKey(self.secret).sign_msg_hash(digest)
        return signature.r.to_bytes(32, "big") + signature.s.to_bytes(32, "big") + bytes([27 + signature.v])


@dataclass(frozen=True)
class Note:
    serial: bytes
    issuer: str
    asset: str
    amount: int
    owner: str
    expiry: int
    signature: bytes = b""

    def struct_hash(self) -> bytes:
        return keccak(
            keccak(NOTE_TYPE) + self.serial + word(self.issuer) + word(self.asset)
            + word(self.amount) + word(self.owner) + word(self.expiry)
        )

    def digest(self, domain: Domain) -> bytes:
        return domain.digest(self.struct_hash())

    def coin(self, domain: Domain) -> bytes:
        return coin_id(self.digest(domain), 0)

    def signed(self, key: Key, domain: Domain) -> Note:
        return replace(self, signature=key.sign(self.digest(domain)))


@dataclass(frozen=True)
class Output:
    owner: str
    amount: int


@dataclass(frozen=True)
class Transfer:
    inputs: tuple[bytes, ...]
    outputs: tuple[Output, ...]
    signature: bytes = b""

    def struct_hash(self) -> bytes:
        outputs = b"".join(keccak(keccak(OUTPUT_TYPE) + word(o.owner) + word(o.amount)) for o in self.outputs)
        return keccak(keccak(TRANSFER_TYPE) + keccak(b"".join(self.inputs)) + keccak(outputs))

    def digest(self, domain: Domain) -> bytes:
        return domain.digest(self.struct_hash())

    def coins(self, domain: Domain) -> list[bytes]:
        digest = self.digest(domain)
        return [coin_id(digest, i) for i in range(len(self.outputs))]

    def signed(self, key: Key, domain: Domain) -> Transfer:
        return replace(self, signature=key.sign(self.digest(domain)))


def transfer(inputs, outputs, key: Key, domain: Domain) -> Transfer:
    """A transfer of `inputs` (coin ids) to `outputs` ([(owner, amount)]) signed by `key`."""
    return Transfer(tuple(inputs), tuple(Output(o, a) for o, a in outputs)).signed(key, domain)


@dataclass
class Bundle:
    """A proof bundle: notes and transfers, parents first (Docs/PROTOCOL.md §4)."""
    notes: list[Note] = field(default_factory=list)
    transfers: list[Transfer] = field(default_factory=list)

    def coin_table(self, domain: Domain) -> list[bytes]:
        """The coins the batch creates, in the vault's index order: the notes' coins, then each
        transfer's outputs."""
        table = [note.coin(domain) for note in self.notes]
        for item in self.transfers:
            table += item.coins(domain)
        return table

    def batch(self, coins: list[bytes], domain: Domain) -> bytes:
        """The packed batch redeem reads after its selector (Docs/VAULT.md, "Calldata"). An
        input the batch does not create before its transfer gets the first index not yet
        created, which the vault refuses (as it must: nothing else can name it)."""
        created = [note.coin(domain) for note in self.notes]
        parts = [u16(len(self.notes)), u16(len(self.transfers)), u16(len(coins))]
        parts += [pack_note(note) for note in self.notes]
        for item in self.transfers:
            parts.append(pack_transfer(item, [created.index(c) if c in created else len(created) for c in item.inputs]))
            created += item.coins(domain)
        parts += [u16(created.index(c)) for c in coins]
        return b"".join(parts)

    def cbor(self) -> bytes:
        """Deterministic CBOR, Docs/PROTOCOL.md §6."""
        notes = [
            {0: n.serial, 1: address(n.issuer), 2: address(n.asset), 3: n.amount, 4: address(n.owner),
             5: n.expiry, 6: n.signature}
            for n in self.notes
        ]
        transfers = [
            {0: list(t.inputs), 1: [[address(o.owner), o.amount] for o in t.outputs], 2: t.signature}
            for t in self.transfers
        ]
        return cbor({0: notes, 1: transfers})


def u16(value: int) -> bytes:
    return value.to_bytes(2, "big")


def pack_note(note: Note) -> bytes:
    """181 bytes: v, expiry, amount, issuer, asset, owner, serial, r, s."""
    return (
        note.signature[64:] + note.expiry.to_bytes(8, "big") + note.amount.to_bytes(16, "big")
        + address(note.issuer) + address(note.asset) + address(note.owner) + note.serial + note.signature[:64]
    )


def pack_transfer(item: Transfer, inputs: list[int]) -> bytes:
    """v, input count, output count, input indexes (2 bytes each), outputs (owner, amount: 36
    bytes each), r, s."""
    return (
        item.signature[64:] + bytes([len(inputs), len(item.outputs)]) + b"".join(u16(i) for i in inputs)
        + b"".join(address(o.owner) + o.amount.to_bytes(16, "big") for o in item.outputs)
        + item.signature[:64]
    )


def split(signature: bytes) -> tuple[bytes, bytes, int]:
    """r, s, v of a 65-byte signature, as submitFraudProof takes them."""
    return signature[:32], signature[32:64], signature[64]


def evidence_args(item: Transfer):
    """submitFraudProof's form of a transfer: input coin ids, outputs, r, s, v."""
    return (list(item.inputs), [(o.owner, o.amount) for o in item.outputs], *split(item.signature))


def address(text: str) -> bytes:
    return to_canonical_address(text)


def checksum(raw: bytes) -> str:
    return to_checksum_address(raw)


def cbor(value) -> bytes:
    """The deterministic CBOR subset a bundle uses: unsigned integers (tag-2 bignums above
    2^64 - 1), byte strings, arrays and maps with integer keys, shortest heads, sorted keys."""
    def head(major: int, argument: int) -> bytes:
        if argument < 24:
            return bytes([major << 5 | argument])
        for extra, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
            if argument < 1 << (8 * size):
                return bytes([major << 5 | extra]) + argument.to_bytes(size, "big")
        raise ValueError("argument too large")

    if isinstance(value, int):
        if value < 1 << 64:
            return head(0, value)
        digits = value.to_bytes((value.bit_length() + 7) // 8, "big")
        return head(6, 2) + head(2, len(digits)) + digits
    if isinstance(value, bytes):
        return head(2, len(value)) + value
    if isinstance(value, list):
        return head(4, len(value)) + b"".join(cbor(item) for item in value)
    if isinstance(value, dict):
        return head(5, len(value)) + b"".join(cbor(k) + cbor(value[k]) for k in sorted(value))
    raise TypeError(type(value))


# CoinRejected.reason codes (Contracts/Vault.vy), named as the offline verifier names its
# errors (Sources/Core/Tender/Protocol/ProtocolError.swift) where it has the same check.
REASONS = {
    1: "zero-amount",
    2: "bad-note-signature",
    3: "bad-transfer-signature",
    4: "empty-transfer",
    5: "duplicate-input",
    6: "mixed-inputs",
    7: "double-spend",
    8: "amount-overflow",
    9: "conservation-broken",
    10: "hop-cap-exceeded",
    11: "expired",
    12: "not-owner",
    13: "spent",
    14: "already-redeemed",
    15: "insufficient-collateral",
}
