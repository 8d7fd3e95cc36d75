"""Text formats for games under other rules: k-state grids, graphs, graph states, rule files.

k-state grid: one line per row. With k <= 10 each cell is one digit 0..k-1 (spaces between
cells optional; for k = 2 the classic characters 1 # * O and 0 . - work too); with k > 10 cells
are numbers separated by spaces. For every k, '.' and '-' are 0, as `panels` prints it, so a
printed grid reads back. Blank lines are skipped; a line starting with '#' that is not a
row is a comment.

Graph file: one item per line, '#' starts a comment. `nodes: a b c` (optional, at most once, before
any edge) fixes the node names and their order; `a b` is an edge; a lone name is a node with no
edges; `a -> b` is an arc: pressing a changes b, and pressing b leaves a alone (a directed graph,
whose press matrix is not symmetric). Without a `nodes:` line, nodes are numbered in order of
first appearance. Self-loops, repeated edges and arcs, repeated node names and (with `nodes:`)
unknown nodes are errors naming the line.

Graph state (start or target): node names separated by spaces or commas, each meaning state 1, or
`name=value` for any state 0..k-1; '#' starts a comment; nodes not named are 0.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from countlo.board import Shape, column_letters
from countlo.errors import BadRuleError, BoardFormatError
from countlo.formats.textgrid import one_board
from countlo.graph import Graph
from countlo.i18n import _
from countlo.pressmap import PressMap
from countlo.tokens import is_whole, shown

_CLASSIC = str.maketrans({**{ch: "1" for ch in "1#*O"}, **{ch: "0" for ch in "0.-"}})
_DARK = str.maketrans({ch: "0" for ch in ".-"})
_NAME = re.compile(r"^[^\s,=#]+$")


def parse_grid(text: str, states: int, source: str = "input",
               holes: list[int] | None = None) -> tuple[int, int, list[int]]:
    """(rows, cols, values in reading order) of a k-state grid. With a `holes` list, an `x` is a
    cell that is not there: its index is appended to `holes` and its value is 0.

    Values are kept in one bytearray (every k is at most 255) and each row of digits is read
    by bytes.translate, so a 4095 x 4095 file costs a few C passes, not a Python step per cell."""
    values = bytearray()
    comments: list[tuple[int, str]] = []
    rows = cols = first = 0
    below = bytes(range(min(states, 256)))  # a row's bytes less these: its states too large
    for lineno, line in enumerate(text.splitlines(), 1):
        body = line.strip()
        if not body:
            continue
        cells = _cells(body, states, holes is not None)
        if cells is not None and holes is not None:
            cells = _holes(cells, rows * len(cells), holes)
        if cells is None:
            if body.startswith("#"):
                comments.append((lineno, body))
                continue
            what = _("digits") if states <= 10 else _("numbers")
            raise BoardFormatError(_("{source} line {line}: not a row of states 0..{last} ({what}): "
                                     "{text!r}").format(source=source, line=lineno, last=states - 1,
                                                        what=what, text=body[:40]))
        if (cells.translate(None, below) if isinstance(cells, bytes) else any(v >= states for v in cells)):
            raise BoardFormatError(_("{source} line {line}: state {state} is not below the number of "
                                     "states, {states}").format(source=source, line=lineno,
                                                                state=next(v for v in cells if v >= states),
                                                                states=states))
        if rows and len(cells) != cols:
            raise BoardFormatError(_("{source} line {line}: {n} cells, but line {first} has {width} (rows "
                                     "must all be the same length)").format(
                source=source, line=lineno, n=len(cells), first=first, width=cols))
        if not rows:
            first, cols = lineno, len(cells)
        rows += 1
        values.extend(cells)  # every state is below the number of states, at most 255
    if not rows:
        raise BoardFormatError(_("{source}: no board rows found").format(source=source))
    one_board(comments, source)
    return rows, cols, list(values)


_VALUE_OF_DIGIT = bytes.maketrans(b"0123456789", bytes(range(10)))
_DIGIT_OF_VALUE = bytes.maketrans(bytes(range(10)), b"0123456789")
_NUMBERS = [str(v) for v in range(256)]


_HOLE_BYTE = 254  # an `x` while a row is read (no state is above 254 where digits are read)


def _cells(body: str, states: int, holes: bool = False) -> bytes | list[int] | None:
    """The states of one row, or None when the line is not a row (with `holes`, an `x` reads as
    -1 among numbers, _HOLE_BYTE among digits)."""
    if states > 10:
        parts = ["0" if p in (".", "-") else p for p in body.split()]
        if holes:
            return [-1 if p in ("x", "X") else int(p) for p in parts] if all(
                is_whole(p) or p in ("x", "X") for p in parts) else None
        return [int(p) for p in parts] if all(is_whole(p) for p in parts) else None  # ASCII, bounded
    text = body.replace(" ", "").replace("\t", "")
    text = text.translate(_CLASSIC if states == 2 else _DARK)
    if holes and ("x" in text or "X" in text):
        plain = text.replace("x", "0").replace("X", "0")
        if not (plain.isdigit() and plain.isascii()):
            return None
        row = bytearray(plain.encode("ascii").translate(_VALUE_OF_DIGIT))
        for i, ch in enumerate(text):
            if ch in "xX":
                row[i] = _HOLE_BYTE
        return bytes(row)
    return text.encode("ascii").translate(_VALUE_OF_DIGIT) if text.isdigit() and text.isascii() else None


def _holes(cells: bytes | list[int], first: int, holes: list[int]) -> bytes | list[int]:
    """The row with its holes noted (cell indices from `first`) and read as state 0."""
    if isinstance(cells, bytes):
        if _HOLE_BYTE not in cells:
            return cells
        holes.extend(first + i for i, v in enumerate(cells) if v == _HOLE_BYTE)
        return cells.replace(bytes([_HOLE_BYTE]), b"\x00")
    holes.extend(first + i for i, v in enumerate(cells) if v < 0)
    return [max(v, 0) for v in cells]


def format_grid(shape: Shape, values: Sequence[int]) -> str:
    """The values as a grid readable by `parse_grid` (digits, or spaced numbers above k = 10),
    through bytes (values are below the number of states, at most 255): one C pass turns the
    whole grid into digits, then it is cut into rows. A hole (pressmap.HOLE, -1) is written `x`."""
    k, c = shape.rules.states, shape.cols
    if not isinstance(values, list | tuple | bytes | bytearray):  # e.g. numpy: bytes() would read its memory
        values = [int(v) for v in values]
    if k <= 10 and not (isinstance(values, list | tuple) and -1 in values):
        text = bytes(values).translate(_DIGIT_OF_VALUE)
        return b"\n".join([text[i:i + c] for i in range(0, len(text), c)]).decode("ascii") + "\n"
    sep = " " if k > 10 else ""
    lines = [sep.join("x" if v < 0 else _NUMBERS[v] for v in values[r * c:(r + 1) * c]) for r in range(shape.rows)]
    return "\n".join(lines) + "\n"


def panels(shape: Shape, items: Sequence[tuple[str, Sequence[int]]]) -> str:
    """Grids of values side by side with column letters and row numbers ('.' for 0, 'x' for a hole)."""
    k = shape.rules.states
    num = len(str(shape.rows))
    letters = [column_letters(c) for c in range(shape.cols)]
    cw = max(max(len(s) for s in letters), len(str(k - 1)))
    width = num + 1 + shape.cols * (cw + 1)
    gap = "   "

    def line(values: Sequence[int], r: int) -> str:
        row = values[r * shape.cols:(r + 1) * shape.cols]
        cells = " ".join(("." if v == 0 else "x" if v < 0 else str(v)).rjust(cw) for v in row)
        return f"{r + 1:>{num}}  {cells}".ljust(width)

    head = gap.join(title.ljust(width) for title, _ in items)
    cols = gap.join((" " * (num + 2) + " ".join(s.rjust(cw) for s in letters)).ljust(width)
                    for _ in items)
    body = [gap.join(line(v, r) for _, v in items) for r in range(shape.rows)]
    return "\n".join(s.rstrip() for s in [head, cols, *body]) + "\n"


def parse_graph(text: str, source: str = "graph") -> Graph:
    """The graph of a graph file (rule sigma+ and 2 states until the caller says otherwise)."""
    names: list[str] = []
    index: dict[str, int] = {}
    fixed = False
    edges: dict[tuple[int, int], int] = {}
    arcs: dict[tuple[int, int], int] = {}  # directed: pressing a changes b (docs/MATH.md §27)
    for lineno, raw in enumerate(text.splitlines(), 1):
        # a big file is hundreds of thousands of 'a b' lines: each is split once, and a name is
        # checked when first seen (a name already indexed was checked then)
        if "#" in raw:
            raw = raw.split("#", 1)[0]
        parts = raw.split()
        if not parts:
            continue
        if parts[0][:6].lower() == "nodes:":
            line = raw.strip()
            if fixed or names:
                raise BadRuleError(f"{source}:{lineno}: " + _("'nodes:' must come once, before any edge"))
            for name in line[6:].replace(",", " ").split():
                _check_name(name, source, lineno)
                if name in index:
                    raise BadRuleError(f"{source}:{lineno}: " + _("node {name!r} is listed twice").format(
                        name=name))
                index[name] = len(names)
                names.append(name)
            fixed = True
            continue
        directed = "->" in raw
        if directed:
            line = raw.strip()
            parts = line.replace("->", " ").split()
            if len(parts) != 2 or line.count("->") != 1:
                raise BadRuleError(f"{source}:{lineno}: " + _("expected one arc 'a -> b' (pressing a changes b), "
                                                               "got {text}").format(text=shown(line)))
        if len(parts) > 2:
            raise BadRuleError(f"{source}:{lineno}: " + _("expected one edge 'a b' or one node name, got {n} "
                                                           "names").format(n=len(parts)))
        ids = []
        for name in parts:
            i = index.get(name)
            if i is None:
                _check_name(name, source, lineno)
                if fixed:
                    raise BadRuleError(f"{source}:{lineno}: " + _("unknown node {name!r} (not on the 'nodes:' "
                                                                   "line)").format(name=name))
                i = index[name] = len(names)
                names.append(name)
            ids.append(i)
        if directed:
            if ids[0] == ids[1]:
                raise BadRuleError(f"{source}:{lineno}: " + _("self-loop on {name!r} (use rule sigma+ for a "
                                                               "click that changes the node itself)").format(
                    name=parts[0]))
            arc = (ids[0], ids[1])
            if arc in arcs or (min(arc), max(arc)) in edges:
                raise BadRuleError(f"{source}:{lineno}: " + _("arc {a} -> {b} repeats line {line}").format(
                    a=parts[0], b=parts[1], line=arcs.get(arc) or edges[(min(arc), max(arc))]))
            arcs[arc] = lineno
            continue
        if len(ids) == 2:
            a, b = ids
            if a == b:
                raise BadRuleError(f"{source}:{lineno}: " + _("self-loop on {name!r} (use rule sigma+ for a "
                                                               "click that changes the node itself)").format(
                    name=parts[0]))
            key = (a, b) if a < b else (b, a)
            if key in edges or (arcs and (key in arcs or key[::-1] in arcs)):
                raise BadRuleError(f"{source}:{lineno}: " + _("edge {a} {b} repeats line {line}").format(
                    a=parts[0], b=parts[1], line=edges.get(key) or arcs.get(key) or arcs[key[::-1]]))
            edges[key] = lineno
    if not names:
        raise BadRuleError(f"{source}: " + _("no nodes"))
    return Graph(tuple(names), tuple(sorted(edges)), arcs=tuple(sorted(arcs)))


def _check_name(name: str, source: str, lineno: int) -> None:
    if not _NAME.match(name):
        raise BadRuleError(f"{source}:{lineno}: " + _("bad node name {name!r}").format(name=name))


def parse_graph_state(text: str, graph: Graph | PressMap, source: str = "state", light: bool = False) -> list[int]:
    """Node states from `name` / `name=value` items (see the module doc); a press map's lights
    are read the same way (`light` words the mistakes for them)."""
    index = {n: i for i, n in enumerate(graph.nodes)}
    out = [0] * graph.cells
    seen: dict[str, int] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        for item in re.split(r"[,\s]+", raw.split("#", 1)[0].strip()):
            if not item:
                continue
            name, _eq, value = item.partition("=")
            if name not in index and light:
                raise BoardFormatError(_("{source}:{line}: unknown light {name}").format(
                    source=source, line=lineno, name=shown(name)))
            if name not in index:
                raise BoardFormatError(_("{source} line {line}: unknown node {name!r}").format(
                    source=source, line=lineno, name=name))
            if name in seen:
                raise BoardFormatError(_("{source} line {line}: node {name!r} already set on line {first}").format(
                    source=source, line=lineno, name=name, first=seen[name]))
            seen[name] = lineno
            v = 1 if not value else int(value) if is_whole(value) else -1  # not '²', '٣' or 5000 digits
            if not 0 <= v < graph.states:
                raise BoardFormatError(_("{source} line {line}: state {value} of {name} is not 0..{last}").format(
                    source=source, line=lineno, value=shown(value), name=name, last=graph.states - 1))
            out[index[name]] = v
    return out


def describe_values(names: Sequence[str], values: Sequence[int], times: str = "x") -> str:
    """'A1 B2x2 C3' (a cell pressed twice shows x2; a press map's 'knob*2', as its files write
    it, with times='*'); '(none)' when empty."""
    parts = [n if v == 1 else f"{n}{times}{v}" for n, v in zip(names, values) if v]
    return " ".join(parts) or "(none)"
