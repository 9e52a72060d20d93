#!/usr/bin/env python3
"""Referee for Tender's ESC/POS output: python-escpos (an independent implementation, never part
of the product) writes the same commands, and the Swift tests compare bytes.

    escpos_referee.py qr HEXPAYLOAD SIZE EC      native QR (GS ( k); payload must be UTF-8 text
                                                  because python-escpos encodes a str; EC is L/M/Q/H
    escpos_referee.py qr-lines                    the same for each stdin line "HEXPAYLOAD SIZE EC",
                                                  one output line each (one interpreter start)
    escpos_referee.py raster FRAGMENT < image.pgm GS v 0 of a binary (P5) PGM, bands of FRAGMENT rows
    escpos_referee.py cut                         feed and full cut

Prints the bytes as one line of lowercase hex. Anything python-escpos prints itself goes to stderr.
"""
import contextlib
import io
import sys

from escpos.printer import Dummy
from escpos.constants import QR_ECLEVEL_L, QR_ECLEVEL_M, QR_ECLEVEL_Q, QR_ECLEVEL_H
from PIL import Image

LEVELS = {"L": QR_ECLEVEL_L, "M": QR_ECLEVEL_M, "Q": QR_ECLEVEL_Q, "H": QR_ECLEVEL_H}


def native_qr(hex_payload, size, level):
    printer = Dummy()
    text = bytes.fromhex(hex_payload).decode("utf-8")
    printer.qr(text, ec=LEVELS[level], size=int(size), native=True)
    return printer.output


def main(argv):
    printer = Dummy()
    command = argv[1]
    if command == "qr-lines":
        for line in sys.stdin:
            if line.strip():
                sys.stdout.write(native_qr(*line.split()).hex() + "\n")
        return
    with contextlib.redirect_stdout(sys.stderr):
        if command == "qr":
            printer._raw(native_qr(argv[2], argv[3], argv[4]))
        elif command == "raster":
            image = Image.open(io.BytesIO(sys.stdin.buffer.read()))
            # No media width in the Dummy profile: no centring and no width check, as in ours.
            printer.image(image, impl="bitImageRaster", fragment_height=int(argv[2]))
        elif command == "cut":
            printer.cut()
        else:
            raise SystemExit(f"unknown command {command}")
    sys.stdout.write(printer.output.hex() + "\n")


if __name__ == "__main__":
    main(sys.argv)
