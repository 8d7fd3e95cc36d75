"""The board the hidden game is played on: the `CountBoard` protocol, which `Shape` (a grid under
its rules) satisfies, and `PressBoard`, a two-state press map whose buttons are its lights, seen
through the same protocol (docs/MATH.md §30).

The count model needs two things only: each light is on or off, and a click on button j toggles
a fixed set N(j) of lights, so the count after it is the count before plus |N(j)| minus twice the
lit lights of N(j). Every record, posterior and reconstruction of `countlo.hidden` is written
against those facts (`cells`, `neighbours`, `press_mask`, `name`, `parse_cell`, `goal`), so
Merlin's Magic Square, a grid with holes, a graph (undirected or directed) and a buttons-to-lights
table are played as a grid is. What only a grid has (rows and columns, transposition, the window
engines that run along rows) is asked of a `Shape` by `isinstance`, where engines and strategies
are chosen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from countlo.board import Shape
from countlo.errors import BadCellError, BadRuleError
from countlo.graph import Board, Graph
from countlo.i18n import _
from countlo.pressmap import PressMap
from countlo.tokens import shown

KINDS = ("merlin", "holes", "graph", "buttons")  # how a press board was given (transcripts say so)


class CountBoard(Protocol):
    """What the hidden game asks of a board (module docstring). `Shape` satisfies it."""

    @property
    def cells(self) -> int:
        """The lights (and buttons: button j sits on light j)."""
        ...

    @property
    def full(self) -> int:
        """Every light on, as a bitset."""
        ...

    @property
    def goal(self) -> int:
        """The lights the game ends on: none, or all under a lit target."""
        ...

    @property
    def goal_count(self) -> int:
        """The lit count the game ends on."""
        ...

    @property
    def classic(self) -> bool:
        """The classic game (the plus rule on a clipped grid): its fast paths apply."""
        ...

    def neighbours(self, k: int) -> tuple[int, ...]:
        """N(k), the lights a click on k toggles, ascending."""
        ...

    def press_mask(self, k: int) -> int:
        """N(k) as a bitset."""
        ...

    def name(self, k: int) -> str:
        """The name people read for light (button) k; BadCellError when there is no such one."""
        ...

    def parse_cell(self, text: str) -> int:
        """The light (button) named `text`; BadCellError naming the text when there is none."""
        ...

    def __hash__(self) -> int:
        """Boards key the caches of press masks, plans and tables."""
        ...


def is_grid(board: CountBoard) -> bool:
    """True for a plain grid (a `Shape`): rows, columns and the grid engines apply."""
    return isinstance(board, Shape)


@dataclass(frozen=True)
class PressBoard:
    """A two-state board given as a press map (Merlin, holes, a graph, a --buttons table) with as
    many buttons as lights, for the hidden game: the `CountBoard` of `board`. Button j is clicked
    by its name (`name(j)`); the lights are drawn by theirs (`light(i)`), and where the buttons
    are the lights the two are the same. `source` is the file it was read from (shown and written
    in transcripts; empty for a preset)."""

    board: Graph | PressMap
    target: str = "dark"
    source: str = ""
    given: str = ""  # graph or buttons: how it was given, when read back from a transcript as a PressMap
    masks: tuple[int, ...] = field(init=False, repr=False, compare=False)  # N(j) per button, as bitsets

    def __post_init__(self) -> None:
        if self.board.states != 2:
            raise BadRuleError(_("the hidden game needs two states (a click changes the count by |N| - 2 x "
                                 "the lit lights of N), not {k}").format(k=self.board.states))
        if isinstance(self.board, PressMap) and self.board.presses != self.board.cells:
            raise BadRuleError(_("the hidden game takes press maps with as many buttons as lights; this "
                                 "one has {buttons} buttons and {lights} lights").format(
                buttons=self.board.presses, lights=self.board.cells))
        if self.target not in ("dark", "lit"):
            raise ValueError(f"target must be dark or lit, not {self.target!r}")
        masks = []
        for j in range(self.board.cells):
            m = 0
            for i, times in self.board.hits(j).items():
                if times % 2:
                    m |= 1 << i
            masks.append(m)
        object.__setattr__(self, "masks", tuple(masks))
        object.__setattr__(self, "_index", {n: i for i, n in enumerate(self.buttons)})
        object.__setattr__(self, "_hash", hash((self.masks, self.buttons, self.target)))

    def __reduce__(self) -> tuple[type[PressBoard], tuple[Graph | PressMap, str, str, str]]:
        """Rebuilt from its fields in another process (simulate's workers): its kept hash is of
        strings, which each process hashes its own way."""
        return PressBoard, (self.board, self.target, self.source, self.given)

    def __hash__(self) -> int:
        """Kept once computed: the caches of every record hash the board each time."""
        kept: int = self.__dict__["_hash"]
        return kept

    def __eq__(self, other: object) -> bool:
        """Boards that play the same, named and drawn the same, are equal: a graph read back from a
        transcript as the press map it is equals the graph."""
        return isinstance(other, PressBoard) and self._key() == other._key()

    def _key(self) -> tuple[object, ...]:
        return (self.masks, self.buttons, self.board.nodes, self.target, self.grid, self.places)

    # --- the protocol ---------------------------------------------------------------------
    @property
    def cells(self) -> int:
        return self.board.cells

    @property
    def full(self) -> int:
        return (1 << self.cells) - 1

    @property
    def goal(self) -> int:
        return self.full if self.target == "lit" else 0

    @property
    def goal_count(self) -> int:
        return self.cells if self.target == "lit" else 0

    @property
    def classic(self) -> bool:
        return False

    def neighbours(self, k: int) -> tuple[int, ...]:
        m, out = self.masks[k], []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return tuple(out)

    def press_mask(self, k: int) -> int:
        return self.masks[k]

    def name(self, k: int) -> str:
        """Button k's name (a light's, where the buttons are the lights)."""
        if not 0 <= k < self.cells:
            raise BadCellError(_("light number {n} is off the board (1-{cells})").format(n=k + 1, cells=self.cells))
        return self.buttons[k]

    @property
    def buttons(self) -> tuple[str, ...]:
        """The buttons' names, button j the j-th (a graph's nodes; a press map's own buttons)."""
        return self.board.buttons if isinstance(self.board, PressMap) else self.board.nodes

    def light(self, i: int) -> str:
        """Light i's name (the picture's; the buttons' names where they are the lights)."""
        return self.board.nodes[i]

    def parse_cell(self, text: str) -> int:
        grid = self.grid
        if grid is not None:  # A1 names or 1-based "row col", as on a grid
            at = grid.parse_cell(text)
            if at not in self.places:
                raise BadCellError(_("cell {cell} is a hole: no light there").format(cell=grid.name(at)))
            return self.places.index(at)
        word = text.strip()
        index: dict[str, int] = self.__dict__["_index"]
        if word in index:
            return index[word]
        folded = [i for n, i in index.items() if n.lower() == word.lower()]
        if len(folded) == 1:
            return folded[0]
        names = " ".join(self.buttons[:8]) + (" ..." if self.cells > 8 else "")
        if self.buttons != self.board.nodes:
            raise BadCellError(_("unknown button {name} (the buttons are {names})").format(
                name=shown(word), names=names))
        raise BadCellError(_("unknown light {name} (the lights are {names})").format(name=shown(word), names=names))

    # --- what it is ------------------------------------------------------------------------
    @property
    def kind(self) -> str:
        """merlin, holes, graph or buttons (KINDS)."""
        if self.given:
            return self.given
        if isinstance(self.board, Graph):
            return "graph"
        if self.board.places is not None:
            return "holes"
        return "merlin" if self.board.preset == "merlin" else "buttons"

    @property
    def grid(self) -> Shape | None:
        """The grid the lights are cells of (Merlin, holes), None for a graph or a table."""
        return self.board.shape if isinstance(self.board, PressMap) and self.board.grid is not None else None

    @property
    def places(self) -> tuple[int, ...]:
        """The grid cell of each light (reading order), on a grid-placed board."""
        if isinstance(self.board, PressMap) and self.board.places is not None:
            return self.board.places
        return tuple(range(self.cells))

    @property
    def holes(self) -> tuple[int, ...]:
        return self.board.holes if isinstance(self.board, PressMap) else ()

    def describe(self) -> str:
        """The board in a few words (English: the transcript and the --json say it too)."""
        text = self.board.describe()
        if self.source:
            text += f" ({self.source})"
        return text + (", target lit" if self.target == "lit" else "")

    def __str__(self) -> str:
        """A short name that reads before "board" ("a merlin board", "a holed 5x5 board", "a graph
        board"); `describe` says the rest."""
        grid = self.grid
        if self.kind == "holes" and grid is not None:
            return f"holed {grid.rows}x{grid.cols}"
        return {"buttons": "press map"}.get(self.kind, self.kind)


