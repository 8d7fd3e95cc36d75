"""Where a picture puts the nodes of a graph, or the lights and buttons of a press map that is not a
grid: a `Network` of named points in the unit square and the lines between them, for `netimage`
to draw.

A graph is laid out by networkx's spring layout (Fruchterman-Reingold) from a fixed seed, so the
same graph is drawn the same way every time; networkx is imported only here, when a graph is
drawn (never by `import countlo` or a command that draws nothing). A press map is laid out in two
bands, its buttons above its lights, each band wrapped into lines of at most BAND_WIDTH, and the
buttons ordered by the mean place of the lights they change so that few lines cross.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from countlo.errors import BadSizeError
from countlo.graph import Graph
from countlo.i18n import _
from countlo.pressmap import PressMap

MAX_DRAWN = 200  # nodes (a press map: lights and buttons together) above which a picture is unreadable
BAND_WIDTH = 10  # lights or buttons on one line of a press map's band
BAND_GAP = 3.0  # slot rows from the buttons' last line to the lights' first, where the lines run,
# and a third of a row more per light or button across (wider bands: longer, flatter lines)
SEED = 1  # the spring layout's seed: the same graph, the same picture
ITERATIONS = 200  # spring layout steps: enough for the layout of a few hundred nodes to settle
APART_ROUNDS = 30  # rounds of pushing too-close nodes apart after the spring layout


@dataclass(frozen=True)
class Network:
    """A graph or press map as a picture draws it. `points` (x right, y down, each in [0, 1]) are
    the lights', then the buttons' (none on a graph: its buttons are its nodes); `links` are
    (from, to, amount, directed) by point index, a press map's from a button to a light it changes;
    `extent` is the distance from the first point to the last in node slots (across, down)."""

    name: str
    words: str  # the rules in the titles: "sigma+ rule, 3 states"
    lights: tuple[str, ...]
    buttons: tuple[str, ...]
    points: tuple[tuple[float, float], ...]
    links: tuple[tuple[int, int, int, bool], ...]
    states: int
    extent: tuple[float, float]

    @property
    def cells(self) -> int:
        """The lights: what a start, a target and a proof's weights are values of."""
        return len(self.lights)

    @property
    def presses(self) -> int:
        """The buttons: what presses and quiet patterns are values of."""
        return len(self.buttons) or len(self.lights)

    @property
    def names(self) -> tuple[str, ...]:
        """The name of each point: the lights, then the buttons."""
        return self.lights + self.buttons

    def __str__(self) -> str:
        return self.name


def check_drawable(board: Graph | PressMap) -> None:
    """Refuse (one line, exit 2) a board with more than MAX_DRAWN nodes to draw, before solving."""
    n = board.cells + (board.presses if isinstance(board, PressMap) else 0)
    if n > MAX_DRAWN:
        what = _("lights and buttons") if isinstance(board, PressMap) else _("nodes")
        raise BadSizeError(_("--image draws at most {most} {what}, beyond which names and lines cannot be "
                             "read; this board has {n}").format(most=MAX_DRAWN, what=what, n=n))


def network_of(board: Graph | PressMap) -> Network:
    """The picture's layout of a graph or of a press map that is not a grid."""
    check_drawable(board)
    if isinstance(board, PressMap):
        graph = _as_graph(board)
        return _bands(board) if graph is None else _spring(graph)
    return _spring(board)


def _as_graph(pm: PressMap) -> Graph | None:
    """The graph a press map is, when its buttons are its lights, every amount is 1 and either
    every button changes its own light (sigma+) or none does (sigma): a graph's press map as a
    transcript records it is drawn as the graph, not as buttons over lights."""
    if pm.buttons != pm.lights or pm.grid is not None:
        return None
    hits = [dict(c) for c in pm.changes]
    if any(v != 1 for h in hits for v in h.values()):
        return None
    own = {j in h for j, h in enumerate(hits)}
    if len(own) != 1:
        return None
    edges, arcs = [], []
    for j, h in enumerate(hits):
        for i in h:
            if i == j:
                continue
            if j in hits[i]:
                if j < i:
                    edges.append((j, i))
            else:
                arcs.append((j, i))  # a click on j changes i, not i's on j
    return Graph(pm.lights, tuple(edges), "sigma+" if own == {True} else "sigma", pm.states, tuple(arcs))


