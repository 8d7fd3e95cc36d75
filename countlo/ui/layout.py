"""Laying a session out for the terminal's width: words wrapped whole, the status bar shortened.

A terminal wraps a long line wherever the right edge falls, splitting words ("si/mulated").
`fit` breaks (style, text) fragments at spaces instead, keeping each line within the width and
continuing a wrapped line under its own indentation (or under the second column of a two-column
line such as "  hint      one click ..."); a single word longer than the line (a file path) is
broken after a '/'. `bar` keeps the status bar's most important parts (clicks, boards left, ...)
that fit, whole, instead of cutting it mid-number ("16.7/3"). `side_by_side` says whether a
legend fits to the right of the board picture; `pack` sets short items (the legend's entries)
on as few lines as the width allows. Below MIN_WIDTH columns the layout cannot hold the
session's lines: `narrow_note` says so in one line, once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, cast

from countlo.i18n import NO_BREAK_BEFORE, _
from countlo.i18n import width as columns

Fragments = list[tuple[str, str]]

MIN_WIDTH = 40
"""Narrowest terminal laid out properly (a 6x6 picture with its legend below it needs 28)."""

GAP = 4
"""Columns between the board picture and a legend set beside it."""

_TOKEN = re.compile(r"\S+|[ ]+")
_COLUMN = re.compile(r"^( *\S+(?: \S+)*?  +)\S")  # a two-column line: "  hint      one click"


def _hanging(piece: str, width: int) -> str:
    """The indentation that continues a wrapped line: under its second column if it has one,
    else under its first word."""
    column = _COLUMN.match(piece)
    if column is not None and columns(column.group(1)) <= width // 2:
        return " " * columns(column.group(1))
    indent = " " * (len(piece) - len(piece.lstrip(" ")))
    return indent if len(indent) < width // 2 else ""


def _pieces(token: str, room: int) -> list[str]:
    """A word longer than `room` columns cut after its '/' (a path), else left whole."""
    if columns(token) <= room or "/" not in token:
        return [token]
    return [p for p in re.split(r"(?<=/)", token) if p]


def _tokens(piece: str) -> Iterator[str]:
    """Runs of spaces and the words between them; Chinese, written without spaces, may break
    between any two characters, except before closing punctuation (i18n.NO_BREAK_BEFORE)."""
    for token in _TOKEN.findall(piece):
        if token.isascii():
            yield token
            continue
        cur, ended = "", False
        for ch in token:
            if ch in NO_BREAK_BEFORE:
                cur, ended = cur + ch, True
                continue
            wide = columns(ch) == 2
            if cur and (wide or ended):
                yield cur
                cur = ""
            cur, ended = cur + ch, wide
        if cur:
            yield cur


def fit(fragments: Fragments, width: int) -> Fragments:
    """`fragments` with every line longer than `width` terminal columns broken at spaces (words
    stay whole) or between Chinese characters.

    A fragment may carry a third item (a mouse handler); its pieces keep it."""
    if width <= 0:
        return list(fragments)
    lines = "".join(f[1] for f in fragments).split("\n")
    indents = [_hanging(text, width) for text in lines]  # a line's fragments may differ in style
    out: list[tuple[Any, ...]] = []
    row, column = 0, 0
    for fragment in fragments:
        style, text = fragment[0], fragment[1]
        extra: tuple[Any, ...] = tuple(fragment[2:])
        for i, piece in enumerate(text.split("\n")):
            if i:
                out.append((style, "\n", *extra))
                row, column = row + 1, 0
            indent = indents[row]
            at_edge = False
            for word in _tokens(piece):
                if word.startswith(" "):
                    if column + columns(word) >= width:  # a space at the edge: the break goes here
                        at_edge = True
                        continue
                    out.append((style, word, *extra))
                    column += columns(word)
                    continue
                for token in _pieces(word, width - len(indent)):
                    if (at_edge or column + columns(token) > width) and column > len(indent):
                        while out and out[-1][1].strip(" ") == "" and out[-1][1] != "\n":
                            column -= columns(out.pop()[1])  # no trailing spaces before the break
                        out.append((style, "\n" + indent))
                        column = len(indent)
                    at_edge = False
                    out.append((style, token, *extra))
                    column += columns(token)
    merged: list[tuple[Any, ...]] = []
    for style, piece, *rest in out:
        if merged and merged[-1][0] == style and list(merged[-1][2:]) == rest:
            merged[-1] = (style, merged[-1][1] + piece, *rest)
        elif piece:
            merged.append((style, piece, *rest))
    return cast(Fragments, merged)


def wrapped(text: str, stream: object) -> str:
    """`text` with its lines broken at word boundaries to the width of the terminal `stream`
    writes to (as `fit` does); unchanged when `stream` is not a terminal (a pipe or a file keeps
    its lines whole for the program reading them)."""
    try:
        if not stream.isatty():  # type: ignore[attr-defined]
            return text
    except (AttributeError, ValueError):
        return text
    import shutil  # noqa: PLC0415 (only for a terminal)

    return "".join(piece for _style, piece in fit([("", text)], shutil.get_terminal_size((80, 24)).columns))


def bar(parts: list[str], width: int, sep: str = " · ") -> str:
    """As many of `parts` (most important first) as fit in `width` columns, joined by `sep`."""
    shown: list[str] = []
    for part in parts:
        if columns(sep.join([*shown, part])) + 2 > width:
            break
        shown.append(part)
    return " " + sep.join(shown) + " " if shown else ""


def status_bar(fragments: Fragments, width: int, sep: str = " · ") -> Fragments:
    """The status bar as it is if it fits, else its most important parts that fit, whole."""
    text = "".join(t for _, t in fragments)
    if columns(text) < width:
        return fragments
    return [("", bar([p.strip() for p in text.split(sep) if p.strip()], width, sep))]


def side_by_side(picture_width: int, side_width: int, width: int) -> bool:
    """True if a block `side_width` wide fits GAP columns to the right of the picture."""
    return picture_width + GAP + side_width <= width


def pack(items: list[Fragments], width: int, gap: str = "   ") -> Fragments:
    """`items` on as few lines as fit in `width` columns, `gap` apart; an item is never split."""
    out: Fragments = []
    column = 0
    for item in items:
        size = sum(columns(text) for _, text in item)
        if column and column + len(gap) + size > width:
            out.append(("", "\n"))
            column = 0
        if column:
            out.append(("", gap))
            column += len(gap)
        out += item
        column += size
    return out + [("", "\n")] if out else out


def narrow_note(width: int, need: int) -> str | None:
    """One line for a terminal too narrow to lay the session out, or None if it is wide enough.

    The longest wording that fits on one line of `width` columns."""
    need = max(need, MIN_WIDTH)
    if width >= need:
        return None
    notes = (_("This terminal is {width} columns wide; countlo needs {need}: some lines will wrap."),
             _("Terminal too narrow: countlo needs {need} columns."),
             _("Too narrow: {need} columns needed."),
             _("Needs {need} columns."))
    shown = [n.format(width=width, need=need) for n in notes]
    return next((n for n in shown if columns(n) <= width), shown[-1])
