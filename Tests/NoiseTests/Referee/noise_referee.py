#!/usr/bin/env python3
"""A Noise referee for NoiseTests: the `noiseprotocol` package (PyPI, pinned in
Tests/referee-requirements.txt), never Tender's Swift code, on the other end of a handshake.

    noise_referee.py self-test VECTORS.json
        Replays the committed XX and IK vectors through noiseprotocol (both sides, every
        message byte for byte, the handshake hash); prints "ok".

    noise_referee.py session --pattern XX|IK --role initiator|responder --static HEX
                     [--remote-static HEX] [--ephemeral HEX] [--prologue HEX]
        One side of one session. Reads commands from stdin, one a line, and answers each with
        one line on stdout:
            write PAYLOAD_HEX   -> the next message (a handshake message while the handshake
                                   runs, a transport message after it)
            read MESSAGE_HEX    -> its payload
            hash                -> the handshake hash (after the handshake)
            remote-static       -> the peer's static public key (after the handshake)
        Any failure is answered "error <what>", and the session ends.
"""

import argparse
import json
import sys
import warnings

from noise.connection import Keypair, NoiseConnection

PROTOCOLS = {
    "XX": b"Noise_XX_25519_ChaChaPoly_SHA256",
    "IK": b"Noise_IK_25519_ChaChaPoly_SHA256",
}


def connection(protocol, initiator, static, prologue, remote_static=None, ephemeral=None):
    noise = NoiseConnection.from_name(protocol)
    noise.set_as_initiator() if initiator else noise.set_as_responder()
    noise.set_prologue(prologue)
    noise.set_keypair_from_private_bytes(Keypair.STATIC, static)
    if remote_static is not None:
        noise.set_keypair_from_public_bytes(Keypair.REMOTE_STATIC, remote_static)
    if ephemeral is not None:
        noise.set_keypair_from_private_bytes(Keypair.EPHEMERAL, ephemeral)
    noise.start_handshake()
    return noise


def send(noise, payload):
    return noise.encrypt(payload) if noise.handshake_finished else noise.write_message(payload)


def receive(noise, message):
    return noise.decrypt(message) if noise.handshake_finished else noise.read_message(message)


def self_test(path):
    with open(path) as file:
        vectors = json.load(file)["vectors"]
    for vector in vectors:
        name = f'{vector["source"]} {vector["protocol_name"]}'
        remote = vector.get("init_remote_static")
        initiator = connection(
            vector["protocol_name"].encode(), True, bytes.fromhex(vector["init_static"]),
            bytes.fromhex(vector["init_prologue"]),
            bytes.fromhex(remote) if remote else None, bytes.fromhex(vector["init_ephemeral"]))
        responder = connection(
            vector["protocol_name"].encode(), False, bytes.fromhex(vector["resp_static"]),
            bytes.fromhex(vector["resp_prologue"]), None, bytes.fromhex(vector["resp_ephemeral"]))
        for index, message in enumerate(vector["messages"]):
            writer, reader = (initiator, responder) if index % 2 == 0 else (responder, initiator)
            payload = bytes.fromhex(message["payload"])
            written = bytes(send(writer, payload))
            if written.hex() != message["ciphertext"]:
                sys.exit(f"{name}: message {index + 1} differs from the vector")
            if bytes(receive(reader, written)) != payload:
                sys.exit(f"{name}: payload {index + 1} differs from the vector")
        expected_hash = vector.get("handshake_hash")
        if expected_hash and initiator.get_handshake_hash().hex() != expected_hash:
            sys.exit(f"{name}: handshake hash differs from the vector")
    print("ok")


def session(arguments):
    optional = lambda text: bytes.fromhex(text) if text is not None else None
    noise = connection(
        PROTOCOLS[arguments.pattern], arguments.role == "initiator",
        bytes.fromhex(arguments.static), bytes.fromhex(arguments.prologue),
        optional(arguments.remote_static), optional(arguments.ephemeral))
    # noiseprotocol drops its handshake state, and with it the peer's static key, when the
    # handshake ends: keep a reference to read the key afterwards.
    handshake = noise.noise_protocol.handshake_state
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        command, _, argument = line.strip().partition(" ")
        try:
            if command == "write":
                answer = bytes(send(noise, bytes.fromhex(argument))).hex()
            elif command == "read":
                answer = bytes(receive(noise, bytes.fromhex(argument))).hex()
            elif command == "hash":
                answer = noise.get_handshake_hash().hex()
            elif command == "remote-static":
                answer = handshake.rs.public_bytes.hex()
            else:
                raise ValueError(f"unknown command {command!r}")
        except Exception as error:  # the answer names it; Swift fails the test
            print(f"error {type(error).__name__}: {error}", flush=True)
            return
        print(answer, flush=True)


def main():
    # Fixed ephemeral keys are what the known-answer and byte-for-byte runs are for.
    warnings.filterwarnings("ignore", message="One of ephemeral keypairs is already set")
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    test = commands.add_parser("self-test")
    test.add_argument("vectors")
    one = commands.add_parser("session")
    one.add_argument("--pattern", choices=sorted(PROTOCOLS), required=True)
    one.add_argument("--role", choices=["initiator", "responder"], required=True)
    one.add_argument("--static", required=True)
    one.add_argument("--remote-static")
    one.add_argument("--ephemeral")
    one.add_argument("--prologue", default="")
    arguments = parser.parse_args()
    if arguments.command == "self-test":
        self_test(arguments.vectors)
    else:
        session(arguments)


if __name__ == "__main__":
    main()
