"""Parity pins: which press-set cells the counts settle before the board is known."""

from __future__ import annotations

import random

import numpy as np
import pytest

from countlo.board import Shape
from countlo.hidden.posterior.sampler import RowSampler
from countlo.hidden.posterior.window import WindowPosterior
from countlo.hidden.record import record_of
from countlo.play.game import Outcome, play_game
from countlo.play.oracle import SimulatedOracle
from countlo.play.pins import pins
from countlo.play.strategies.adaptive import BASELINE, Adaptive, Tuning, View, choose
from countlo.play.strategies.registry import make_strategy
from countlo.visible.batch import algebra, bit_rows, fewest_press_sets, row_ints

INVERTIBLE = [Shape(2, 2), Shape(3, 3), Shape(2, 4), Shape(3, 4), Shape(4, 5), Shape(6, 6)]


@pytest.mark.parametrize("shape", INVERTIBLE, ids=str)
def test_each_row_of_the_inverse_is_the_sum_of_its_supports_presses(shape):
    alg = algebra(shape)
    found = pins(shape)
    assert found is not None
    for t, support in enumerate(found.supports):
        total = np.zeros(shape.cells, dtype=np.int64)
        for j in support:
            total += alg.A[j]
        assert ((total & 1) == alg.M[t]).all()


def test_singular_shapes_have_no_pins():
    assert pins(Shape(4, 4)) is None and pins(Shape(5, 5)) is None


def test_6x6_has_eight_targets_outside_their_own_support():
    found = pins(Shape(6, 6))
    assert found is not None
    names = sorted(Shape(6, 6).name(t) for t in found.targets)
    assert names == sorted(["B1", "E1", "A2", "F2", "A5", "F5", "B6", "E6"])
    assert all(t not in found.supports[t] for t in found.targets)


def _press_sets_now(record, starts: list[int]) -> np.ndarray:
    shape = record.shape
    lights = bit_rows([b ^ record.flips() for b in starts], shape.cells)
    return fewest_press_sets(algebra(shape), lights)


@pytest.mark.parametrize("shape", [Shape(3, 3), Shape(2, 4), Shape(3, 4)], ids=str)
def test_a_clicked_support_pins_the_press_set_cell_for_every_consistent_start(shape):
    found = pins(shape)
    assert found is not None
    rnd = random.Random(str(shape))
    for t in found.targets:
        for _ in range(4):
            board = rnd.getrandbits(shape.cells)
            order = sorted(found.supports[t]) + [rnd.randrange(shape.cells) for _ in range(2)]
            rnd.shuffle(order)
            record = record_of(shape, board, order)
            assert t in found.pinned(c for c in order)
            starts = [b for b in range(1 << shape.cells) if record.consistent(b)]
            x = _press_sets_now(record, starts)
            assert len(set(x[:, t].tolist())) == 1  # every consistent start agrees on X_t
            unpinned = [k for k in range(shape.cells) if len(set(x[:, k].tolist())) > 1]
            assert not set(unpinned) & set(found.pinned(order))


def test_a_clicked_support_pins_a_6x6_target_long_before_the_board_is_known():
    shape = Shape(6, 6)
    found = pins(shape)
    assert found is not None
    t = found.targets[0]
    rnd = random.Random(4)
    board = rnd.getrandbits(36)
    record = record_of(shape, board, sorted(found.supports[t]))
    assert WindowPosterior(record).count > 10**6
    starts = row_ints(RowSampler(record).sample(500, np.random.default_rng(0)))
    x = _press_sets_now(record, starts)
    assert len(set(x[:, t].tolist())) == 1
    assert len(set(x[:, (t + 1) % 36].tolist())) == 2  # a cell not pinned still varies


def test_bonus_counts_what_remains_of_each_unpinned_support():
    found = pins(Shape(6, 6))
    assert found is not None
    t = found.targets[0]
    support = sorted(found.supports[t])
    clicked = support[:-1]
    bonus = found.bonus(clicked)
    assert bonus[support[-1]] >= 1.0  # the last missing cell of t's support
    assert all(bonus[j] == 0 for j in clicked)
    assert found.bonus(list(range(36))).sum() == 0


def test_a_heavy_pin_weight_completes_a_support_first():
    shape = Shape(6, 6)
    found = pins(shape)
    assert found is not None
    t = found.targets[2]
    support = sorted(found.supports[t])
    record = record_of(shape, random.Random(9).getrandbits(36), support[:-1])
    strategy = Adaptive(shape, Tuning(pin_weight=100.0))
    view = strategy.view(record, _knowledge(record))
    assert not view.exact
    k = choose(strategy.algebra, view, strategy.tuning)
    bonus = found.bonus(view.clicked)
    assert bonus[k] == bonus.max() and bonus[k] >= 1.0


def _knowledge(record):
    from countlo.play.knowledge import Knowledge

    return Knowledge(record)


def test_the_baseline_is_registered_without_pins():
    s = make_strategy("adaptive-v1", Shape(6, 6))
    assert isinstance(s, Adaptive) and s.tuning == BASELINE and s.tuning.pin_weight == 0
    assert s.name == "adaptive-v1"
    assert make_strategy("adaptive", Shape(6, 6)).tuning.pin_weight > 0


def test_a_view_records_the_cells_clicked():
    shape = Shape(6, 6)
    record = record_of(shape, 12345, [3, 3, 17])
    view = Adaptive(shape).view(record, _knowledge(record))
    assert isinstance(view, View) and view.clicked == frozenset({3, 17})


@pytest.mark.parametrize("size,seeds", [("3x3", range(6)), ("4x4", range(4)), ("6x6", range(2))])
def test_baseline_games_end_cleared_or_proved_unclearable(size, seeds):
    shape = Shape.parse(size)
    for seed in seeds:
        oracle = SimulatedOracle(shape, seed)
        result = play_game(oracle, "adaptive-v1", seed=seed)
        assert result.outcome in (Outcome.SOLVED, Outcome.UNSOLVABLE)
        if result.outcome == Outcome.SOLVED:
            assert oracle.lights == 0
