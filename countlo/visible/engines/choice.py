"""Which engine solves which board: one ordered list, the first engine that takes the board and
answers the question wins (docs/ARCHITECTURE.md, "which engine solves which board", is checked
against this list by tests/visible/engines/test_choice.py).

Each entry's `takes` is a cheap test on the board's kind, size and rules; only when it passes is
the engine's module imported (most load numpy, which stays off the start-up path of
`countlo solve`) and asked whether it `applies`. Adding a method is one module in this folder and
one entry here. The classic rules go to the polynomial chase at every size; other boards below
FAST_CELLS cells keep the reference chase, which answers them in microseconds and gives the
answers they always had.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from countlo.board import Shape
from countlo.graph import Board, Graph, button_count
from countlo.pressmap import PressMap
from countlo.visible.engines import reference_chase
from countlo.visible.engines.engine import EVERY_QUESTION, ORDERS, SOLVE

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from countlo.visible.engines.engine import Engine, Question

FAST_CELLS = 400  # from this size grids go to the fast engines
FAST_NODES = reference_chase.BITMATRIX_NODES  # ... and two-state graphs from this many nodes
FAST_ENTRIES = 40_000  # ... and press maps from this many lights x buttons (about 200 x 200)


@dataclass(frozen=True)
class Entry:
    module: str  # the engine's module in countlo/visible/engines/
    boards: str  # the boards it takes, as docs/ARCHITECTURE.md's table says
    questions: frozenset[Question]
    takes: Callable[[Board], bool]
    load: Callable[[], Engine]


def _polynomial_chase() -> Engine:
    from countlo.visible.engines import polynomial_chase  # noqa: PLC0415 (loaded when chosen)

    return polynomial_chase.ENGINE


def _circulant_torus() -> Engine:
    from countlo.visible.engines import circulant_torus  # noqa: PLC0415 (loaded when chosen)

    return circulant_torus.ENGINE


def _rowcol_closed_form() -> Engine:
    from countlo.visible.engines import rowcol_closed_form  # noqa: PLC0415 (numpy stays off the start-up path)

    return rowcol_closed_form.ENGINE


def _graph_chase() -> Engine:
    from countlo.visible.engines import graph_chase  # noqa: PLC0415 (numpy stays off the start-up path)

    return graph_chase.ENGINE


def _line_chase() -> Engine:
    from countlo.visible.engines import line_chase  # noqa: PLC0415 (numpy stays off the start-up path)

    return line_chase.ENGINE


def _ring_chase() -> Engine:
    from countlo.visible.engines import ring_chase  # noqa: PLC0415 (numpy stays off the start-up path)

    return ring_chase.ENGINE


def _line_chase_mod_k() -> Engine:
    from countlo.visible.engines import line_chase_mod_k  # noqa: PLC0415 (numpy stays off the start-up path)

    return line_chase_mod_k.ENGINE


def _press_matrix() -> Engine:
    from countlo.visible.engines import press_matrix  # noqa: PLC0415 (numpy stays off the start-up path)

    return press_matrix.ENGINE


def _big_press_map(board: Board) -> bool:
    """A press map (or a directed graph) of FAST_ENTRIES entries or more."""
    directed = isinstance(board, Graph) and bool(board.arcs)
    return (isinstance(board, PressMap) or directed) and board.cells * button_count(board) >= FAST_ENTRIES


def _reference_chase() -> Engine:
    return reference_chase.ENGINE


def _big_grid(board: Board, two_states: bool) -> bool:
    return isinstance(board, Shape) and board.cells >= FAST_CELLS and (board.rules.states == 2) == two_states


ENGINES: tuple[Entry, ...] = (
    Entry("polynomial_chase", "the classic rules (plus on the plane, two states), any size", EVERY_QUESTION,
          lambda b: isinstance(b, Shape) and b.rules.classic, _polynomial_chase),
    Entry("circulant_torus", "the plus rule on a torus of at least 3 x 3, two states, from 400 cells",
          EVERY_QUESTION, lambda b: _big_grid(b, True), _circulant_torus),
    Entry("rowcol_closed_form", "the rowcol rule, any k, any size", EVERY_QUESTION,
          lambda b: isinstance(b, Shape) and b.rules.rule.name == "rowcol", _rowcol_closed_form),
    Entry("graph_chase", "undirected graphs with two states from 200 nodes", EVERY_QUESTION,
          lambda b: isinstance(b, Graph) and not b.arcs and b.states == 2 and b.cells >= FAST_NODES, _graph_chase),
    Entry("press_matrix", "press maps and directed graphs, any k, from 40,000 lights x buttons", EVERY_QUESTION,
          _big_press_map, _press_matrix),
    Entry("line_chase", "grids with two states from 400 cells where the line chase applies", EVERY_QUESTION,
          lambda b: _big_grid(b, True), _line_chase),
    Entry("ring_chase", "grids joined left to right, a prime k > 2 not dividing the columns, from 400 cells",
          frozenset({SOLVE, ORDERS}), lambda b: _big_grid(b, False), _ring_chase),
    Entry("line_chase_mod_k", "grids with k > 2 from 400 cells where the line chase applies", EVERY_QUESTION,
          lambda b: _big_grid(b, False), _line_chase_mod_k),
    Entry("reference_chase", "every board", EVERY_QUESTION, lambda b: True, _reference_chase),
)


def _first(board: Board, question: Question) -> tuple[Entry, Engine]:
    """The first entry that takes `board`, answers `question` and whose engine applies."""
    for entry in ENGINES:
        if question in entry.questions and entry.takes(board):
            engine = entry.load()
            if engine.applies(board):
                return entry, engine
    raise AssertionError("the reference chase takes every board")


def choose(board: Board, question: Question) -> Engine:
    """The engine that answers `question` for `board`, its size limit checked."""
    engine = _first(board, question)[1]
    engine.check_size(board)
    return engine


def chosen(board: Board, question: Question) -> str:
    """The module name of the engine `choose` picks (for tests and the docs)."""
    return _first(board, question)[0].module
