"""Files and text people write and read: countlo transcripts (transcripts/README.md), the
hand-written `rows` and `restore` formats, and visible boards as text grids."""

from countlo.formats.hand import detect, dumps_restore, dumps_rows, parse
from countlo.formats.hand import load as load_any
from countlo.formats.text import read_text
from countlo.formats.textgrid import format_rows, parse_grid, parse_lit
from countlo.formats.transcript import (
    Header,
    ImpossibleCountsError,
    Transcript,
    Writer,
    dumps,
    load,
    read,
)

__all__ = [
    "Header",
    "ImpossibleCountsError",
    "Transcript",
    "Writer",
    "detect",
    "dumps",
    "dumps_restore",
    "dumps_rows",
    "format_rows",
    "load",
    "load_any",
    "parse",
    "parse_grid",
    "parse_lit",
    "read",
    "read_text",
]
