"""A Cashu token animated the way Cashu wallets animate large tokens (NUT-16: BC-UR of type
`bytes`, the CBOR byte string of the token's text), as a raw clip for the camera lab: 640x480
8-bit grey frames, each UR part held HOLD frames, one pass of the loop (v4l2-ctl loops it).

An encoder of its own (BCR-2020-005 UR, BCR-2020-012 Bytewords), so the lab checks Tender's
decoder against another implementation; the loop is the parts 1…seqLen (each one fragment),
in upper case for alphanumeric-mode codes, drawn by segno.

  .venv-referee/bin/python Tests/CameraLab/ur-bytes-clip.py TOKEN_FILE OUT.grey [FRAGMENT] [HOLD]
"""

import math
import sys
import zlib

import cbor2
import segno

WORDS = (
    "able acid also apex aqua arch atom aunt away axis back bald barn belt beta bias blue body "
    "brag brew bulb buzz calm cash cats chef city claw code cola cook cost crux curl cusp cyan "
    "dark data days deli dice diet door down draw drop drum dull duty each easy echo edge epic "
    "even exam exit eyes fact fair fern figs film fish fizz flap flew flux foxy free frog fuel "
    "fund gala game gear gems gift girl glow good gray grim guru gush gyro half hang hard hawk "
    "heat help high hill holy hope horn huts iced idea idle inch inky into iris iron item jade "
    "jazz join jolt jowl judo jugs jump junk jury keep keno kept keys kick kiln king kite kiwi "
    "knob lamb lava lazy leaf legs liar limp lion list logo loud love luau luck lung main many "
    "math maze memo menu meow mild mint miss monk nail navy need news next noon note numb obey "
    "oboe omit onyx open oval owls paid part peck play plus poem pool pose puff puma purr quad "
    "quiz race ramp real redo rich road rock roof ruby ruin runs rust safe saga scar sets silk "
    "skew slot soap solo song stub surf swan taco task taxi tent tied time tiny toil tomb toys "
    "trip tuna twin ugly undo unit urge user vast very veto vial vibe view visa void vows wall "
    "wand warm wasp wave waxy webs what when whiz wolf work yank yawn yell yoga yurt zaps zero "
    "zest zinc zone zoom"
).split()
assert len(WORDS) == 256


def crc32(data: bytes) -> bytes:
    return zlib.crc32(data).to_bytes(4, "big")


def bytewords_minimal(data: bytes) -> str:
    return "".join(WORDS[b][0] + WORDS[b][3] for b in data + crc32(data))


def ur_parts(message: bytes, max_fragment: int) -> list[str]:
    """The pure parts (seqNum 1…seqLen) of a multi-part ur:bytes."""
    count = math.ceil(len(message) / max_fragment)
    length = math.ceil(len(message) / count)
    padded = message + bytes(length * count - len(message))
    checksum = zlib.crc32(message)
    parts = []
    for index in range(count):
        body = cbor2.dumps(
            [index + 1, count, len(message), checksum, padded[index * length:(index + 1) * length]])
        parts.append(f"ur:bytes/{index + 1}-{count}/{bytewords_minimal(body)}")
    return parts


def frame(text: str, width: int = 640, height: int = 480) -> bytes:
    """One grey frame: the code, as large as whole pixels allow, centred, on white."""
    matrix = segno.make(text, error="m", micro=False).matrix
    border = 4
    size = len(matrix) + 2 * border
    scale = min(width, height) // size
    assert scale >= 2, f"a code of {len(matrix)} modules does not fit {width}x{height}"
    pixels = bytearray(b"\xff" * (width * height))
    left, top = (width - size * scale) // 2, (height - size * scale) // 2
    for row, modules in enumerate(matrix):
        line = bytearray()
        for dark in modules:
            line += (b"\x00" if dark else b"\xff") * scale
        for y in range(scale):
            start = (top + (row + border) * scale + y) * width + left + border * scale
            pixels[start:start + len(line)] = line
    return bytes(pixels)


def main() -> None:
    token_file, out = sys.argv[1], sys.argv[2]
    fragment = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    hold = int(sys.argv[4]) if len(sys.argv) > 4 else 6
    token = open(token_file, encoding="ascii").read().strip()
    assert token.startswith("cashu"), "not a Cashu token"
    parts = ur_parts(cbor2.dumps(token.encode()), fragment)
    with open(out, "wb") as clip:
        for part in parts:
            clip.write(frame(part.upper()) * hold)
    print(f"{len(parts)} ur:bytes part(s), {len(parts) * hold} frame(s) written to {out}")


if __name__ == "__main__":
    main()