def grid_only(board: CountBoard, what: str) -> Shape:
    """`board` as the grid `what` (an engine or format that runs along rows) needs; TypeError
    otherwise: the callers choose them for grids only, so this is a bug, never a user's mistake."""
    if not isinstance(board, Shape):
        raise TypeError(f"{what} takes grids only, not {board}")
    return board


def rules_of(board: CountBoard) -> str:
    """The rules a board is played under, in a few words: a grid's rules, or what the press board is."""
    if isinstance(board, Shape):
        return board.rules.describe()
    return board.describe() if isinstance(board, PressBoard) else str(board)


def count_board(board: Board, target: str = "dark", source: str = "", given: str = "") -> Shape | PressBoard:
    """The board of the hidden game for a visible board: a grid as itself (its rules say the
    target), a press map or graph as a PressBoard. Buttons named as the lights but listed in
    another order are put in the lights' order. BadRuleError (one line, exit 2) for more than two
    states or buttons that are not the lights."""
    if isinstance(board, Shape):
        if board.rules.states != 2:
            raise BadRuleError(_("the hidden game needs two states (a click changes the count by |N| - 2 x "
                                 "the lit lights of N), not {k}").format(k=board.rules.states))
        return board
    if isinstance(board, PressMap) and board.buttons != board.lights and sorted(board.buttons) == sorted(board.lights):
        order = {name: j for j, name in enumerate(board.buttons)}
        changes = tuple(board.changes[order[name]] for name in board.lights)
        board = PressMap(board.lights, board.lights, changes, board.states, board.grid, board.preset,
                         board.places, board.rules)
    return PressBoard(board, target, source, given)
