"""The Python protocol helpers (tender.py) against independent implementations: eth-account's
EIP-712 encoder and signer recovery, and cbor2's canonical encoder."""

import cbor2
import pytest
from eth_account import Account
from eth_account.messages import _hash_eip191_message as signable_hash
from eth_account.messages import encode_typed_data

from tender import MAX_AMOUNT, NATIVE, Bundle, Domain, Key, Note, cbor, transfer

DOMAIN = Domain(31337, "0x5FbDB2315678afecb367f032d93F642f64180aa3")
ISSUER, ALICE, BOB = Key.of(1), Key.of(0xA), Key.of(0xB)
TYPES = {
    "Note": [{"name": "serial", "type": "bytes32"}, {"name": "issuer", "type": "address"},
             {"name": "asset", "type": "address"}, {"name": "amount", "type": "uint128"},
             {"name": "owner", "type": "address"}, {"name": "expiry", "type": "uint64"}],
    "Output": [{"name": "owner", "type": "address"}, {"name": "amount", "type": "uint128"}],
    "Transfer": [{"name": "inputs", "type": "bytes32[]"}, {"name": "outputs", "type": "Output[]"}],
}
DOMAIN_DATA = {"name": "Tender", "version": "1", "chainId": DOMAIN.chain_id, "verifyingContract": DOMAIN.vault}


def test_note_and_transfer_digests_match_eth_account():
    note = Note(b"\x07" * 32, ISSUER.address, NATIVE, MAX_AMOUNT, ALICE.address, 2**64 - 1).signed(ISSUER, DOMAIN)
    message = {"serial": note.serial, "issuer": note.issuer, "asset": note.asset, "amount": note.amount,
               "owner": note.owner, "expiry": note.expiry}
    signable = encode_typed_data(DOMAIN_DATA, {"Note": TYPES["Note"]}, message)
    assert note.digest(DOMAIN) == signable_hash(signable)
    assert Account._recover_hash(note.digest(DOMAIN), signature=note.signature) == ISSUER.address

    pay = transfer([note.coin(DOMAIN), b"\x09" * 32], [(BOB.address, 60), (ALICE.address, 40)], ALICE, DOMAIN)
    message = {"inputs": list(pay.inputs), "outputs": [{"owner": o.owner, "amount": o.amount} for o in pay.outputs]}
    signable = encode_typed_data(DOMAIN_DATA, {"Transfer": TYPES["Transfer"], "Output": TYPES["Output"]}, message)
    assert pay.digest(DOMAIN) == signable_hash(signable)
    assert Account._recover_hash(pay.digest(DOMAIN), signature=pay.signature) == ALICE.address


def test_signatures_are_low_s_with_v_27_or_28():
    for number in range(1, 20):
        signature = ISSUER.sign(number.to_bytes(32, "big"))
        assert signature[64] in (27, 28)
        assert int.from_bytes(signature[32:64], "big") * 2 < 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141


@pytest.mark.parametrize("value", [0, 23, 24, 255, 256, 2**32, 2**64 - 1, 2**64, MAX_AMOUNT, b"", b"\x01" * 70,
                                   [1, [2, b"x"]], {0: 1, 1: {6: b"a", 2: [3]}}])
def test_cbor_matches_cbor2_canonical(value):
    assert cbor(value) == cbor2.dumps(value, canonical=True)


def test_a_bundle_in_cbor2_terms():
    note = Note(b"\x07" * 32, ISSUER.address, NATIVE, 100, ALICE.address, 5).signed(ISSUER, DOMAIN)
    decoded = cbor2.loads(Bundle([note]).cbor())
    assert decoded == {0: [{0: note.serial, 1: bytes.fromhex(note.issuer[2:]), 2: bytes(20), 3: 100,
                            4: bytes.fromhex(note.owner[2:]), 5: 5, 6: note.signature}], 1: []}
