"""The programme over beliefs (countlo.play.strategies.beliefs): the same values with or without the
board's symmetries, a work budget that stops it without corrupting what it proved, and the
adaptive strategy's end game choosing a click of least exact value."""

from __future__ import annotations

import math

import numpy as np
import pytest

from countlo.board import Shape, press_masks
from countlo.play.knowledge import press_set
from countlo.play.strategies.adaptive import Tuning, View, choose, endgame
from countlo.play.strategies.beliefs import BeliefProgramme, OutOfNodes, press_sets
from countlo.play.strategies.optimal import solver
from countlo.visible.batch import algebra


def plain(shape: Shape, work: float = math.inf) -> BeliefProgramme:
    """The programme with each belief its own key, fed the optimal solver's press sets."""
    return BeliefProgramme(press_masks(shape), solver(shape).presses.__getitem__, work)


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(3, 3), Shape(2, 4), Shape(1, 6)], ids=str)
def test_symmetry_keys_and_plain_keys_give_the_same_values(shape):
    keyed, unkeyed = solver(shape), plain(shape)
    for belief in keyed.start_beliefs().values():
        assert unkeyed.value(belief) == pytest.approx(keyed.value(belief), abs=1e-12)
        # a best click of one is a best click of the other: its one-step value is the optimum
        k = unkeyed.choice(belief)
        if k is not None:
            assert one_step(unkeyed, belief, k) == pytest.approx(keyed.value(belief), abs=1e-12)


def one_step(prog: BeliefProgramme, belief: frozenset[int], k: int) -> float:
    """Cost of clicking k on `belief` then playing on optimally (uninformative clicks included)."""
    m = len(belief)
    cost = sum(1 for s in belief if not prog.press(s) >> k & 1) / m
    groups: dict[int, set[int]] = {}
    for s in belief:
        t = s ^ prog.masks[k]
        groups.setdefault(t.bit_count(), set()).add(t)
    return cost + sum(len(g) / m * prog.value(frozenset(g)) for g in groups.values())


def test_a_spent_budget_stops_the_search_and_keeps_only_true_values():
    shape = Shape(3, 3)
    belief = solver(shape).start_beliefs()[4]  # 126 boards
    tight = plain(shape, work=2_000)
    with pytest.raises(OutOfNodes):
        tight.choice(belief)
    exact = solver(shape).value(belief)
    tight.work = math.inf  # go on from what was proved
    assert tight.value(belief) == pytest.approx(exact, abs=1e-12)


def test_the_end_game_picks_a_click_of_least_exact_value_on_a_big_board():
    shape = Shape(6, 6)
    alg = algebra(shape)
    rng = np.random.default_rng(7)
    start = rng.integers(0, 2, shape.cells).astype(np.uint8)
    boards = [start]  # a start and a few boards near it, as if listed by the posterior
    while len(boards) < 6:
        other = start.copy()
        other[rng.integers(0, shape.cells, 2)] ^= 1
        boards.append(other)
    lights = np.unique(np.array(boards), axis=0)
    view = View(lights, lights.shape[0], True)
    exact = endgame(alg, Tuning())
    assert exact is not None
    k = choose(alg, view, Tuning(), exact)
    assert k is not None
    reference = BeliefProgramme(press_masks(shape), exact.press)
    belief = frozenset(int("".join(map(str, row[::-1])), 2) for row in lights)
    assert one_step(reference, belief, k) == pytest.approx(reference.value(belief), abs=1e-12)


def test_no_end_game_where_a_board_has_several_press_sets():
    assert endgame(algebra(Shape(5, 5)), Tuning()) is None
    assert endgame(algebra(Shape(6, 6)), Tuning(endgame=0)) is None


