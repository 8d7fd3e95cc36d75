"""A press map: buttons and lights that are different things, each button changing its own set of
lights (docs/MATH.md §27). The press matrix A is lights x buttons over Z_k, possibly not square:
pressing button j adds A[i][j] (mod k) to light i. Grids and graphs are the square case where
button j sits on light j; a press map drops that, so Merlin's Magic Square, a game's light puzzle
or any buttons-to-lights table is one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from countlo.board import Shape
from countlo.errors import BadRuleError, BadSizeError
from countlo.i18n import _
from countlo.rules import MAX_STATES, Rules
from countlo.tokens import counted

HOLE = -1  # a grid cell that is not there, in a press map's grid of values (`expand`)

MAX_SIDE = 20_000  # lights and buttons each, as graphs' nodes (countlo.graph.MAX_NODES)
MAX_ENTRIES = 1 << 25  # non-zero entries of A held as Python dicts (about 3 GB beyond this)
PRESETS = ("merlin",)


@dataclass(frozen=True)
class PressMap:
    """Named lights, named buttons, what each button adds to which light (light index, amount
    1..k-1, lights ascending) and the number of states. `grid` (rows, cols) says the lights are
    the cells of that grid in reading order (A1 names); `preset` names a well-known puzzle."""

    lights: tuple[str, ...]
    buttons: tuple[str, ...]
    changes: tuple[tuple[tuple[int, int], ...], ...]
    states: int = 2
    grid: tuple[int, int] | None = None
    preset: str = ""
    places: tuple[int, ...] | None = None  # a grid with holes: the grid cell of each light
    rules: Rules | None = None  # a grid with holes: the rules its buttons follow

    def __post_init__(self) -> None:
        if isinstance(self.states, bool) or not 2 <= self.states <= MAX_STATES:
            raise BadRuleError(_("the number of states must be 2..{most}, not {n}").format(
                most=MAX_STATES, n=self.states))
        if not self.lights:
            raise BadRuleError(_("a press map needs at least one light"))
        if not self.buttons:
            raise BadRuleError(_("a press map needs at least one button"))
        if len(self.changes) != len(self.buttons):
            raise ValueError("one list of changes per button")
        if len(self.lights) > MAX_SIDE or len(self.buttons) > MAX_SIDE:
            raise BadSizeError(_("press maps are limited to {most} lights and {most} buttons; this one has "
                                 "{lights} lights and {buttons} buttons").format(
                most=MAX_SIDE, lights=len(self.lights), buttons=len(self.buttons)))
        if self.places is not None and (self.grid is None or len(self.places) != len(self.lights)):
            raise ValueError("a grid with holes places each light on one of its cells")
        if self.grid is not None and self.places is None and self.grid[0] * self.grid[1] != len(self.lights):
            raise ValueError("a grid's press map has one light per cell")

    def __hash__(self) -> int:
        """Hashed once per object (kept on it, not a field): the engines' caches look a map up
        by equality on every question, and a big map has millions of entries."""
        kept: int | None = self.__dict__.get("_hash")
        if kept is None:
            kept = hash((self.lights, self.buttons, self.changes, self.states, self.grid, self.preset))
            object.__setattr__(self, "_hash", kept)
        return kept

    def __getstate__(self) -> dict[str, object]:
        """Pickled without the kept hash (of strings: each process hashes them its own way), for
        simulate's worker processes."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    @property
    def cells(self) -> int:
        """The lights (what a start, a target and a proof's weights are values of)."""
        return len(self.lights)

    @property
    def nodes(self) -> tuple[str, ...]:
        """The lights' names, as a graph's nodes (states read and written by name)."""
        return self.lights

    @property
    def presses(self) -> int:
        """The buttons (what a press vector is values of)."""
        return len(self.buttons)

    @property
    def on_grid(self) -> bool:
        """The lights are a grid's cells and button j sits on cell j (Merlin): pictures as grids."""
        return self.grid is not None and self.buttons == self.lights

    @property
    def shape(self) -> Shape | None:
        if self.grid is None:
            return None
        return Shape(*self.grid, self.rules) if self.rules is not None else Shape(*self.grid)

    def name(self, i: int) -> str:
        return self.lights[i]

    def button(self, j: int) -> str:
        return self.buttons[j]

    def hits(self, j: int) -> dict[int, int]:
        """What pressing button j adds to each light."""
        return dict(self.changes[j])

    def with_states(self, states: int) -> PressMap:
        return PressMap(self.lights, self.buttons, self.changes, states, self.grid, self.preset,
                        self.places, self.rules)

    @property
    def holes(self) -> tuple[int, ...]:
        """The grid cells that are not there (none unless the grid has holes)."""
        if self.places is None or self.grid is None:
            return ()
        there = set(self.places)
        return tuple(i for i in range(self.grid[0] * self.grid[1]) if i not in there)

    def place(self, i: int) -> int:
        """The grid cell of light i (reading order)."""
        return i if self.places is None else self.places[i]

    def expand(self, values: Sequence[int]) -> list[int]:
        """Values per light as values per grid cell, HOLE where there is no cell."""
        if self.places is None:
            return list(values)
        assert self.grid is not None
        out = [HOLE] * (self.grid[0] * self.grid[1])
        for p, v in zip(self.places, values):
            out[p] = v
        return out

    def describe(self) -> str:
        parts = [str(self)]
        if self.states != 2 and self.rules is None:
            parts.append(f"{self.states} states")
        return ", ".join(parts)

    def __str__(self) -> str:
        if self.places is not None and self.grid is not None:
            n = len(self.holes)
            return f"{self.grid[0]}x{self.grid[1]} grid with {counted(n, 'hole')}"
        return self.preset or f"press map of {counted(self.presses, 'button')} and {counted(self.cells, 'light')}"


