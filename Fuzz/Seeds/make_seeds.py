#!/usr/bin/env python3
"""Writes the committed fuzz seeds (Fuzz/Seeds/<target>/) from the repository's test vectors,
plus small images and frames made here. Rerun after the vectors change; the output is
deterministic. Tender envelopes and tender: URIs come from the `tender` CLI instead
(Scripts/fuzz.sh --seeds-only), since their format changes with the protocol.

Usage: python3 Fuzz/Seeds/make_seeds.py
"""
import hashlib
import re
import struct
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "Fuzz" / "Seeds"
TESTS = ROOT / "Tests"


def write(target, name, data):
    directory = SEEDS / target
    directory.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    (directory / name).write_bytes(data)


def pieces(items):
    """Length-prefixed pieces, as InputShapes.swift's ByteReader reads them."""
    out = b""
    for item in items:
        if isinstance(item, str):
            item = item.encode()
        out += struct.pack(">H", len(item)) + item
    return out


def swift_strings(path, pattern):
    return re.findall(pattern, (TESTS / path).read_text())


def cbor_seeds():
    appendix = (TESTS / "CodecsTests/CBORAppendixATests.swift").read_text()
    block = appendix[appendix.index("let appendixA"):appendix.index("@Suite")]
    # Encodings, not the text values (t("…")) or byte values (h("…")) beside them.
    found = re.findall(r'(?<![th]\()"([0-9a-f]+)"', block)
    for i, h in enumerate(sorted(set(found))):
        write("cbor", f"rfc8949-a-{i:02}", bytes.fromhex(h))
    vectors = swift_strings("CodecsTests/Vectors/CBORVectors.swift", r'"hex":"([0-9a-f]+)"')
    small = [h for h in dict.fromkeys(vectors) if len(h) <= 400][:48]
    for i, h in enumerate(small):
        write("cbor", f"cbor2-{i:02}", bytes.fromhex(h))
    return len(set(found)) + len(small)


def ur_seeds():
    vectors = "FountainTests/BCURVectors.swift"
    parts = swift_strings(vectors, r'"(ur:bytes/\d+-\d+/[a-z]+)"')
    single = swift_strings(vectors, r'"(ur:bytes/[a-z]+)"')
    words = swift_strings(vectors, r'static let bytewords(?:Standard|Minimal)100 =\s*"([a-z ]+)"')
    cbor_parts = swift_strings(vectors, r'"(85[0-9a-f]+)"')
    # Mode 0: text parts, in order, shuffled with repeats, and single-part UR and Bytewords.
    write("ur", "bcur-parts-in-order", b"\x00" + pieces(parts[:9]))
    write("ur", "bcur-parts-mixed", b"\x00" + pieces(parts[9:] + parts[:3]))
    write("ur", "bcur-parts-upper", b"\x00" + pieces([p.upper() for p in parts[2:11]]))
    write("ur", "bcur-single", b"\x00" + pieces(single + words))
    # Mode 2: the parts' CBOR, wrapped by the harness in valid Bytewords.
    write("ur", "bcur-part-cbor", b"\x02" + pieces(bytes.fromhex(h) for h in cbor_parts[:9]))
    # Mode 1: UREncoder of a body, fragment length, extra parts, edits.
    body = bytes(range(60))
    write("ur", "encoder-plain", bytes([1, 19, 4, 0]) + body)
    write("ur", "encoder-edited", bytes([1, 9, 6, 3, 0x02, 0, 0, 0x45, 0, 0, 0xC1, 0, 0]) + body)
    return len(list((SEEDS / "ur").iterdir()))


def frame(message_id, length, seq_len, seq_num, fragment):
    header = b"TF\x01" + struct.pack(">IIHI", message_id, length, seq_len, seq_num)
    crc = zlib.crc32(header + fragment)
    return header + struct.pack(">I", crc) + fragment


