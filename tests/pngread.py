"""An independent PNG reader for the picture tests: chunks, CRCs, zlib, filter-0 rows."""

from __future__ import annotations

import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def read_png(data: bytes) -> tuple[int, int, list[tuple[int, int, int]], list[bytes]]:
    """(width, height, palette, rows of palette indices) of an 8-bit palette PNG."""
    assert data.startswith(SIGNATURE), "not a PNG file"
    pos, idat, palette = len(SIGNATURE), bytearray(), []
    width = height = 0
    kinds = []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, f"bad CRC in {kind!r}"
        kinds.append(kind)
        if kind == b"IHDR":
            width, height, depth, colour, comp, filt, inter = struct.unpack(">IIBBBBB", body)
            assert (depth, colour, comp, filt, inter) == (8, 3, 0, 0, 0)
        elif kind == b"PLTE":
            palette = [(body[i], body[i + 1], body[i + 2]) for i in range(0, len(body), 3)]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND"
    raw = zlib.decompress(bytes(idat))
    stride = width + 1
    assert len(raw) == stride * height
    rows = []
    for y in range(height):
        line = raw[y * stride:(y + 1) * stride]
        assert line[0] == 0, "only filter-0 rows expected"
        rows.append(line[1:])
    return width, height, palette, rows
