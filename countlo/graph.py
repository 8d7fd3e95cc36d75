"""Lights Out on a graph: clicking a node changes its neighbours (sigma) or its neighbours and
itself (sigma+, the classic), each by 1 mod `states`."""

from __future__ import annotations

from dataclasses import dataclass

from countlo.board import Shape
from countlo.errors import BadRuleError
from countlo.i18n import _
from countlo.pressmap import PressMap
from countlo.rules import MAX_STATES
from countlo.tokens import counted

GRAPH_RULES = ("sigma", "sigma+")
MAX_NODES = 20_000  # what the solvers take: a dense GF(2) system of n^2 bits is 50 MB (docs/MATH.md §18.5)


@dataclass(frozen=True)
class Graph:
    """Named nodes, edges as pairs of node indices (i < j, no repeats), the click rule and the
    number of states; `arcs` are directed edges (a press map whose buttons are the nodes,
    docs/MATH.md §27), so a directed graph's rows and columns differ."""

    nodes: tuple[str, ...]
    edges: tuple[tuple[int, int], ...]
    rule: str = "sigma+"
    states: int = 2
    arcs: tuple[tuple[int, int], ...] = ()  # directed edges (a, b): a click on a changes b, not b's on a

    def __post_init__(self) -> None:
        if self.rule not in GRAPH_RULES:
            raise BadRuleError(_("unknown graph rule {rule!r}: expected sigma (neighbours only) or sigma+ "
                                 "(neighbours and the node)").format(rule=self.rule))
        if isinstance(self.states, bool) or not 2 <= self.states <= MAX_STATES:
            raise BadRuleError(_("the number of states must be 2..{most}, not {n}").format(
                most=MAX_STATES, n=self.states))
        if not self.nodes:
            raise BadRuleError(_("a graph needs at least one node"))

    def with_rule(self, rule: str, states: int) -> Graph:
        return Graph(self.nodes, self.edges, rule, states, self.arcs)

    @property
    def cells(self) -> int:
        return len(self.nodes)

    def name(self, i: int) -> str:
        return self.nodes[i]

    def hits(self, i: int) -> dict[int, int]:
        """How much a click on node i adds to each node (sigma+ includes i itself)."""
        out = {i: 1} if self.rule == "sigma+" else {}
        for j in self.adjacency()[i]:
            out[j] = 1
        for j in self.out_arcs()[i]:
            out[j] = 1
        return out

    def out_arcs(self) -> tuple[tuple[int, ...], ...]:
        """Each node's directed out-neighbours, built once per graph object (as `adjacency`)."""
        arcs: tuple[tuple[int, ...], ...] | None = self.__dict__.get("_out_arcs")
        if arcs is None:
            out: list[list[int]] = [[] for _ in self.nodes]
            for a, b in self.arcs:
                out[a].append(b)
            arcs = tuple(tuple(sorted(o)) for o in out)
            object.__setattr__(self, "_out_arcs", arcs)
        return arcs

    def adjacency(self) -> tuple[tuple[int, ...], ...]:
        """Each node's neighbours, built once per graph object and kept on it: a lookup keyed by
        the graph would hash every node and edge on each call (hits(i) is called per node)."""
        adj: tuple[tuple[int, ...], ...] | None = self.__dict__.get("_adjacency")
        if adj is None:
            adj = _adjacency(self)
            object.__setattr__(self, "_adjacency", adj)  # a cache, not a field: eq and hash ignore it
        return adj

    def describe(self) -> str:
        parts = [f"graph of {counted(len(self.nodes), 'node')} and {counted(len(self.edges), 'edge')}", self.rule]
        if self.arcs:
            parts[0] += f" and {counted(len(self.arcs), 'arc')}"
        if self.states != 2:
            parts.append(f"{self.states} states")
        return ", ".join(parts)

    def __str__(self) -> str:
        return f"graph of {counted(len(self.nodes), 'node')}"


def _adjacency(g: Graph) -> tuple[tuple[int, ...], ...]:
    adj: list[list[int]] = [[] for _ in g.nodes]
    for i, j in g.edges:
        adj[i].append(j)
        adj[j].append(i)
    return tuple(tuple(sorted(a)) for a in adj)


Board = Shape | Graph | PressMap  # what the visible game is played on: a grid under its rules, a graph, a press map


def button_count(board: Board) -> int:
    """How many press variables a board has: a press map's buttons, else its cells (button j is cell j)."""
    return board.presses if isinstance(board, PressMap) else board.cells


def button_name(board: Board, j: int) -> str:
    """The name of button j: a press map's own, else the name of cell j."""
    return board.button(j) if isinstance(board, PressMap) else board.name(j)


def grid_of(board: Board) -> Shape | None:
    """The grid a board is drawn on: a grid itself, a press map's grid (with holes, Merlin's
    square), None for a graph or a press map with no grid."""
    if isinstance(board, Shape):
        return board
    return board.shape if isinstance(board, PressMap) else None
