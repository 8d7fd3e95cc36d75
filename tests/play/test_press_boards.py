"""The hidden game on press boards (docs/MATH.md §30): Merlin's square, a grid with holes, graphs
(undirected and directed) and a --buttons table, played to the end against a simulated board,
each reconstruction checked by listing every start."""

from __future__ import annotations

import pytest

from countlo.board import Shape, press_masks
from countlo.countboard import PressBoard, count_board
from countlo.errors import BadCellError, BadRuleError, CountloError
from countlo.formats.pressmaps import parse_press_map
from countlo.formats.states import parse_graph
from countlo.graph import Graph
from countlo.hidden.rebuild import reconstruct
from countlo.play.game import Outcome, play_game
from countlo.play.guide import Guide
from countlo.play.oracle import SimulatedOracle
from countlo.play.strategies.registry import make_strategy
from countlo.pressmap import holed, merlin
from countlo.visible.fewest import fewest


def boards() -> dict[str, PressBoard]:
    out = {
        "merlin": count_board(merlin()),
        "holes": count_board(holed(Shape(3, 4), [0, 2])),  # full rank: every start can be cleared
        "holed-singular": count_board(holed(Shape(4, 4), [0, 10])),  # 4 invariants: some cannot
        "graph": count_board(parse_graph("a b\nb c\nc d\nd a\na c\n", "g")),
        "directed": count_board(parse_graph("a -> b\nb -> c\nc -> a\na d\nd e\n", "g")),
        "buttons": count_board(parse_press_map("lights: p q r s\nk1: p q\nk2: q r\nk3: r s\nk4: p s q\n", 2, "t")),
    }
    assert all(isinstance(b, PressBoard) for b in out.values())
    return out  # type: ignore[return-value]


def consistent(board: PressBoard, start: int, record: object) -> list[int]:
    """Every start (listed) that shows the record's counts."""
    return [s for s in range(1 << board.cells) if record.consistent(s)]  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", ["merlin", "holes", "holed-singular", "graph", "directed", "buttons"])
def test_games_end_solved_or_proved_unclearable_and_the_start_is_the_only_one(kind):
    board = boards()[kind]
    outcomes = set()
    for seed in range(12):
        oracle = SimulatedOracle(board, seed)
        result = play_game(oracle, "adaptive", "exact", seed)
        outcomes.add(result.outcome)
        assert result.outcome in (Outcome.SOLVED, Outcome.UNSOLVABLE), result.ending
        record = result.record
        assert record is not None
        listed = consistent(board, oracle.board, record)
        assert oracle.board in listed
        if result.outcome is Outcome.SOLVED:
            assert oracle.lights == board.goal
            # the finishing clicks were the visible solver's fewest from the lights when known
            rebuilt = reconstruct(record.prefix(len(record.steps) - result.clicks + result.probes), "linear")
            assert rebuilt.possible >= 1
        else:  # no start the counts allow can be cleared
            masks = press_masks(board)
            for s in listed:
                lights = s ^ record.flips()
                assert fewest(board.board, [lights >> i & 1 for i in range(board.cells)]) is None, (s, masks)
    if kind != "holed-singular":
        assert Outcome.SOLVED in outcomes
    else:  # the guide says so honestly rather than claiming a win
        assert Outcome.UNSOLVABLE in outcomes


@pytest.mark.parametrize("engine", ["exact", "linear", "z3"])
def test_every_engine_reconstructs_merlin_as_brute_force_does(engine):
    board = boards()["merlin"]
    for seed in range(6):
        oracle = SimulatedOracle(board, seed)
        result = play_game(oracle, "adaptive", engine, seed)
        assert result.outcome is Outcome.SOLVED
        record = result.record
        assert record is not None
        for n in range(len(record.steps) + 1):
            prefix = record.prefix(n)
            listed = consistent(board, oracle.board, prefix)
            r = reconstruct(prefix, engine, limit=1 << 10)
            assert r.possible == len(listed)
            if len(listed) == 1:
                assert r.board == listed[0] == oracle.board


def test_merlin_is_played_with_the_fewest_clicks_once_known():
    board = boards()["merlin"]
    guide = Guide(board)
    oracle = SimulatedOracle(board, 3)
    guide.start(oracle.start())
    while guide.known() is None:
        cell = guide.advice().cell  # type: ignore[attr-defined]
        guide.observe(cell, oracle.click(cell))
    lights = oracle.lights
    plan = guide.plan()
    best = fewest(board.board, [lights >> i & 1 for i in range(board.cells)])
    assert best is not None and len(plan) == best.count


def test_grid_only_strategies_are_refused_on_press_boards_and_taken_on_grids():
    with pytest.raises(CountloError, match="fixed is for grids"):
        make_strategy("fixed", boards()["graph"])
    assert make_strategy("fixed", Shape(3, 3)).name == "fixed"
    assert make_strategy("optimal", boards()["merlin"]).name == "optimal"


def test_a_three_state_board_and_a_non_square_map_are_refused_in_one_line():
    with pytest.raises(BadRuleError, match="two states"):
        count_board(Graph(("a", "b"), ((0, 1),), "sigma+", 3))
    with pytest.raises(BadRuleError, match="as many buttons as lights"):
        count_board(parse_press_map("110\n011\n100\n010\n", 2, "m"))


def test_cells_are_named_as_the_board_names_them():
    b = boards()
    assert b["merlin"].parse_cell("C3") == 8 and b["merlin"].name(8) == "C3"
    assert b["holes"].parse_cell("B1") == 0  # A1 is a hole: B1 is the first light
    with pytest.raises(BadCellError, match="A1 is a hole"):
        b["holes"].parse_cell("A1")
    assert b["graph"].parse_cell("c") == 2
    with pytest.raises(BadCellError, match="unknown light 'zz'"):
        b["graph"].parse_cell("zz")
    assert b["buttons"].name(0) == "k1" and b["buttons"].light(0) == "p"


def test_a_graph_beyond_the_split_engine_is_followed_by_the_window_programme():
    ring = count_board(parse_graph("\n".join(f"v{i} v{(i + 1) % 40}" for i in range(40)) + "\n", "ring"))
    oracle = SimulatedOracle(ring, 3)
    result = play_game(oracle, "adaptive", "exact", 3)
    assert result.outcome is Outcome.SOLVED and oracle.lights == 0
    record = result.record
    assert record is not None
    before = record.prefix(result.probes - 1)  # the exact count agrees with the linear engine's
    exact, linear = reconstruct(before, "exact"), reconstruct(before, "linear", limit=1 << 12)
    assert exact.possible >= 2 and (exact.possible == linear.possible or not linear.possible_exact)
    for engine in ("exact", "linear"):
        assert reconstruct(record.prefix(result.probes), engine).board == oracle.board


def test_a_graph_whose_window_is_too_wide_is_refused_saying_the_limit():
    import random

    from countlo.errors import EngineLimitError

    r, edges = random.Random(1), set()
    while len(edges) < 400:
        a, b = r.sample(range(60), 2)
        edges.add((min(a, b), max(a, b)))
    dense = count_board(parse_graph("".join(f"n{a} n{b}\n" for a, b in sorted(edges)), "dense"))
    with pytest.raises(EngineLimitError, match="more than 26: its buttons reach too far"):
        Guide(dense)