def _spring(g: Graph) -> Network:
    import networkx as nx

    n = g.cells
    net = nx.Graph()
    net.add_nodes_from(range(n))
    net.add_edges_from(g.edges)
    net.add_edges_from(g.arcs)
    if n == 1:
        raw = {0: (0.0, 0.0)}
    elif n == 2 and net.number_of_edges() == 0:
        raw = {0: (0.0, 0.0), 1: (1.0, 0.0)}
    else:
        raw = {v: (float(x), float(y)) for v, (x, y) in
               nx.spring_layout(net, seed=SEED, iterations=ITERATIONS).items()}
    side = 1.4 * math.sqrt(n) + 1.5 if n > 1 else 0.0  # room for n nodes and their names, in slots
    points = _unit(_apart(list(_unit([raw[v] for v in range(n)])), 1 / side if side else 0.0))
    links = tuple((a, b, 1, False) for a, b in g.edges) + tuple((a, b, 1, True) for a, b in g.arcs)
    words = f"{'directed, ' if g.arcs else ''}{g.rule} rule" + (f", {g.states} states" if g.states > 2 else "")
    return Network(str(g), words, g.nodes, (), points, links, g.states, (side, side))


def _apart(points: list[tuple[float, float]], least: float) -> list[tuple[float, float]]:
    """Points pushed apart, pair by pair, until no two are closer than `least` (one slot: a node
    and its name) or APART_ROUNDS rounds have passed: the spring layout can leave two nodes of a
    dense graph on top of each other, with their names over each other."""
    pts = [list(p) for p in points]
    for _round in range(APART_ROUNDS):
        moved = False
        for a in range(len(pts)):
            for b in range(a + 1, len(pts)):
                dx, dy = pts[b][0] - pts[a][0], pts[b][1] - pts[a][1]
                d = math.hypot(dx, dy)
                if d >= least:
                    continue
                if d < 1e-9:  # the same place: part them across
                    dx, dy, d = 1.0, 0.0, 1.0
                push = (least - d) / 2 / d
                pts[a][0] -= dx * push
                pts[a][1] -= dy * push
                pts[b][0] += dx * push
                pts[b][1] += dy * push
                moved = True
        if not moved:
            break
    return [(x, y) for x, y in pts]


def _unit(raw: list[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    """Points scaled into [0, 1] on each axis (0.5 on an axis where they all agree); y turned
    down, as pixels run."""
    xs, ys = [p[0] for p in raw], [p[1] for p in raw]

    def scale(v: float, lo: float, hi: float) -> float:
        return 0.5 if hi - lo < 1e-9 else (v - lo) / (hi - lo)

    return tuple((round(scale(x, min(xs), max(xs)), 6), round(1 - scale(y, min(ys), max(ys)), 6))
                 for x, y in raw)


def _bands(m: PressMap) -> Network:
    nl, nb = m.cells, m.presses
    cols = min(BAND_WIDTH, max(nl, nb))
    b_lines, l_lines = -(-nb // cols), -(-nl // cols)
    first = b_lines - 1 + BAND_GAP + (cols - 1) / 3  # the slot row of the lights' first line
    span = max(1.0, first + l_lines - 1)

    def place(i: int, count: int, top: float) -> tuple[float, float]:
        line, col = divmod(i, cols)
        across = min(cols, count - line * cols)  # a short last line is centred
        x = (col + (cols - across) / 2) / (cols - 1) if cols > 1 else 0.5
        return round(x, 6), round((top + line) / span, 6)

    def centre(j: int) -> tuple[float, int]:
        hits = m.changes[j]
        return (sum(i for i, _a in hits) / len(hits) if hits else nl, j)

    order = sorted(range(nb), key=centre)  # a button sits above the lights it changes, on average
    slot = {j: s for s, j in enumerate(order)}
    points = tuple(place(i, nl, first) for i in range(nl)) + tuple(place(slot[j], nb, 0) for j in range(nb))
    links = tuple((nl + j, i, a, False) for j in range(nb) for i, a in m.changes[j])
    words = f"{m.states} states" if m.states > 2 else ""
    return Network(str(m), words, m.lights, m.buttons, points, links, m.states, (cols - 1, span))
