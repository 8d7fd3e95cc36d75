"""The board picture of a guided session: known lit, known dark, and how likely each other cell is lit.

A picture is a list of (style, text) fragments, the shape prompt_toolkit prints as formatted
text; joining the texts gives the plain picture, so the same drawing serves a colour terminal,
NO_COLOR and a pipe. Cells are drawn from the probabilities P(cell lit now): 1 is known lit,
0 is known dark, anything between is shown as a percentage. The suggested cell is bracketed.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from countlo.board import Shape, column_letters
from countlo.countboard import CountBoard, PressBoard
from countlo.i18n import _
from countlo.i18n import width as columns
from countlo.ui.layout import pack

Fragments = list[tuple[str, str]]

SURE = 1e-9  # probabilities this close to 0 or 1 count as known

LIT, DARK = "##", ".."  # plain glyphs; colour styles draw them as a lamp and a dot
NEEDED, SPARED = "+", "-"  # marks after a cell: in the press set whatever the board, or never

STYLE = {
    "label": "#8a8a8a",
    "cell.lit": "bg:#d7af00 #000000 bold",
    "cell.dark": "bg:#262626 #6c6c6c",
    "cell.unknown": "#000000",
    "cell.suggest": "reverse bold",
    "mark": "bold #ff5f5f",
    "cursor": "underline reverse",  # practice's keyboard cursor (arrow keys, Space clicks it)
    "needed": "bold #87d787",
    "spared": "bold #8a8a8a",
    "advice": "bold",
    "cellname": "bold #5fd7ff",
    "count": "bold #ffd75f",
    "ok": "#87d787",
    "warn": "bold #ff8700",
    "note": "#8a8a8a",
    "legend": "#8a8a8a",
    "bottom-toolbar": "noreverse bg:#303030 #d0d0d0",
    "bottom-toolbar.key": "bold #ffd75f",
}

LIGHT = {  # the same classes on a light background: no yellow or cyan text, key numbers bold
    "label": "#585858",
    "mark": "bold #af0000",
    "needed": "bold #005f00",
    "spared": "bold #585858",
    "cellname": "bold",  # the default foreground, bold: readable on any background
    "count": "bold",
    "ok": "bold #005f00",
    "warn": "bold #af0000",
    "note": "#585858",
    "legend": "#585858",
    "bottom-toolbar": "noreverse bg:#d0d0d0 #000000",
    "bottom-toolbar.key": "bold",
}


def styles(light: bool = False) -> dict[str, str]:
    """Every style rule of the pictures and the session: for a dark background, or with the
    LIGHT overrides for a light one."""
    return {**STYLE, **(LIGHT if light else {}), **shade_styles()}


_SHADES = 8  # background steps between dark (p near 0) and lit (p near 1)


def shade_styles() -> dict[str, str]:
    """Style rules for cell.unknown.0 .. cell.unknown.7: backgrounds from dark grey to amber."""
    lo, hi = (0x3a, 0x3a, 0x3a), (0xd7, 0xaf, 0x00)
    out = {}
    for i in range(_SHADES):
        t = (i + 0.5) / _SHADES
        rgb = "".join(f"{round(a + (b - a) * t):02x}" for a, b in zip(lo, hi))
        fg = "#000000" if t > 0.45 else "#e4e4e4"
        out[f"cell.unknown.{i}"] = f"bg:#{rgb} {fg}"
    return out


def glyph(p: float) -> tuple[str, str]:
    """(style, two-character text) of a cell lit with probability p: lit, dark or a percentage."""
    if p >= 1 - SURE:
        return "class:cell.lit", LIT
    if p <= SURE:
        return "class:cell.dark", DARK
    pct = min(99, max(1, round(100 * p)))
    shade = min(_SHADES - 1, int(p * _SHADES))
    return f"class:cell.unknown.{shade}", f"{pct:2d}"


NAMES_A_ROW = 8  # a board without a grid: its lights in rows of this many, names over values


def grid_of(shape: CountBoard) -> tuple[Shape, list[int | None]] | None:
    """The grid a board is drawn on and the light in each of its cells (None: a hole); None for
    a graph or a buttons table, drawn as rows of light names."""
    if isinstance(shape, Shape):
        return shape, list(range(shape.cells))
    if isinstance(shape, PressBoard) and shape.grid is not None:
        at: list[int | None] = [None] * shape.grid.cells
        for light, cell in enumerate(shape.places):
            at[cell] = light
        return shape.grid, at
    return None


def _cell(lit: Sequence[float], k: int, suggest: int | None, marks: Mapping[int, str], room: int = 2) -> Fragments:
    """One light: its glyph in `room` columns between brackets (suggested), or a space and its mark."""
    style, text = glyph(lit[k])
    text = text.rjust(room)
    if k == suggest:
        return [("class:mark", "["), (f"{style} class:cell.suggest", text), ("class:mark", "]")]
    if k in marks:
        return [("", " "), (style, text), (_MARK_STYLE[marks[k]], marks[k])]
    return [("", " "), (style, text), ("", " ")]


def _light(shape: CountBoard, k: int) -> str:
    return shape.light(k) if isinstance(shape, PressBoard) else shape.name(k)


def picture(shape: CountBoard, lit: Sequence[float], suggest: int | None = None,
            side: Sequence[Fragments] = (), marks: Mapping[int, str] | None = None) -> Fragments:
    """The board as fragments: column letters, then one line per row with its 1-based number
    (a hole blank); a board without a grid as rows of light names, each over its value.

    Each cell takes four columns, " 37 ", with brackets "[37]" around the suggested cell and a
    mark (NEEDED or SPARED, from `marks`) in the fourth column of the others, " 37+";
    `side` lines (e.g. the legend) are set to the right of the first rows.
    """
    marks = marks or {}
    if len(lit) != shape.cells:
        raise ValueError(f"{len(lit)} probabilities for a {shape} board")
    drawn = grid_of(shape)
    lines: list[Fragments] = []
    if drawn is None:
        for first in range(0, shape.cells, NAMES_A_ROW):
            ks = range(first, min(first + NAMES_A_ROW, shape.cells))
            rooms = [max(2, columns(_light(shape, k))) for k in ks]
            lines.append([("class:label", f" {_light(shape, k):>{room}} ") for k, room in zip(ks, rooms)])
            lines.append([f for k, room in zip(ks, rooms) for f in _cell(lit, k, suggest, marks, room)])
        head: Fragments = []
    else:
        grid, at = drawn
        pad = len(str(grid.rows))
        head = [("", " " * (pad + 1))] + [("class:label", f" {column_letters(c):<2} ") for c in range(grid.cols)]
        for r in range(grid.rows):
            line: Fragments = [("class:label", f"{r + 1:>{pad}} ")]
            for c in range(grid.cols):
                k = at[r * grid.cols + c]
                line += [("", "    ")] if k is None else _cell(lit, k, suggest, marks)
            lines.append(line)
    out: Fragments = head + [("", "\n")] if head else []
    for r, line in enumerate(lines):
        out += line
        if r < len(side):
            out += [("", "    ")] + list(side[r])
        out.append(("", "\n"))
    width = picture_width(shape)
    for extra in side[len(lines):]:  # a short board: the rest of the side lines below it
        out += [("", " " * width + "    ")] + list(extra) + [("", "\n")]
    return out


_MARK_STYLE = {NEEDED: "class:needed", SPARED: "class:spared"}


def _mark_words(mark: str) -> str:
    return " " + (_("needed, any board") if mark == NEEDED else _("never needed"))


def legend_lines(marks: Collection[str] = ()) -> list[Fragments]:
    """The legend as short lines to set beside the board; a line per kind of mark in `marks`."""
    out = [
        [("class:cell.lit", LIT), ("class:legend", " " + _("lit"))],
        [("class:cell.dark", DARK), ("class:legend", " " + _("dark"))],
        [("class:cell.unknown.2", "nn"), ("class:legend", " " + _("% chance lit"))],
        [("class:mark", "["), ("class:legend", "  "), ("class:mark", "]"),
         ("class:legend", " " + _("click this"))],
    ]
    for mark in (NEEDED, SPARED):
        if mark in marks:
            out.append([("class:cell.unknown.2", "nn"), (_MARK_STYLE[mark], mark),
                        ("class:legend", _mark_words(mark))])
    return out


def legend(marks: Collection[str] = (), width: int | None = None) -> Fragments:
    """The legend on one line and the marks (if any) on a second, or on as few lines as fit in
    `width` columns (entries whole)."""
    lines = legend_lines(marks)
    if width is None:
        out: Fragments = []
        for i, line in enumerate(lines):
            out += line + [("", "\n" if i in (3, len(lines) - 1) else "   ")]
        return out
    return pack(lines, width)


def legend_width(marks: Collection[str] = ()) -> int:
    """Columns the legend takes when set beside the board (its widest line)."""
    return max(columns(plain(line)) for line in legend_lines(marks))


def picture_width(shape: CountBoard) -> int:
    """Columns the board picture takes: row numbers, then four columns a cell (a board without a
    grid: its widest row of names)."""
    drawn = grid_of(shape)
    if drawn is None:
        return max(sum(max(2, columns(_light(shape, k))) + 2
                       for k in range(first, min(first + NAMES_A_ROW, shape.cells)))
                   for first in range(0, shape.cells, NAMES_A_ROW))
    grid = drawn[0]
    return len(str(grid.rows)) + 1 + 4 * grid.cols


def plain(fragments: Fragments) -> str:
    """The text of fragments without styles."""
    return "".join(text for _, text in fragments)


def board_picture(shape: CountBoard, board: int, suggest: int | None = None) -> Fragments:
    """The picture of a fully known board (bitset): every cell lit or dark."""
    return picture(shape, [float(board >> k & 1) for k in range(shape.cells)], suggest)
