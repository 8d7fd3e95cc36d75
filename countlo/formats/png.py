"""A minimal PNG writer: 8-bit palette images, standard library only.

A PNG is a signature and chunks (length, type, data, CRC-32); the pixels are rows, each led by a
filter byte (0: none), deflated with zlib across IDAT chunks (PNG specification, sections 5, 9
and 11). Rows are streamed through one compressor, so a 4095 x 4095 board never sits in memory
as a whole image.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Sequence
from typing import BinaryIO

SIGNATURE = b"\x89PNG\r\n\x1a\n"
IDAT_BYTES = 1 << 20  # compressed bytes per IDAT chunk

Colour = tuple[int, int, int]


def _chunk(out: BinaryIO, kind: bytes, data: bytes) -> None:
    out.write(struct.pack(">I", len(data)) + kind + data)
    out.write(struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def write_png(out: BinaryIO, width: int, height: int, palette: Sequence[Colour],
              rows: Iterable[bytes]) -> None:
    """Write a palette PNG: `rows` yields `height` rows of `width` palette indices (one byte a
    pixel)."""
    if not 1 <= len(palette) <= 256:
        raise ValueError("a PNG palette holds 1 to 256 colours")
    out.write(SIGNATURE)
    # IHDR: width, height, bit depth 8, colour type 3 (palette), compression, filter, interlace.
    _chunk(out, b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
    _chunk(out, b"PLTE", b"".join(bytes(c) for c in palette))
    z = zlib.compressobj(6)
    pending = bytearray()
    n = 0
    for row in rows:
        if len(row) != width:
            raise ValueError(f"row {n} has {len(row)} pixels, expected {width}")
        pending += z.compress(b"\x00" + bytes(row))
        n += 1
        if len(pending) >= IDAT_BYTES:
            _chunk(out, b"IDAT", bytes(pending))
            pending.clear()
    if n != height:
        raise ValueError(f"got {n} rows, expected {height}")
    pending += z.flush()
    _chunk(out, b"IDAT", bytes(pending))
    _chunk(out, b"IEND", b"")
