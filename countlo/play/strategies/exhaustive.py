"""Exact mean total clicks of a strategy over every start of a small board (for the gap to
the optimum: tests and bench/bench_optimal.py)."""

from __future__ import annotations

from countlo.countboard import CountBoard
from countlo.play.game import play_game
from countlo.play.oracle import SimulatedOracle
from countlo.play.strategies.optimal import MAX_CELLS, OptimalUnavailableError


def exact_mean(shape: CountBoard, strategy: str) -> float:
    """Mean total clicks of `strategy` over every start of `shape` (whole games, all cleared).

    The exact expectation over uniformly random starts, for comparing a strategy with the optimum
    on boards small enough to enumerate; raises if a game does not end cleared.
    """
    if shape.cells > MAX_CELLS:
        raise OptimalUnavailableError(f"{shape} has too many starts to enumerate here")
    total = 0
    for board in range(1 << shape.cells):
        oracle = SimulatedOracle(shape, board, board=board)
        result = play_game(oracle, strategy, "exact", board)
        if not result.solved or oracle.lights:
            raise AssertionError(f"{strategy} did not clear start {board} of {shape}: {result.outcome.value}")
        total += result.clicks
    return total / (1 << shape.cells)

