"""A state per cell on a board: the lights, the presses, a quiet pattern or a proof's weights, as
the Python front door gives them (cell names, a grid, a numpy array, bits, text, a picture).

A board is built from the options the command line names: `topology=`, `rule=`, `states=`
(`graph=` for a graph), and a start is given as text (a grid as `countlo solve` reads it), a list
of lists, a numpy array, or on a graph as node names or a {name: state} mapping.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from countlo.board import Shape, Vector, bits
from countlo.errors import BadRuleError, BoardFormatError
from countlo.graph import Board, Graph
from countlo.pressmap import PressMap
from countlo.rules import Rule, Rules

if TYPE_CHECKING:
    import numpy as np

class Pattern:
    """A state per cell of a board (0 .. states - 1), in reading order.

    Examples:
        >>> import countlo
        >>> p = countlo.lights("#.#\\n.#.\\n#.#")
        >>> p.cells
        ['A1', 'C1', 'B2', 'A3', 'C3']
        >>> p.grid
        [[1, 0, 1], [0, 1, 0], [1, 0, 1]]
        >>> p.count, p.bits
        (5, 341)
        >>> print(p)
        #.#
        .#.
        #.#
    """

    __slots__ = ("board", "values")

    def __init__(self, board: Board, values: Iterable[int]) -> None:
        self.board = board
        self.values = tuple(int(v) for v in values)
        if len(self.values) != board.cells:
            raise BoardFormatError(f"{len(self.values)} states for a board of {board.cells} cells")

    @property
    def states(self) -> int:
        return self.board.rules.states if isinstance(self.board, Shape) else self.board.states

    @property
    def cells(self) -> list[str]:
        """The names of the cells whose state is not 0 (A1 names on a grid, node names on a graph)."""
        return [self.board.name(i) for i, v in enumerate(self.values) if v]

    @property
    def count(self) -> int:
        """The sum of the states: lit cells, or presses counted with multiplicity."""
        return sum(self.values)

    @property
    def grid(self) -> list[list[int]]:
        """The states as rows of a grid (a graph has one row, its nodes in order)."""
        if not isinstance(self.board, Shape):
            return [list(self.values)]
        c = self.board.cols
        return [list(self.values[r * c:(r + 1) * c]) for r in range(self.board.rows)]

    @property
    def bits(self) -> int:
        """Two states: the pattern as an int, bit j for cell j in reading order."""
        if self.states != 2:
            raise BadRuleError(f"bits need two states, not {self.states}")
        return bits(self.values)

    def array(self) -> np.ndarray:
        """The grid as a numpy array of small ints."""
        import numpy as np

        return np.array(self.grid, dtype=np.uint8)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pattern) and (self.board, self.values) == (other.board, other.values)

    def __hash__(self) -> int:
        return hash((self.board, self.values))

    def __str__(self) -> str:
        if not isinstance(self.board, Shape):
            from countlo.formats.states import describe_values

            return describe_values(self.board.nodes, self.values)
        if self.states == 2:
            c = self.board.cols
            return "\n".join("".join("#" if v else "." for v in self.values[r * c:(r + 1) * c])
                             for r in range(self.board.rows))
        from countlo.formats.states import format_grid

        return format_grid(self.board, self.values).rstrip("\n")

    def __repr__(self) -> str:
        return f"<Pattern on {self.board}: {' '.join(self.cells) or 'nothing'}>"

    def _repr_html_(self) -> str:
        """A notebook shows the grid as a table of states."""
        rows = "".join("<tr>" + "".join(f"<td>{v}</td>" for v in row) + "</tr>" for row in self.grid)
        return f"<table>{rows}</table>"

    def _repr_svg_(self) -> str | None:
        """A notebook draws a grid as countlo's pictures do, a shade per state (None on a graph:
        the table instead)."""
        if not isinstance(self.board, Shape):
            return None
        from countlo.formats.image import Panel, Picture, layout, svg

        panel = Panel(str(self.board), (), values=self.values, states=self.states)
        picture = Picture(self.board, [panel])
        return svg(picture, layout(picture))


def board_of(size: str | None = None, *, topology: str = "plane", rule: str | Rule = "plus", states: int = 2,
          graph: Graph | str | None = None) -> Board:
    """A board from the options `countlo solve` takes: a grid of `size` under the rules, or a
    graph (a Graph, or its text: one edge 'a b' a line).

    Examples:
        >>> import countlo
        >>> b = countlo.board_of("5x5", topology="torus", states=3)
        >>> b.cells, b.rules.topology, b.rules.states
        (25, 'torus', 3)
        >>> countlo.board_of(graph="a b\\nb c").nodes
        ('a', 'b', 'c')
    """
    if graph is not None:
        if size is not None or topology != "plane":
            raise BadRuleError("a graph takes no size or topology")
        from countlo.graph import GRAPH_RULES

        g = graph if isinstance(graph, Graph) else _graph(graph)
        name = "sigma+" if rule == "plus" else rule.name if isinstance(rule, Rule) else rule
        if name not in GRAPH_RULES:
            raise BadRuleError(f"graph rules are sigma or sigma+, not {name!r}")
        return g.with_rule(name, states)
    rules = Rules.make(topology, rule if isinstance(rule, Rule) else Rule.named(rule), states)
    shape = Shape.parse(size) if size is not None else Shape(1, 1)
    return Shape(shape.rows, shape.cols, rules)


def _graph(text: str) -> Graph:
    from countlo.formats.states import parse_graph

    return parse_graph(text, "graph")


def lights(start: Any, size: str | None = None, *, topology: str = "plane", rule: str | Rule = "plus",
           states: int = 2, graph: Graph | str | None = None) -> Pattern:
    """A pattern of states from text, a list of lists, a numpy array, or node names on a graph;
    the board's size comes from the start unless `size` is given.

    Examples:
        >>> import countlo
        >>> countlo.lights([[0, 2], [1, 0]], states=3).cells
        ['B1', 'A2']
        >>> countlo.lights(["a", "c"], graph="a b\\nb c").values
        (1, 0, 1)
    """
    if isinstance(start, Pattern):
        return start
    b = board_of(size, topology=topology, rule=rule, states=states, graph=graph)
    return on(b, start, "start", sized=size is not None)


def on(b: Board, start: Any, what: str, sized: bool = True) -> Pattern:
    """`start` read as states of board `b` (a grid takes its size from the start unless `sized`)."""
    if isinstance(start, Pattern):
        if sized and start.board != b:
            raise BoardFormatError(f"the {what} is on {start.board}, the board is {b}")
        return start
    if not isinstance(b, Shape):  # a graph, or a press map: lights by name
        return Pattern(b, _graph_values(b, start, what))
    k = b.rules.states
    if isinstance(start, str):
        from countlo.formats.states import parse_grid

        rows, cols, values = parse_grid(start, k, what)
        grid: list[list[int]] = [list(values[r * cols:(r + 1) * cols]) for r in range(rows)]
    else:
        grid = [[int(v) for v in row] for row in start]
    if not grid or not grid[0] or any(len(row) != len(grid[0]) for row in grid):
        raise BoardFormatError(f"the {what} must be a non-empty rectangle of states")
    if any(not 0 <= v < k for row in grid for v in row):
        raise BoardFormatError(f"the {what} holds a state outside 0..{k - 1}")
    shape = Shape(len(grid), len(grid[0]), b.rules)
    if sized and (shape.rows, shape.cols) != (b.rows, b.cols):
        raise BoardFormatError(f"the {what} is {shape.rows}x{shape.cols}, the board is {b}")
    return Pattern(shape, [v for row in grid for v in row])


def _graph_values(g: Graph | PressMap, start: Any, what: str) -> Vector:
    index = {n: i for i, n in enumerate(g.nodes)}
    out = [0] * g.cells
    if isinstance(start, str):
        from countlo.formats.states import parse_graph_state

        return parse_graph_state(start, g, what)
    items: Iterable[tuple[str, int]]
    if isinstance(start, Mapping):
        items = start.items()
    elif all(isinstance(n, str) for n in start):
        items = ((n, 1) for n in start)
    else:
        values = [int(v) for v in start]
        if len(values) != g.cells:
            raise BoardFormatError(f"the {what} has {len(values)} states for {g.cells} nodes")
        items = zip(g.nodes, values)
    for name, value in items:
        if name not in index:
            raise BoardFormatError(f"the {what} names an unknown node {name!r}")
        if not 0 <= value < g.states:
            raise BoardFormatError(f"the {what} gives {name!r} the state {value}, outside 0..{g.states - 1}")
        out[index[name]] = value
    return out