def merlin(rows: int = 3, cols: int = 3, states: int = 2) -> PressMap:
    """Merlin's Magic Square on its 3x3 grid: a corner changes its 2x2 block, an edge cell the
    three cells along its edge, the centre its plus (itself and the four edge cells)."""
    if (rows, cols) != (3, 3):
        raise BadSizeError(_("--rule merlin is Merlin's Magic Square: a 3x3 grid, not {rows}x{cols}").format(
            rows=rows, cols=cols))
    shape = Shape(3, 3)

    def cells(*rc: tuple[int, int]) -> tuple[tuple[int, int], ...]:
        return tuple(sorted((r * 3 + c, 1) for r, c in rc))

    changes: list[tuple[tuple[int, int], ...]] = []
    for r in range(3):
        for c in range(3):
            if r != 1 and c != 1:  # a corner: its 2x2 block
                r0, c0 = min(r, 1), min(c, 1)
                changes.append(cells(*((r0 + a, c0 + b) for a in (0, 1) for b in (0, 1))))
            elif r == 1 and c == 1:  # the centre: its plus
                changes.append(cells((1, 1), (0, 1), (2, 1), (1, 0), (1, 2)))
            elif r != 1:  # top or bottom edge: its row
                changes.append(cells((r, 0), (r, 1), (r, 2)))
            else:  # left or right edge: its column
                changes.append(cells((0, c), (1, c), (2, c)))
    names = tuple(shape.name(i) for i in range(9))
    return PressMap(names, names, tuple(changes), states, (3, 3), "merlin")


def holed(shape: Shape, holes: Sequence[int]) -> PressMap:
    """The grid `shape` under its rules with the cells `holes` taken out: no light there and no
    button, and a click changes only the cells that are there (docs/rules.md, "Boards with
    holes"). A cell a click reaches twice on a small joined board changes twice, as without holes."""
    gone = set(holes)
    places = tuple(i for i in range(shape.cells) if i not in gone)
    if not places:
        raise BadSizeError(_("a board needs at least one cell that is not a hole"))
    index = {p: i for i, p in enumerate(places)}
    k = shape.rules.states
    changes = tuple(tuple(sorted((index[t], a % k) for t, a in shape.hits(p).items() if t in index and a % k))
                    for p in places)
    names = tuple(shape.name(p) for p in places)
    return PressMap(names, names, changes, k, (shape.rows, shape.cols), "", places, shape.rules)
