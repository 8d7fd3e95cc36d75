"""Whole games: every strategy clears every board it can, and proves the rest unclearable."""

from __future__ import annotations

import pytest

from brute import brute_press_sets, install_missing
from countlo.board import Shape
from countlo.game import Outcome, play_game, summarize
from countlo.observe import record_of
from countlo.oracle import ScriptedOracle, SimulatedOracle

STRATEGIES = ["restore", "sequential", "fixed", "adaptive", "greedy", "manual"]


@pytest.fixture(autouse=True)
def _backends(monkeypatch):
    install_missing(monkeypatch)


def check(result, oracle: SimulatedOracle) -> None:
    shape = oracle.shape
    if result.outcome == Outcome.SOLVED:
        assert oracle.lights == 0 and result.record.count == 0
        assert result.record == record_of(shape, oracle.board, [s.cell for s in result.record.steps])
    else:
        assert result.outcome == Outcome.UNSOLVABLE, result.reason
        assert not brute_press_sets(shape, oracle.lights)  # truly cannot be cleared
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
    assert r.outcome == Outcome.CONTRADICTION and "starting count" in r.reason
