"""Whole games: every strategy clears every board it can, and proves the rest unclearable."""

from __future__ import annotations

import pytest
from brute import brute_press_sets

from countlo.board import Shape
from countlo.hidden.record import record_of
from countlo.play.game import Outcome, Refused, play_game, summarize
from countlo.play.oracle import ScriptedOracle, SimulatedOracle

STRATEGIES = ["restore", "sequential", "fixed", "adaptive", "greedy", "manual"]
S6 = Shape(6, 6)
# probes after which each non-adaptive strategy has pinned every 6x6 board (docs/MATH.md §16)
PROBE_BOUND = {"restore": 72, "sequential": 29, "fixed": 24}



def check(result, oracle: SimulatedOracle) -> None:
    shape = oracle.shape
    if result.outcome == Outcome.SOLVED:
        assert oracle.lights == 0 and result.record.count == 0
        assert result.record == record_of(shape, oracle.board, [s.cell for s in result.record.steps])
    else:
        assert result.outcome == Outcome.UNSOLVABLE, result.ending
        if shape.cells <= 12:
            assert not brute_press_sets(shape, oracle.lights)  # truly cannot be cleared
        else:
            from countlo.visible.engines.polynomial_chase import solve

            sol = solve(shape, oracle.lights)
            assert not sol.solvable and sol.nullity > 0
    assert result.probes <= result.clicks == oracle.clicks
    assert len(result.decision_times) == result.clicks + 1


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("size", ["2x2", "2x3", "3x3", "1x5"])
def test_every_strategy_finishes_small_boards(strategy, size):
    shape = Shape.parse(size)
    for seed in range(25):
        oracle = SimulatedOracle(shape, seed)
        check(play_game(oracle, strategy, seed=seed), oracle)


def test_a_scripted_game_follows_the_guide_exactly():
    shape = Shape(2, 2)
    board = 0b0110  # B1 and A2 lit
    sim = SimulatedOracle(shape, board=board)
    clicks = []
    r = play_game(sim, "sequential")
    clicks = [s.cell for s in r.record.steps]
    script = [(s.cell, s.count) for s in r.record.steps]
    scripted = ScriptedOracle(shape, 2, script)
    again = play_game(scripted, "sequential")
    assert scripted.finished and again.solved and [s.cell for s in again.record.steps] == clicks


def test_summary_counts_solved_unsolvable_and_failed():
    shape = Shape(2, 3)
    results = [play_game(SimulatedOracle(shape, s), "sequential", seed=s) for s in range(20)]
    s = summarize(results)
    assert s.games == 20 and s.solved + s.unsolvable == 20 and s.failed == 0
    won = [r.clicks for r in results if r.solved]
    assert s.clicks_max == max(won) and s.clicks_mean == pytest.approx(sum(won) / len(won))


def test_a_lying_start_is_a_contradiction():
    r = play_game(ScriptedOracle(Shape(2, 2), 5, []), "sequential")
    assert r.outcome == Outcome.CONTRADICTION and isinstance(r.ending, Refused) and r.ending.cell is None


def check_6x6(result, oracle: SimulatedOracle, strategy: str) -> None:
    """Solved, with the finish a fewest-press set (unique on 6x6) and the probes within bound."""
    check(result, oracle)
    assert result.solved  # 6x6: A is invertible, every start can be cleared
    from countlo.visible.engines.polynomial_chase import solve

    steps = result.record.steps
    finish = steps[result.probes:]
    lights = oracle.board
    for s in steps[: result.probes]:
        lights = S6.press(lights, s.cell)
    presses = sum(1 << s.cell for s in finish)
    assert len(finish) == presses.bit_count() == solve(S6, lights).presses.bit_count()
    assert result.probes <= PROBE_BOUND.get(strategy, 36 * 2)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_6x6_games_a_quick_sample(strategy):
    for seed in range(1000, 1004):
        oracle = SimulatedOracle(S6, seed)
        check_6x6(play_game(oracle, strategy, seed=seed), oracle, strategy)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
@pytest.mark.parametrize("strategy", ["restore", "sequential", "fixed", "adaptive", "manual"])
def test_200_seeded_6x6_games(strategy, chunk):
    for seed in range(50 * chunk, 50 * chunk + 50):
        oracle = SimulatedOracle(S6, seed)
        check_6x6(play_game(oracle, strategy, seed=seed), oracle, strategy)


OTHER_SIZES = [
    pytest.param(size, strategy, marks=[pytest.mark.slow] if (size, strategy) in SLOW else [])
    for SLOW in [{("5x5", "adaptive"), ("4x7", "adaptive")}]
    for size in ["3x3", "4x4", "5x5", "4x7"]
    for strategy in ["restore", "sequential", "fixed", "adaptive", "manual"]
]


@pytest.mark.parametrize("size, strategy", OTHER_SIZES)
def test_50_games_on_other_sizes(size, strategy):
    shape = Shape.parse(size)
    outcomes = set()
    for seed in range(50):
        oracle = SimulatedOracle(shape, seed)
        result = play_game(oracle, strategy, seed=seed)
        check(result, oracle)
        outcomes.add(result.outcome)
    if size in ("4x4", "5x5"):  # quiet patterns: most starts cannot be cleared, some can
        assert outcomes == {Outcome.SOLVED, Outcome.UNSOLVABLE}
    else:
        assert outcomes == {Outcome.SOLVED}


@pytest.mark.parametrize("engine", ["linear", "z3"])
@pytest.mark.parametrize("size, seeds", [("3x3", range(12)), ("2x3", range(8)), ("6x6", range(2))])
def test_every_engine_stops_at_the_same_click(engine, size, seeds):
    """A fixed routine's game depends on the engine only through "is the board known?": the
    records must be identical."""
    shape = Shape.parse(size)
    for seed in seeds:
        a = play_game(SimulatedOracle(shape, seed), "sequential", "exact", seed)
        b = play_game(SimulatedOracle(shape, seed), "sequential", engine, seed)
        assert (b.record, b.probes, b.outcome) == (a.record, a.probes, a.outcome)