def frames_seeds():
    message = bytes.fromhex("d9d9f7") + b"tender frames seed " * 6
    message_id = zlib.crc32(message)
    for fragment_length in (len(message), 40, 17):
        count = -(-len(message) // fragment_length)
        even = -(-len(message) // count)
        padded = message + bytes(count * even - len(message))
        frames = [
            frame(message_id, len(message), count, i + 1, padded[i * even:(i + 1) * even])
            for i in range(count)
        ]
        write("frames", f"raw-{count}-frames", b"\x00" + pieces(frames))
        write("frames", f"raw-{count}-frames-reversed-repaired", b"\x02" + pieces(frames[::-1]))
    write("frames", "encoder-plain", bytes([1, 39, 3, 0]) + message)
    write("frames", "encoder-edited", bytes([1, 15, 5, 2, 0x01, 0, 0, 0xC2, 30, 7]) + message)
    return len(list((SEEDS / "frames").iterdir()))


def link_data(link, message, index, count, payload):
    return b"\x01" + struct.pack(">IHHH", link, message, index, count) + payload


def link_ack(link, message, next_index):
    return b"\x02" + struct.pack(">IHH", link, message, next_index)


def link_datagrams(datagrams, step=1):
    """Raw mode's records, as Fuzz/TenderFuzz/LinkTarget.swift reads them: step, length, bytes."""
    return b"".join(bytes([step, len(d)]) + d for d in datagrams)


def link_seeds():
    """Frames of Sources/Core/Link at the harness's limits: 32-byte datagrams (21-byte payloads),
    link id 7, SDUs of at most 40 bytes."""
    message = b"tender link seed " * 6  # 102 bytes: 5 fragments
    fragments = [link_data(7, 0, i, 5, message[i * 21:(i + 1) * 21]) for i in range(5)]
    close = b"\x03" + struct.pack(">IB", 7, 0)
    # Mode 12 (raw, own link id): the link sends 20 bytes; a message arrives; our message acked.
    write("link", "raw-in-order", bytes([12, 10]) + link_datagrams(fragments + [link_ack(7, 0, 1), close]))
    # Mode 0: out of order, repeated, ticks (high bit of the step), another message, far ids.
    mixed = [fragments[1], fragments[0], fragments[0], fragments[3], fragments[2], fragments[4]]
    others = [link_data(7, 1, 0, 2, b"x" * 21), link_data(7, 9, 0, 1, b"far"), link_ack(7, 0, 0)]
    write("link", "raw-mixed", bytes([0, 40]) + link_datagrams(mixed, step=0x81) + link_datagrams(others))
    write("link", "raw-other-links", bytes([3, 0]) + link_datagrams(
        [link_data(n, 0, 0, 3, b"y" * 21) for n in range(1, 6)] + [fragments[0]]))
    # Mode 1: a transfer each way, clean and then lossy (fate bits: drop, repeat, swap, alter).
    outbound, inbound = bytes(range(60)) * 5, b"receipt" * 5
    write("link", "transfer-clean", bytes([1, 100, 35]) + outbound + inbound)
    fates = bytes([1, 0, 2, 4, 0, 1, 1, 0, 8, 5, 0x33, 0, 2, 1])
    write("link", "transfer-lossy", bytes([1, 100, 35]) + outbound + inbound + fates)
    # Mode 2: raw SDUs (start, continuations); mode 5: a message framed, then edited.
    sdus = [b"\x10\x00\x00" + struct.pack(">I", len(message)) + message[:33]]
    sdus += [b"\x11\x00\x00" + message[i:i + 37] for i in range(33, len(message), 37)]
    write("link", "sdus", b"\x02" + pieces(sdus))
    write("link", "framed", b"\x05\x00" + message)
    write("link", "framed-edited", b"\x05\x02\x01\x00\x00\xc2\x05\x09" + message)
    return len(list((SEEDS / "link").iterdir()))


def payment_code_seeds():
    specs = (TESTS / "PaymentCodesTests/SpecVectors.swift").read_text()
    codes = re.findall(r'"((?:ln|LN)[A-Za-z0-9]{20,})"', specs)
    codes += re.findall(r'"(cashu[AB][A-Za-z0-9_\-=]+)"', specs)
    codes += re.findall(r'"(bitcoin:[^"]+)"', specs)
    codes += re.findall(r'"(ethereum:[^"]+)"', specs)
    codes += ["lightning:" + codes[0], "cashu:" + next(c for c in codes if c.startswith("cashuB"))]
    for code in dict.fromkeys(codes):
        digest = hashlib.sha256(code.encode()).hexdigest()[:12]
        write("payment-codes", f"{code.split(':')[0][:8].lower()}-{digest}", code + "\n")
    return len(codes)


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width, height, depth, colour, rows, extra=b"", interlace=0):
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace)
    raw = b"".join(bytes([f]) + r for f, r in rows)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + extra
            + png_chunk(b"IDAT", zlib.compress(raw, 9)) + png_chunk(b"IEND", b""))


