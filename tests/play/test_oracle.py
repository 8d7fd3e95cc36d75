"""Oracles: the simulated hidden board and the scripted test double."""

from __future__ import annotations

import random

import pytest

from countlo.board import Shape, press_masks
from countlo.errors import BadCellError
from countlo.play.oracle import ScriptedOracle, ScriptMismatch, SimulatedOracle, random_board

S6 = Shape(6, 6)


def test_simulated_oracle_is_seeded_and_counts_follow_the_presses():
    a, b = SimulatedOracle(S6, seed=7), SimulatedOracle(S6, seed=7)
    assert a.board == b.board
    assert a.start() == a.board.bit_count()
    rng = random.Random(1)
    lights = a.board
    for n in range(1, 60):
        k = rng.randrange(36)
        lights ^= press_masks(S6)[k]
        assert a.click(k) == lights.bit_count()
        assert a.lights == lights and a.clicks == n
    assert a.board == b.board  # the start is kept


def test_simulated_oracle_boards_differ_by_seed_and_follow_density():
    boards = {SimulatedOracle(S6, seed=s).board for s in range(50)}
    assert len(boards) == 50
    assert SimulatedOracle(S6, seed=3, density=0.0).board == 0
    assert SimulatedOracle(S6, seed=3, density=1.0).board == S6.full
    lit = sum(random_board(S6, random.Random(s), 0.25).bit_count() for s in range(400))
    assert 0.2 < lit / (400 * 36) < 0.3


def test_simulated_oracle_rejects_off_board_cells():
    with pytest.raises(BadCellError):
        SimulatedOracle(Shape(3, 3)).click(9)


def test_scripted_oracle_plays_its_script_and_nothing_else():
    o = ScriptedOracle(Shape(3, 3), 4, [(0, 5), (4, 2)])
    assert o.start() == 4
    assert o.click(0) == 5
    assert not o.finished
    with pytest.raises(ScriptMismatch, match="expected B2, got A1"):
        o.click(0)
    assert o.click(4) == 2 and o.finished
    with pytest.raises(ScriptMismatch, match="after the script's 2 clicks ended"):
        o.click(1)


def test_scripted_oracle_needs_start_first():
    with pytest.raises(ScriptMismatch, match="before start"):
        ScriptedOracle(Shape(2, 2), 1, [(0, 2)]).click(0)