class Unpruned(BeliefProgramme):
    """The programme searching every click, also those that change no cell where the boards
    disagree (docs/MATH.md §20.2 proves them never needed)."""

    def _touching(self, belief: frozenset[int]) -> list[int]:
        return list(range(len(self.masks)))


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(3, 3), Shape(2, 4), Shape(1, 6)], ids=str)
def test_skipping_clicks_off_the_disagreement_changes_no_value(shape):
    press = solver(shape).presses.__getitem__
    pruned, full = plain(shape), Unpruned(press_masks(shape), press)
    for belief in solver(shape).start_beliefs().values():
        assert pruned.value(belief) == pytest.approx(full.value(belief), abs=1e-12)
        k = pruned.choice(belief)
        if k is not None:
            assert one_step(full, belief, k) == pytest.approx(full.value(belief), abs=1e-12)


@pytest.mark.parametrize("one_count", [True, False], ids=["one count", "several counts"])
def test_skipping_clicks_off_the_disagreement_changes_no_value_on_6x6_end_games(one_count):
    shape = Shape(6, 6)
    exact = endgame(algebra(shape), Tuning())
    assert exact is not None
    rng = np.random.default_rng(11)
    for _ in range(12):
        start = int(rng.integers(0, 1 << 36))
        size = int(rng.integers(2, 7))
        belief = {start}
        while len(belief) < size:  # boards near the start, as an end game lists them
            other = start ^ (1 << int(rng.integers(36))) ^ (1 << int(rng.integers(36)))
            if not one_count or other.bit_count() == start.bit_count():
                belief.add(other)
        b = frozenset(belief)
        pruned = BeliefProgramme(exact.masks, exact.press)
        full = Unpruned(exact.masks, exact.press)
        assert pruned.value(b) == pytest.approx(full.value(b), abs=1e-12)


class Searched(BeliefProgramme):
    """The programme splitting every click's outcomes: no click dropped for a cost that reaches the
    bound, and pairs of boards through the general search rather than their shortcut."""

    def _within(self, clicks, presses, bound):
        m = len(presses)
        return [(k, sum(not x >> k & 1 for x in presses) / m) for k in clicks]

    def _pair(self, boards, clicks, bound):
        candidates, moves = self._splits(boards, clicks)
        return (*self._best(candidates, 2, bound), moves)


def end_game_beliefs(seed: int, count: int) -> list[frozenset[int]]:
    """6x6 beliefs as an end game lists them: a start and boards a few cells away, one count."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        start = int(rng.integers(0, 1 << 36))
        size = int(rng.integers(2, 9))
        belief = {start}
        while len(belief) < size:
            other = start ^ (1 << int(rng.integers(36))) ^ (1 << int(rng.integers(36)))
            if other.bit_count() == start.bit_count():
                belief.add(other)
        out.append(frozenset(belief))
    return out


def test_dropping_clicks_by_their_cost_and_the_pair_shortcut_change_no_value_and_no_choice():
    exact = endgame(algebra(Shape(6, 6)), Tuning())
    assert exact is not None
    for belief in end_game_beliefs(5, 10):
        fast, full = BeliefProgramme(exact.masks, exact.press), Searched(exact.masks, exact.press)
        assert fast.value(belief) == pytest.approx(full.value(belief), abs=1e-12)
        assert fast.choice(belief) == full.choice(belief)
    for shape in (Shape(3, 3), Shape(2, 4)):
        press = solver(shape).presses.__getitem__
        fast, full = plain(shape), Searched(press_masks(shape), press)
        for belief in solver(shape).start_beliefs().values():
            assert fast.value(belief) == pytest.approx(full.value(belief), abs=1e-12)


@pytest.mark.parametrize("shape", [Shape(6, 6), Shape(3, 3), Shape(1, 6), Shape(2, 4), Shape(7, 7)], ids=str)
def test_press_sets_from_byte_tables_are_the_press_sets_that_clear_the_lights(shape):
    alg = algebra(shape)
    assert alg.invertible
    press = press_sets(alg)
    rng = np.random.default_rng(3)
    for s in [0, (1 << shape.cells) - 1, *(int(v) for v in rng.integers(0, 1 << shape.cells, 300))]:
        assert press(s) == press_set(shape, s)
