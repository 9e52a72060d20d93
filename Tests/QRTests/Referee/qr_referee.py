#!/usr/bin/env python3
"""Independent QR implementations as referees for Tender's QR module (never product code).

  qr_referee.py decode IMAGE        -> hex of each code's bytes that zxing-cpp finds, one a line
  qr_referee.py encode HEX OUT.png  -> segno writes HEX as a byte-mode, level-M code (4 px, 4 quiet)
"""
import sys

import segno
import zxingcpp
from PIL import Image


def decode(path):
    results = zxingcpp.read_barcodes(Image.open(path).convert("L"), formats=zxingcpp.BarcodeFormat.QRCode)
    for result in results:
        print(result.bytes.hex())


def encode(hex_payload, out):
    data = bytes.fromhex(hex_payload)
    segno.make(data, error="m", mode="byte", boost_error=False).save(out, scale=4, border=4)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "decode":
        decode(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "encode":
        encode(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
