"""The choice of engine: the list, the docs' table of it, and the engine each kind of board gets."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import countlo
from countlo.board import Shape
from countlo.graph import Graph
from countlo.rules import Rules
from countlo.visible import solutions
from countlo.visible.engines import choice
from countlo.visible.engines.engine import EVERY_QUESTION, INVARIANTS, ORDERS, QUIET, SOLVE

ROOT = Path(countlo.__file__).resolve().parent.parent
ENGINES_DIR = ROOT / "countlo" / "visible" / "engines"


def docs_table() -> list[tuple[str, str, str, str]]:
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("### Which engine solves which board", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"^\| (\d+) \| `(\w+)` \| (.+?) \| (.+?) \|$", section, re.M)


def test_the_docs_table_is_the_list_in_its_order():
    want = [(str(i), e.module, e.boards, ", ".join(q for q in ("solve", "orders", "quiet", "invariants") if q in e.questions))
            for i, e in enumerate(choice.ENGINES, 1)]
    assert docs_table() == want


def test_every_engine_module_is_on_the_list_and_loads_as_an_engine():
    modules = {p.stem for p in ENGINES_DIR.glob("*.py")} - {"__init__", "engine", "choice", "twisted_covers"}
    assert {e.module for e in choice.ENGINES} == modules
    for entry in choice.ENGINES:
        engine = entry.load()
        for method in ("applies", "check_size", "solve_start", "orders", "quiet", "invariants"):
            assert callable(getattr(engine, method)), (entry.module, method)


def test_the_reference_chase_is_last_and_takes_every_question():
    last = choice.ENGINES[-1]
    assert last.module == "reference_chase" and last.questions == EVERY_QUESTION


def graph(n: int, degree: float, states: int, seed: int) -> Graph:
    rng = random.Random(seed)
    names = [f"n{i}" for i in range(n)]
    edges = {(i, j) for i in range(n) for j in range(i + 1, n) if rng.random() < degree / n}
    return Graph(tuple(names), tuple(sorted(edges)), "sigma+", states)


BOARDS = [  # (board, the engine that solves it, the one that lists its quiet patterns)
    (Shape(5, 5), "polynomial_chase", "polynomial_chase"),
    (Shape(30, 31, Rules.make("plane", "plus", 2)), "polynomial_chase", "polynomial_chase"),
    (Shape(20, 20, Rules.make("torus", "plus", 2)), "circulant_torus", "circulant_torus"),
    (Shape(5, 6, Rules.make("plane", "rowcol", 3)), "rowcol_closed_form", "rowcol_closed_form"),
    (Shape(20, 21, Rules.make("cylinder", "x", 2)), "line_chase", "line_chase"),
    (Shape(20, 20, Rules.make("torus", "knight", 3)), "ring_chase", "line_chase_mod_k"),
    (Shape(20, 21, Rules.make("plane", "plus", 3)), "line_chase_mod_k", "line_chase_mod_k"),
    (Shape(19, 20, Rules.make("torus", "plus", 2)), "reference_chase", "reference_chase"),  # below 400 cells
    (Shape(6, 6, Rules.make("plane", "plus", 5)), "reference_chase", "reference_chase"),
]


@pytest.mark.parametrize(("board", "solver", "lister"), BOARDS, ids=lambda v: str(v))
def test_each_kind_of_board_goes_to_its_engine_and_is_answered_right(board, solver, lister):
    assert choice.chosen(board, SOLVE) == choice.chosen(board, ORDERS) == solver
    assert choice.chosen(board, QUIET) == choice.chosen(board, INVARIANTS) == lister
    rng = random.Random(board.cells)
    k = solutions.states(board)
    start = [rng.randrange(k) for _ in range(board.cells)]
    sol = solutions.solve(board, start)
    assert sol.orders == solutions.orders(board) == tuple(o for _, o in solutions.quiet(board))
    zero = [0] * board.cells
    if sol.presses is not None:
        assert solutions.apply(board, start, sol.presses) == zero
    else:
        w = sol.witness
        assert w is not None and sum(a * b for a, b in zip(w, start)) % k
        assert all(sum(w[i] * t for i, t in col.items()) % k == 0 for col in solutions.columns(board))
    for g, _ in solutions.quiet(board):
        assert solutions.apply(board, zero, g) == zero


def test_a_big_two_state_graph_goes_to_the_graph_chase():
    g = graph(choice.FAST_NODES, 4.0, 2, 1)
    assert choice.chosen(g, SOLVE) == "graph_chase"
    assert choice.chosen(g.with_rule("sigma+", 3), SOLVE) == "reference_chase"
