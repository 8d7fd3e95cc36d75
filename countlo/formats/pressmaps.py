"""Press map files (`--buttons FILE`): a table of buttons and the lights each changes, or a matrix.

Table: one button a line, `NAME: LIGHT LIGHT ...`, the lights that pressing NAME changes; with
more than two states `LIGHT*m` adds m (1..k-1) instead of 1. `NAME:` alone is a button that
changes nothing. An optional `lights: a b c` line before any button fixes the lights and their
order (a light not on it is then an error); otherwise the lights are named by the buttons, in
order of first appearance. On a grid (`--size RxC`) the lights are its cells, by A1 name, in
reading order; buttons named by the cells, one per cell, are put in reading order too, so the
board is drawn as a grid.

Matrix: one row per button, one column per light, entries 0..k-1: digits, spaces between them
optional for k <= 10, spaced numbers above. Buttons are b1, b2, ... and lights L1, L2, ...; on a
grid the columns are its cells in reading order (and a square matrix's buttons are the cells).

Both: blank lines are skipped and '#' starts a comment. Every mistake names the file and line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from countlo.board import Shape
from countlo.errors import BadCellError, BadRuleError, BadSizeError
from countlo.i18n import _
from countlo.pressmap import MAX_ENTRIES, MAX_SIDE, PressMap
from countlo.tokens import is_whole, shown

_NAME = re.compile(r"^[^\s,=#:*]+$")
_ROW = re.compile(r"^[0-9][0-9\s]*$")


def parse_press_map(text: str, states: int, source: str, grid: Shape | None = None) -> PressMap:
    """The press map of a table or matrix file (module docstring), with `states` states; its
    lights the cells of `grid` when given."""
    for raw in text.splitlines():
        body = raw.split("#", 1)[0].strip()
        if body:
            if _ROW.match(body):
                return _matrix(text, states, source, grid)
            return _table(text, states, source, grid)
    raise BadRuleError(_("{source}: no buttons (expected 'BUTTON: LIGHT LIGHT ...' lines or a 0/1 matrix)").format(
        source=source))


def _lines(text: str, source: str) -> Iterator[tuple[int, str, str]]:
    """(line number, 'SOURCE:LINE: ' for a message, the text) of each line that is not blank once
    its comment (from #) is gone: the lines of a table and of a matrix alike."""
    for lineno, raw in enumerate(text.splitlines(), 1):
        body = raw.split("#", 1)[0].strip()
        if body:
            yield lineno, _where(source, lineno), body


def _where(source: str, lineno: int) -> str:
    return f"{source}:{lineno}: "


def _table(text: str, states: int, source: str, grid: Shape | None) -> PressMap:
    lights: list[str] = [] if grid is None else [grid.name(i) for i in range(grid.cells)]
    index = {n: i for i, n in enumerate(lights)}
    fixed = grid is not None
    buttons: list[str] = []
    first: dict[str, int] = {}
    changes: list[tuple[tuple[int, int], ...]] = []
    held = 0
    for lineno, at, body in _lines(text, source):
        head, colon, rest = body.partition(":")
        head = head.strip()
        if not colon or not head:
            raise BadRuleError(at + _("expected 'BUTTON: LIGHT LIGHT ...', got {text}").format(text=shown(body)))
        if head.lower() == "lights" and not buttons and not fixed:
            for name in rest.replace(",", " ").split():
                _check_name(name, at)
                if name in index:
                    raise BadRuleError(at + _("light {name} is listed twice").format(name=shown(name)))
                index[name] = len(lights)
                lights.append(name)
            fixed = True
            continue
        if head.lower() == "lights":
            raise BadRuleError(at + _("'lights:' must come once, before any button"))
        name = _button_name(head, at, grid)
        if name in first:
            raise BadRuleError(at + _("button {name} is listed twice (first on line {line})").format(
                name=shown(name), line=first[name]))
        if len(buttons) >= MAX_SIDE:
            raise BadSizeError(at + _("more than {most} buttons").format(most=MAX_SIDE))
        first[name] = lineno
        got: dict[int, int] = {}
        for item in rest.replace(",", " ").split():
            light, m = item, 1
            if "*" in item:
                light, _star, times = item.partition("*")
                m = int(times) if is_whole(times) else -1
                if not 1 <= m < states:
                    raise BadRuleError(at + _("{item}: the multiplier must be 1..{last} with {k} states").format(
                        item=shown(item), last=states - 1, k=states))
            i = index.get(light, -1) if grid is None else -1  # a light seen before: its index at once
            if i < 0:
                i = _light(light, at, grid, index, lights, fixed)
            if i in got:
                raise BadRuleError(at + _("light {light} is listed twice for button {button}; write {light}*2 for "
                                          "a press that changes it twice").format(light=shown(light),
                                                                                 button=shown(name)))
            got[i] = m
        held += len(got)
        if held > MAX_ENTRIES:
            raise BadSizeError(at + _("more than {most} button-light pairs").format(most=f"{MAX_ENTRIES:,}"))
        buttons.append(name)
        changes.append(tuple((i, got[i]) for i in sorted(got)))  # ints sort faster than pairs
    if not buttons:
        raise BadRuleError(_("{source}: no buttons (expected 'BUTTON: LIGHT LIGHT ...' lines or a 0/1 matrix)").format(
            source=source))
    if not lights:
        raise BadRuleError(_("{source}: no lights: no button changes anything").format(source=source))
    if len(lights) > MAX_SIDE:
        raise BadSizeError(_("{source}: more than {most} lights").format(source=source, most=MAX_SIDE))
    if grid is not None and sorted(buttons) == sorted(lights):  # one button per cell: in reading order
        order = sorted(range(len(buttons)), key=lambda j: index[buttons[j]])
        buttons, changes = [buttons[j] for j in order], [changes[j] for j in order]
    return PressMap(tuple(lights), tuple(buttons), tuple(changes), states,
                    None if grid is None else (grid.rows, grid.cols))


def _button_name(head: str, at: str, grid: Shape | None) -> str:
    """A button's name; on a grid a cell's name is written as the A1 name it stands for."""
    if grid is not None and " " not in head:
        try:
            return grid.name(grid.parse_cell(head))
        except BadCellError:
            pass
    _check_name(head, at, _("button"))
    return head


def _light(text: str, at: str, grid: Shape | None, index: dict[str, int], lights: list[str], fixed: bool) -> int:
    if grid is not None:
        try:
            return grid.parse_cell(text)
        except BadCellError:
            raise BadRuleError(at + _("unknown light {name}: not a cell of the {size} grid").format(
                name=shown(text), size=grid)) from None
    if text not in index:
        if fixed:
            raise BadRuleError(at + _("unknown light {name} (not on the 'lights:' line)").format(name=shown(text)))
        _check_name(text, at)
        index[text] = len(lights)
        lights.append(text)
    return index[text]


def _check_name(name: str, at: str, what: str | None = None) -> None:
    if not _NAME.match(name):
        raise BadRuleError(at + _("bad {what} name {name}").format(what=what or _("light"), name=shown(name)))


BULK = 512  # from this many characters a row of digits is read by numpy (small maps load no numpy)


def _entries(body: str, states: int) -> tuple[int, tuple[tuple[int, int], ...], int | None]:
    """(entries, the non-zero ones as (light, value), the first value not below `states` or None)
    of one matrix row: digits with spaces optional up to 10 states, spaced numbers above."""
    if states > 10:  # spaced numbers (a long one is too large: states are at most 255)
        entries = [int(p) if len(p) <= 3 else states for p in body.split()]
    elif len(body) < BULK:
        entries = [int(ch) for ch in body if not ch.isspace()]
    else:  # a long row (a 2,000-light map has 2,000 a line): its digits as bytes, by numpy
        import numpy as np

        digits = np.frombuffer("".join(body.split()).encode("ascii"), dtype=np.uint8) - np.uint8(48)
        hits = np.flatnonzero(digits)
        over = np.flatnonzero(digits >= states)
        return (len(digits), tuple(zip(hits.tolist(), digits[hits].tolist())),
                int(digits[over[0]]) if len(over) else None)
    bad = next((v for v in entries if v >= states), None)
    return len(entries), tuple((i, v) for i, v in enumerate(entries) if v), bad


def _matrix(text: str, states: int, source: str, grid: Shape | None) -> PressMap:
    rows: list[tuple[tuple[int, int], ...]] = []
    width = first = 0
    held = 0
    for lineno, at, body in _lines(text, source):
        if not _ROW.match(body):
            raise BadRuleError(at + _("expected a row of the matrix (entries 0..{last}), got {text}").format(
                last=states - 1, text=shown(body)))
        n, row, bad = _entries(body, states)
        if rows and n != width:
            raise BadRuleError(at + _("{n} entries, but line {first} has {width} (rows must all be the same "
                                      "length)").format(n=n, first=first, width=width))
        if not rows:
            width, first = n, lineno
            if width > MAX_SIDE:
                raise BadSizeError(at + _("more than {most} lights").format(most=MAX_SIDE))
        if bad is not None:
            raise BadRuleError(at + _("entry {value} is not below the number of states, {k}").format(
                value=bad, k=states))
        if len(rows) >= MAX_SIDE:
            raise BadSizeError(at + _("more than {most} buttons").format(most=MAX_SIDE))
        held += len(row)
        if held > MAX_ENTRIES:
            raise BadSizeError(at + _("more than {most} button-light pairs").format(most=f"{MAX_ENTRIES:,}"))
        rows.append(row)
    if grid is not None:
        if width != grid.cells:
            raise BadRuleError(_("{source}:{line}: {n} columns (lights), but the {size} grid has {cells} cells").format(
                source=source, line=first, n=width, size=grid, cells=grid.cells))
        lights = tuple(grid.name(i) for i in range(grid.cells))
        buttons = lights if len(rows) == grid.cells else tuple(f"b{j}" for j in range(1, len(rows) + 1))
        return PressMap(lights, buttons, tuple(rows), states, (grid.rows, grid.cols))
    return PressMap(tuple(f"L{i}" for i in range(1, width + 1)), tuple(f"b{j}" for j in range(1, len(rows) + 1)),
                    tuple(rows), states)