def image_seeds():
    w, h = 12, 9
    grey = [(i % 5, bytes((x * 20 + y * 7) % 256 for x in range(w))) for i, y in enumerate(range(h))]
    write("png", "grey8-all-filters.png", png(w, h, 8, 0, grey))
    write("png", "grey1.png", png(w, h, 1, 0, [(0, bytes([0b10110010, 0b01010000]))] * h))
    write("png", "grey4-trns.png", png(w, h, 4, 0, [(1, bytes(range(6)))] * h,
                                        png_chunk(b"tRNS", b"\x00\x03")))
    write("png", "grey16.png", png(4, 3, 16, 0, [(2, bytes(range(8)))] * 3))
    write("png", "rgb8.png", png(4, 3, 8, 2, [(4, bytes(range(12)))] * 3,
                                 png_chunk(b"tRNS", b"\x00\x00\x00\x01\x00\x02")))
    write("png", "rgb16.png", png(2, 2, 16, 2, [(3, bytes(range(12)))] * 2))
    write("png", "rgba8.png", png(3, 2, 8, 6, [(1, bytes(range(12)))] * 2))
    write("png", "grey-alpha8.png", png(3, 2, 8, 4, [(0, bytes([0, 255, 128, 64, 255, 0]))] * 2))
    palette = png_chunk(b"PLTE", bytes(range(24))) + png_chunk(b"tRNS", b"\xff\x80")
    write("png", "palette2.png", png(8, 2, 2, 3, [(0, bytes([0b00011011, 0b11100100]))] * 2, palette))
    write("png", "interlaced.png", png(2, 2, 8, 0, [(0, b"\x00\x00")] * 2, interlace=1))
    two_idat = png(w, h, 8, 0, grey)
    write("png", "ancillary-chunk.png", two_idat[:33] + png_chunk(b"tEXt", b"k\x00v") + two_idat[33:])
    # Described PNGs (ImageTarget's PNGBuilder writes the checksums): colour index into
    # [0, 2, 3, 4, 6], depth index into [1, 2, 4, 8, 16], width - 1, height - 1, flags, then
    # PLTE/tRNS and the scanlines with their filter bytes.
    write("png", "built-grey8", bytes([0, 3, w - 1, h - 1, 0]) + b"".join(bytes([f]) + r for f, r in grey))
    write("png", "built-palette2-trns", bytes([2, 1, 7, 1, 3, 7]) + bytes(range(24)) + b"\x02\xff\x80"
          + b"\x00\x1b\xe4\x02\x1b\xe4")
    write("png", "built-rgba16-two-idat", bytes([4, 4, 1, 1, 4]) + (b"\x04" + bytes(range(16))) * 2)
    write("png", "built-grey-alpha8-paeth", bytes([3, 3, 2, 2, 0]) + (b"\x04" + bytes(range(0, 60, 10))) * 3)
    write("png", "built-rgb8-trns", bytes([1, 3, 1, 0, 2, 6]) + b"\x00\x01\x00\x02\x00\x03" + b"\x01" + bytes(range(6)))
    pixels = bytes((x * 23) % 256 for x in range(w * h))
    write("pgm", "p5-8bit.pgm", f"P5\n{w} {h}\n255\n".encode() + pixels)
    write("pgm", "p5-16bit.pgm", b"P5 3 2 65535\n" + bytes(range(12)))
    write("pgm", "p2-comments.pgm", b"P2\n# made for the fuzzer\n3 2\n# max\n15\n0 1 2\n 13 14 15\n")
    write("pgm", "p5-maxval-1.pgm", b"P5\t2 2 1 \x00\x01\x01\x00")


def cbor_head(major, value):
    if value < 24:
        return bytes([major << 5 | value])
    for info, width in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if value < 1 << (8 * width):
            return bytes([major << 5 | info]) + value.to_bytes(width, "big")


def cbor(value):
    """Deterministic CBOR of ints, bytes, text and int-keyed dicts (all a request needs)."""
    if isinstance(value, int):
        return cbor_head(0, value)
    if isinstance(value, bytes):
        return cbor_head(2, len(value)) + value
    if isinstance(value, str):
        return cbor_head(3, len(value.encode())) + value.encode()
    return cbor_head(5, len(value)) + b"".join(cbor(k) + cbor(v) for k, v in sorted(value.items()))


def envelope_seeds():
    # A payment request (the CLI writes none to a file): Docs/PROTOCOL.md's field numbers, and
    # the envelope version the code speaks now.
    source = (ROOT / "Sources/Core/Tender/Wire/Envelope.swift").read_text()
    version = int(re.search(r"static let version: UInt64 = (\d+)", source).group(1))
    request = {0: bytes(range(32)), 1: bytes([0xB0] * 20), 2: 1500, 3: bytes(20),
               4: "fuzz seed", 5: 1_795_500_000}
    for name, body in (("request", request), ("request-session-key", {**request, 6: bytes(32)})):
        envelope = {0: "request", 1: version, 2: 31337, 3: bytes([0x5F] * 20), 4: body}
        write("envelope", name, bytes.fromhex("d9d9f7") + cbor(envelope))


if __name__ == "__main__":
    envelope_seeds()
    print("cbor", cbor_seeds())
    print("ur", ur_seeds())
    print("frames", frames_seeds())
    print("link", link_seeds())
    print("payment-codes", payment_code_seeds())
    image_seeds()
    for target in sorted(p.name for p in SEEDS.iterdir() if p.is_dir()):
        files = list((SEEDS / target).iterdir())
        print(f"{target}: {len(files)} seeds, {sum(f.stat().st_size for f in files)} bytes")
