#!/usr/bin/env python3
"""Loses frames of a raw 8-bit grey clip the way a camera does: every fifth frame (the 5th,
10th, ...) becomes blank (white), exactly 20 % of them.

    python3 lose-frames.py IN OUT WIDTH HEIGHT    # prints "N frames, K lost"
"""
import sys

source, target, width, height = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
frame = width * height
clip = bytearray(open(source, "rb").read())
if not clip or len(clip) % frame:
    sys.exit(f"{source}: {len(clip)} bytes is not whole {width}x{height} frames")
lost = 0
for index in range(4, len(clip) // frame, 5):
    clip[index * frame:(index + 1) * frame] = b"\xff" * frame
    lost += 1
open(target, "wb").write(clip)
print(f"{len(clip) // frame} frames, {lost} lost")
