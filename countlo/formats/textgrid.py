"""Visible boards as text: reading grids and `--lit` lists, and printing boards and press sets.

Grid format: one line per board row, one character per cell, spaces between cells optional.
Lit: ``1 # * O``; dark: ``0 . -``. Blank lines are skipped. A line made only of cell
characters and spaces is always a board row (so ``# . #`` is a row); any other line whose first
non-space character is ``#`` is a comment (``# my start``). Anything else is an error naming the
line and column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from countlo.board import Shape, column_letters
from countlo.errors import BadCellError, BoardFormatError
from countlo.i18n import _, ljust
from countlo.tokens import is_whole, shown

LIT = "1#*O"
DARK = "0.-"
_CELLS = set(LIT + DARK)
_TO_BITS = str.maketrans({**{ch: "1" for ch in LIT}, **{ch: "0" for ch in DARK},
                          " ": None, "\t": None})
_LIT_SEP = re.compile(r"\s*,\s*|\s+")


def board_heads(comments: Sequence[tuple[int, str]]) -> list[int]:
    """The lines among the (line, text) comments of a grid file that head a board of `countlo
    generate --count N` ('# board 2: fewest presses 5', in any language countlo speaks)."""
    if len(comments) < 2:
        return []
    from countlo.i18n import LANGUAGES, speaking  # noqa: PLC0415 (a file with comments only)

    patterns = []
    for lang in LANGUAGES:
        with speaking(lang):
            before, _i, after = _("# board {i}").partition("{i}")
        squeezed = ["".join(part.split()) for part in (before, after)]  # spaces do not count
        patterns.append(re.compile(re.escape(squeezed[0]) + r"\d+(?!\d)" + re.escape(squeezed[1])))
    return [n for n, text in comments if any(p.match("".join(text.split())) for p in patterns)]


def one_board(comments: Sequence[tuple[int, str]], source: str) -> None:
    """Refuse a file holding several generated boards: read as one, they would make one tall
    board nobody asked for. Taking the first in silence would hide the others, so the user
    chooses (issue 26, item 9)."""
    heads = board_heads(comments)
    if len(heads) > 1:
        raise BoardFormatError(_("{source} holds {n} boards (the '# board' lines {lines}, as countlo generate "
                                 "writes them): copy the one you want into a file of its own").format(
            source=source, n=len(heads), lines=", ".join(map(str, heads))))


def parse_grid(text: str, source: str = "input") -> tuple[Shape, list[int]]:
    """(shape, row ints) of a text grid; bit c of a row is column c (leftmost = bit 0)."""
    rows: list[int] = []
    comments: list[tuple[int, str]] = []
    width = first_line = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        body = line.strip()
        if not body:
            continue
        # any Unicode space separates cells (a no-break space pasted from a web page)
        bits = "".join(body.split()).translate(_TO_BITS)
        if bits.strip("01"):
            if body.startswith("#"):
                comments.append((lineno, body))
                continue  # a comment: not made only of cell characters
            col = next(i for i, ch in enumerate(line, 1) if ch not in _CELLS and not ch.isspace())
            raise BoardFormatError(
                _("{source} line {line}, column {col}: unknown character {char!r} (lit: {lit}; "
                  "dark: {dark})").format(source=source, line=lineno, col=col, char=line[col - 1],
                                          lit=" ".join(LIT), dark=" ".join(DARK))
            )
        if not rows:
            width, first_line = len(bits), lineno
        elif len(bits) != width:
            raise BoardFormatError(
                _("{source} line {line}: {n} cells, but line {first} has {width} (rows must all "
                  "be the same length)").format(source=source, line=lineno, n=len(bits),
                                                first=first_line, width=width)
            )
        rows.append(int(bits[::-1], 2))
    if not rows:
        raise BoardFormatError(_("{source}: no board rows found").format(source=source))
    one_board(comments, source)
    return Shape(len(rows), width), rows


def lit_items(text: str) -> list[str]:
    """The items of a --lit list, separated by commas or spaces (a comma at either end is let
    pass); two commas in a row are an error, as they most likely hide a typo such as 1,,2 for 1,12."""
    body = text.strip().strip(",").strip()
    if not body:
        return []
    items = _LIT_SEP.split(body)
    if "" in items:
        raise BadCellError(_("--lit has an empty item (two commas in a row) in {text}").format(text=shown(text)))
    return items


_A1_NAME = re.compile(r"^[A-Za-z]{1,3}[0-9]{1,5}$")


def parse_lit(text: str, shape: Shape) -> list[int]:
    """Row ints of the board whose lit cells are the 1-based reading-order numbers, or the A1
    names, in `text`.

    Cell k is row (k - 1) // C + 1, column (k - 1) % C + 1; items are separated by commas or
    spaces; a cell off the board or listed twice is an error naming it.
    """
    rows = [0] * shape.rows
    seen: set[int] = set()
    for item in lit_items(text):
        if _A1_NAME.match(item):  # a cell named as everywhere else (A1 is the top-left)
            k = shape.parse_cell(item) + 1
        elif not is_whole(item):
            raise BadCellError(_("--lit item {item} is not a cell number (1-{cells})").format(
                item=shown(item), cells=shape.cells))
        else:
            k = int(item)
        if not 1 <= k <= shape.cells:
            raise BadCellError(_("--lit item {item} is off the {shape} board (cells 1-{cells})").format(
                item=shown(item)[1:-1], shape=shape, cells=shape.cells))
        if k in seen:
            raise BadCellError(_("--lit item {item} is listed twice").format(item=item))
        seen.add(k)
        r, c = divmod(k - 1, shape.cols)
        rows[r] |= 1 << c
    return rows


def format_rows(rows: Sequence[int], cols: int, on: str = "1", off: str = "0") -> str:
    """The rows as text lines, one character per cell (readable back by parse_grid)."""
    table = str.maketrans({"1": on, "0": off})
    return "\n".join(format(r, f"0{cols}b")[::-1].translate(table) for r in rows) + "\n"


def side_by_side(shape: Shape, panels: Sequence[tuple[str, Sequence[int], str, str]]) -> str:
    """Grids next to each other under their titles, with column letters and row numbers.

    Each panel is (title, rows, lit character, dark character).
    """
    num = len(str(shape.rows))
    letters = [column_letters(c) for c in range(shape.cols)]
    cw = max(len(s) for s in letters)
    width = num + 1 + shape.cols * (cw + 1)
    gap = "   "

    def cell_line(rows: Sequence[int], r: int, on: str, off: str) -> str:
        bits = format(rows[r], f"0{shape.cols}b")[::-1]
        cells = " ".join((on if b == "1" else off).rjust(cw) for b in bits)
        return f"{r + 1:>{num}}  {cells}".ljust(width)

    # titles padded by terminal columns: a Chinese title's characters take two each
    head = gap.join(ljust(title, width) for title, *_ in panels)
    cols = gap.join((" " * (num + 2) + " ".join(s.rjust(cw) for s in letters)).ljust(width)
                    for _ in panels)
    body = [gap.join(cell_line(rows, r, on, off) for _, rows, on, off in panels)
            for r in range(shape.rows)]
    return "\n".join(line.rstrip() for line in [head, cols, *body]) + "\n"


def cell_names(shape: Shape, rows: Sequence[int]) -> list[str]:
    """A1 names of the set cells of the rows, in reading order."""
    return [f"{column_letters(c - 1)}{r}" for r, c in cell_pairs(rows)]


def cell_pairs(rows: Sequence[int]) -> list[list[int]]:
    """1-based [row, column] pairs of the set cells of the rows, in reading order."""
    out = []
    for r, row in enumerate(rows):
        while row:
            low = row & -row
            out.append([r + 1, low.bit_length()])
            row ^= low
    return out


def percent_grid(shape: Shape, probabilities: list[float]) -> list[str]:
    """Per-cell probabilities as whole percentages, columns lettered and rows numbered."""
    label = len(str(shape.rows))
    out = [" " * (label + 1) + "".join(column_letters(c).rjust(4) for c in range(shape.cols))]
    for r in range(shape.rows):
        row = probabilities[r * shape.cols:(r + 1) * shape.cols]
        out.append(f"{r + 1:>{label}} " + "".join(f"{round(100 * p):>4}" for p in row))
    return out
