"""Board geometry: shapes, cell names, press masks and symmetries.

A board of R rows and C columns is a Python int used as a bitset: bit k is the
cell in row k // C, column k % C (reading order, 0-based). The same board as a
list of rows holds row r as a C-bit int whose bit c is column c, so
``bits == sum(row << (r * C) for r, row in enumerate(rows))``.
Cells are named A1-style: column letters (A..Z, AA, AB, ...) then the 1-based
row number; A1 is the top-left cell.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from countlo.errors import BadCellError, BadSizeError
from countlo.i18n import _
from countlo.rules import CLASSIC, Rules
from countlo.tokens import shown
from countlo.value import Value

Vector = list[int]  # one value per cell in reading order: lights, presses (0..k-1) or a weighting
Rows = list[int]  # a board as its rows, each a C-bit int (bit c = column c)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from countlo.countboard import CountBoard

MAX_SIDE = 65535

_LONGEST_NAME = 64  # longer cell names and sizes are refused before any int() conversion
_A1 = re.compile(r"^\s*([A-Za-z]+)\s*([0-9]+)\s*$")
_ROWCOL = re.compile(r"^\s*\(?\s*([0-9]+)\s*[,\s]\s*([0-9]+)\s*\)?\s*$")
_SIZE = re.compile(r"^\s*([0-9]+)\s*(?:[xX*×]\s*([0-9]+))?\s*$")


def column_letters(col: int) -> str:
    """Spreadsheet letters of a 0-based column: 0 -> A, 25 -> Z, 26 -> AA."""
    if col < 0:
        raise ValueError(f"negative column {col}")
    n, out = col + 1, ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def column_index(letters: str) -> int:
    """0-based column of spreadsheet letters: A -> 0, AA -> 26."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - 64)
    return n - 1


class Cell(Value):
    """A cell by 0-based row and column."""

    FIELDS = __slots__ = ("row", "col")
    row: int
    col: int

    def __init__(self, row: int, col: int) -> None:
        object.__setattr__(self, "row", row)
        object.__setattr__(self, "col", col)

    @property
    def name(self) -> str:
        """A1-style name: column letters then 1-based row."""
        return f"{column_letters(self.col)}{self.row + 1}"

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, text: str, shape: Shape | None = None) -> Cell:
        """The cell named by `text`: A1-style ("C4") or 1-based "row col" ("4 3")."""
        if len(text) > _LONGEST_NAME:  # bounded before int(): no cell name is this long
            raise BadCellError(_("bad cell name {text}: too long").format(text=shown(text.strip())))
        m = _A1.match(text)
        if m:
            cell = cls(int(m.group(2)) - 1, column_index(m.group(1)))
        else:
            m = _ROWCOL.match(text)
            if not m:
                raise BadCellError(
                    _("bad cell name {text}: expected a column letter and a row number like C4, "
                      "or 1-based 'row col' like '4 3'").format(text=shown(text.strip()))
                )
            cell = cls(int(m.group(1)) - 1, int(m.group(2)) - 1)
        if cell.row < 0 or cell.col < 0:
            raise BadCellError(_("bad cell name {text}: rows and columns count from 1").format(
                text=shown(text.strip())))
        if shape is not None:
            shape.check_cell(cell, text)
        return cell


WIDE_ROW = 768  # from this many columns a big board's rows are read one at a time (Shape.to_rows)


