"""Laying a session out for the terminal's width: words wrapped whole, the status bar shortened.

A terminal wraps a long line wherever the right edge falls, splitting words ("si/mulated").
`fit` breaks (style, text) fragments at spaces instead, keeping each line within the width and
continuing a wrapped line under its own indentation; `bar` keeps the status bar's most important
parts (clicks, boards left, ...) that fit, whole, instead of cutting it mid-number. Below
MIN_WIDTH columns the layout cannot hold the board picture: `narrow_note` says so, once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from countlo.i18n import NO_BREAK_BEFORE, _
from countlo.i18n import width as columns

Fragments = list[tuple[str, str]]

MIN_WIDTH = 40
"""Narrowest terminal laid out properly (a 6x6 picture with its legend below it needs 28)."""

_TOKEN = re.compile(r"\S+|[ ]+")


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
    stay whole) or between Chinese characters."""
    if width <= 0:
        return list(fragments)
    out: Fragments = []
    column = 0
    indent = ""
    for style, text in fragments:
        pieces = text.split("\n")
        for i, piece in enumerate(pieces):
            if i:
                out.append((style, "\n"))
                column, indent = 0, ""
            if column == 0:
                indent = " " * (len(piece) - len(piece.lstrip(" ")))
                indent = indent if len(indent) < width // 2 else ""
            at_edge = False
            for token in _tokens(piece):
                if token.startswith(" "):
                    if column + columns(token) >= width:  # a space at the edge: the break goes here
                        at_edge = True
                        continue
                    out.append((style, token))
                    column += columns(token)
                    continue
                if (at_edge or column + columns(token) > width) and column > len(indent):
                    while out and out[-1][1].strip(" ") == "" and out[-1][1] != "\n":
                        column -= columns(out.pop()[1])  # no trailing spaces before the break
                    out.append((style, "\n" + indent))
                    column = len(indent)
                at_edge = False
                out.append((style, token))
                column += columns(token)
    merged: Fragments = []
    for style, piece in out:
        if merged and merged[-1][0] == style:
            merged[-1] = (style, merged[-1][1] + piece)
        elif piece:
            merged.append((style, piece))
    return merged


def bar(parts: list[str], width: int, sep: str = " · ") -> str:
    """As many of `parts` (most important first) as fit in `width` columns, joined by `sep`."""
    shown: list[str] = []
    for part in parts:
        if columns(sep.join([*shown, part])) + 2 > width:
            break
        shown.append(part)
    return " " + sep.join(shown) + " " if shown else ""


def narrow_note(width: int, need: int) -> str | None:
    """One line for a terminal too narrow to lay the session out, or None if it is wide enough."""
    need = max(need, MIN_WIDTH)
    if width >= need:
        return None
    return _("This terminal is {width} columns wide; countlo needs {need} to lay out the board: lines "
             "will wrap.").format(width=width, need=need)