class Shape(Value):
    """A board size: `rows` x `cols`, each 1..65535, and the `rules` played on it (topology,
    click rule, states, target; the classic game by default)."""

    FIELDS = __slots__ = ("rows", "cols", "rules")
    rows: int
    cols: int
    rules: Rules

    def __init__(self, rows: int, cols: int, rules: Rules = CLASSIC) -> None:
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "cols", cols)
        object.__setattr__(self, "rules", rules)
        self._check()

    def _check(self) -> None:
        for side, value in ((_("board rows"), self.rows), (_("board columns"), self.cols)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise BadSizeError(_("{side} must be a whole number, not {value!r}").format(
                    side=side, value=value))
            if not 1 <= value <= MAX_SIDE:
                raise BadSizeError(_("{side} must be 1..{most}, not {value}").format(
                    side=side, most=MAX_SIDE, value=value))

    @classmethod
    def parse(cls, text: str) -> Shape:
        """The shape written as "RxC" (rows by columns) or "N" for N x N."""
        m = _SIZE.match(text) if len(text) <= _LONGEST_NAME else None
        if not m:
            raise BadSizeError(_("bad board size {text}: expected ROWSxCOLS like 6x6, or N").format(
                text=shown(text.strip())))
        sides = [g for g in m.groups() if g]
        if any(len(g) > 9 for g in sides):  # bounded before int()
            raise BadSizeError(_("bad board size {text}: each side must be 1..{most}").format(
                text=shown(text.strip()), most=MAX_SIDE))
        rows = int(sides[0])
        cols = int(sides[1]) if len(sides) > 1 else rows
        return cls(rows, cols)

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols}"

    @property
    def cells(self) -> int:
        """Number of cells, R * C."""
        return self.rows * self.cols

    @property
    def full(self) -> int:
        """The all-on board."""
        return (1 << self.cells) - 1

    @property
    def goal(self) -> int:
        """The board the game ends on: all dark, or all lit under a lit target."""
        return self.full if self.rules.target == "lit" else 0

    @property
    def goal_count(self) -> int:
        """The lit count the game ends on."""
        return self.cells if self.rules.target == "lit" else 0

    @property
    def row_mask(self) -> int:
        """A full row as a C-bit int."""
        return (1 << self.cols) - 1

    @property
    def is_square(self) -> bool:
        return self.rows == self.cols

    def transposed(self) -> Shape:
        """The board turned over its diagonal, its rules turned with it (plane and torus only:
        the other topologies join one pair of edges differently from the other)."""
        if self.rules.classic:
            return Shape(self.cols, self.rows, self.rules)
        return Shape(self.cols, self.rows, self.rules.transposed())

    def transposed_cells(self) -> list[int]:
        """Where each cell sits on the transposed board: cell r C + c goes to c R + r."""
        return [c * self.rows + r for r in range(self.rows) for c in range(self.cols)]

    def with_rules(self, rules: Rules) -> Shape:
        """The same size under other rules."""
        return Shape(self.rows, self.cols, rules)

    @property
    def classic(self) -> bool:
        """True for the plus rule on a clipped grid with two states."""
        return self.rules.classic

    # --- cells -----------------------------------------------------------------
    def check_cell(self, cell: Cell, text: str | None = None) -> None:
        """Raise BadCellError unless `cell` lies on this board."""
        if not (0 <= cell.row < self.rows and 0 <= cell.col < self.cols):
            name = text.strip()[:_LONGEST_NAME] if text is not None else cell.name
            raise BadCellError(
                _("cell {cell} is off the {shape} board (columns A-{last}, rows 1-{rows})").format(
                    cell=name, shape=self, last=column_letters(self.cols - 1), rows=self.rows)
            )

    def index(self, cell: Cell) -> int:
        """Reading-order index of `cell`."""
        self.check_cell(cell)
        return cell.row * self.cols + cell.col

    def cell(self, k: int) -> Cell:
        """The cell at reading-order index k."""
        if not 0 <= k < self.cells:
            raise BadCellError(_("cell number {n} is off the {shape} board (1-{cells})").format(
                n=k + 1, shape=self, cells=self.cells))
        return Cell(*divmod(k, self.cols))

    def name(self, k: int) -> str:
        """A1 name of the cell at index k."""
        return self.cell(k).name

    def parse_cell(self, text: str) -> int:
        """Index of the cell named `text` (A1 or 1-based "row col"), checked against this board."""
        return self.index(Cell.parse(text, self))

    # --- neighbourhoods and presses ---------------------------------------------
    def neighbours(self, k: int) -> tuple[int, ...]:
        """N(k), the cells a click on k changes, in reading order: k and its orthogonal
        neighbours under the classic rules; else the cells hit a number of times that is not a
        multiple of the number of states."""
        if not self.rules.classic:
            return tuple(j for j, times in sorted(self.hits(k).items()) if times)
        r, c = divmod(k, self.cols)
        out = []
        if r > 0:
            out.append(k - self.cols)
        if c > 0:
            out.append(k - 1)
        out.append(k)
        if c < self.cols - 1:
            out.append(k + 1)
        if r < self.rows - 1:
            out.append(k + self.cols)
        return tuple(out)

    def hits(self, k: int) -> dict[int, int]:
        """How much a click on k adds to each cell it reaches (mod the number of states)."""
        r, c = divmod(k, self.cols)
        out: dict[int, int] = {}
        for i, j in self.rules.hits(self.rows, self.cols, r, c):
            cell = i * self.cols + j
            out[cell] = (out.get(cell, 0) + 1) % self.rules.states
        return out

    def press_mask(self, k: int) -> int:
        """Bitset of N(k), the cells a click on k toggles."""
        return press_masks(self)[k]

    def press(self, board: int, k: int) -> int:
        """The board after clicking cell k."""
        return board ^ press_masks(self)[k]

    def press_all(self, board: int, presses: int) -> int:
        """The board after clicking every cell in the bitset `presses` once."""
        masks = press_masks(self)
        for k in iter_bits(presses):
            board ^= masks[k]
        return board

    # --- rows -------------------------------------------------------------------
    def to_rows(self, board: int) -> list[int]:
        """The board as a list of C-bit row ints, in linear time, never through a string of its
        bits: small boards by shifts; big ones through the board's bytes, eight rows (C whole
        bytes) at a time while rows are narrow, each row from the bytes it spans from WIDE_ROW
        columns (fewer operations on shorter ints: 4095 x 4095 4.2 -> 3.3 ms; one int per row
        is the floor, bench/bench_bitset.py)."""
        m, c = self.row_mask, self.cols
        if self.cells <= 1 << 14:
            return [(board >> (r * c)) & m for r in range(self.rows)]
        if c >= WIDE_ROW:
            data = board.to_bytes((self.cells + 15) // 8, "little")
            read = int.from_bytes
            return [(read(data[(r * c) >> 3:((r + 1) * c + 7) >> 3], "little") >> ((r * c) & 7)) & m
                    for r in range(self.rows)]
        data = board.to_bytes(c * ((self.rows + 7) // 8), "little")
        out: list[int] = []
        for start in range(0, len(data), c):
            block = int.from_bytes(data[start:start + c], "little")
            out.extend((block >> (i * c)) & m for i in range(8))
        del out[self.rows:]
        return out

    def from_rows(self, rows: Sequence[int]) -> int:
        """The bitset of a list of C-bit row ints (linear time, as to_rows: eight rows, C whole
        bytes, at a time)."""
        c = self.cols
        if self.cells <= 1 << 14:
            out = 0
            for r in range(len(rows) - 1, -1, -1):
                out = (out << c) | rows[r]
            return out
        blocks = []
        for start in range(0, len(rows), 8):
            block = 0
            for r in reversed(rows[start:start + 8]):
                block = (block << c) | r
            blocks.append(block.to_bytes(c, "little"))
        return int.from_bytes(b"".join(blocks), "little")

    # --- symmetries -------------------------------------------------------------
    def symmetries(self) -> tuple[Symmetry, ...]:
        """The board's symmetries that commute with its rules: under the classic rules, 8
        (rotations and reflections) if square, else 4."""
        return _symmetries(self)


@lru_cache(maxsize=64)
def press_masks(shape: CountBoard) -> tuple[int, ...]:
    """Press mask of every cell (bitset of N(k)), precomputed once per board (any CountBoard)."""
    if shape.cells > 1 << 20:
        raise BadSizeError(_("{shape} is too large for per-cell press masks; use the row solver").format(
            shape=shape))
    out = []
    for k in range(shape.cells):
        m = 0
        for j in shape.neighbours(k):
            m |= 1 << j
        out.append(m)
    return tuple(out)


def iter_bits(x: int) -> Iterator[int]:
    """Indices of the set bits of x, ascending."""
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


def move_bits(x: int, to: Sequence[int]) -> int:
    """The bitset with bit to[k] set for every set bit k of x (a board carried over a cell map)."""
    out = 0
    for k in iter_bits(x):
        out |= 1 << to[k]
    return out


def popcount(x: int) -> int:
    return x.bit_count()


class Symmetry(Value):
    """A rotation or reflection of a board: `where(r, c)` is the image of cell (r, c)."""

    FIELDS = __slots__ = ("name", "shape", "where")
    name: str
    shape: Shape
    where: Callable[[int, int], tuple[int, int]]

    def __init__(self, name: str, shape: Shape, where: Callable[[int, int], tuple[int, int]]) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "where", where)

    def apply(self, board: int) -> int:
        """The image of a bitset board under this symmetry."""
        s = self.shape
        out = 0
        for k in iter_bits(board):
            r, c = divmod(k, s.cols)
            r2, c2 = self.where(r, c)
            out |= 1 << (r2 * s.cols + c2)
        return out


@lru_cache(maxsize=64)
def _symmetries(shape: Shape) -> tuple[Symmetry, ...]:
    R, C = shape.rows - 1, shape.cols - 1
    syms: list[Symmetry] = [
        Symmetry("identity", shape, lambda r, c: (r, c)),
        Symmetry("rotate 180", shape, lambda r, c: (R - r, C - c)),
        Symmetry("mirror left-right", shape, lambda r, c: (r, C - c)),
        Symmetry("mirror top-bottom", shape, lambda r, c: (R - r, c)),
    ]
    if shape.is_square:
        syms += [
            Symmetry("rotate 90", shape, lambda r, c: (c, R - r)),
            Symmetry("rotate 270", shape, lambda r, c: (C - c, r)),
            Symmetry("transpose", shape, lambda r, c: (c, r)),
            Symmetry("anti-transpose", shape, lambda r, c: (C - c, R - r)),
        ]
    if not shape.rules.classic:
        syms = syms[:1] + [s for s in syms[1:] if _commutes(shape, s)]
    return tuple(syms)


def _commutes(shape: Shape, sym: Symmetry) -> bool:
    """Whether clicking then moving equals moving then clicking, for every cell (checked
    directly: the rule and topology decide which rotations and reflections survive)."""
    if shape.cells > 1 << 12:
        return False
    for k in range(shape.cells):
        image = sym.apply(1 << k).bit_length() - 1
        moved = {sym.apply(1 << j).bit_length() - 1: t for j, t in shape.hits(k).items()}
        if moved != shape.hits(image):
            return False
    return True


Start = Sequence[int] | int  # a state per cell, or for two states a bitset (bit j = cell j)


def as_bits(start: Start) -> int:
    """A two-state start as a bitset."""
    return start if isinstance(start, int) else bits(start)


def as_values(start: Start, n: int) -> Vector:
    """A start as a state per cell."""
    return values(start, n) if isinstance(start, int) else list(start)


def bits(vals: Sequence[int]) -> int:
    """The int whose bit j is values[j] mod 2, built through one binary string: setting the
    bits one at a time copies the growing int each time (minutes at a million cells)."""
    text = "".join("1" if v & 1 else "0" for v in reversed(vals))
    return int(text, 2) if text else 0


def values(b: int, n: int) -> Vector:
    """Bits 0..n-1 of b as a list, read from one binary string (b >> j for every j is quadratic)."""
    text = format(b & ((1 << n) - 1), f"0{n}b") if n else ""
    return [int(c) for c in reversed(text)]
