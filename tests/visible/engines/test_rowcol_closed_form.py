"""The rowcol rule in closed form (countlo.visible.engines.rowcol_closed_form, docs/MATH.md §18.3) against brute force
on every start of small boards and against the chase one equation at a time on medium ones."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from brute import reachable

from countlo.board import Shape
from countlo.rules import Rules
from countlo.visible import solutions
from countlo.visible.engines import reference_chase, rowcol_closed_form


def board(rows: int, cols: int, k: int) -> Shape:
    return Shape(rows, cols, Rules.make("plane", "rowcol", k))


def group(gens: list[tuple[list[int], int]], k: int, n: int) -> set[tuple[int, ...]]:
    """Every combination of the generators (the group they generate)."""
    out = {tuple([0] * n)}
    for g, o in gens:
        out = {tuple((a + c * t) % k for a, t in zip(x, g)) for x in out for c in range(o)}
    return out


def check_answer(b: Shape, start: list[int], target: list[int] | None) -> solutions.Outcome:
    k, n = b.rules.states, b.cells
    sol = solutions.solve(b, start, target)
    t = target or [0] * n
    if sol.solvable:
        assert solutions.apply(b, start, sol.presses) == list(t)
    else:
        w = sol.witness
        assert all(sum(w[i] * c for i, c in col.items()) % k == 0 for col in solutions.columns(b))
        assert sum(w[i] * (t[i] - start[i]) for i in range(n)) % k
    return sol


# (rows, cols, k): composite k where cols - 1, rows - 1 or rows + cols - 1 is not a unit
SMALL = [(1, 1, 2), (1, 4, 2), (3, 1, 3), (2, 2, 2), (2, 3, 2), (3, 3, 2), (3, 4, 2), (2, 4, 2),
         (2, 2, 3), (2, 3, 3), (3, 2, 4), (2, 2, 4), (2, 2, 6), (1, 3, 6), (1, 4, 6), (2, 1, 6)]


@pytest.mark.parametrize("rows, cols, k", SMALL)
def test_every_start_against_brute_force(rows, cols, k):
    b = board(rows, cols, k)
    n = b.cells
    images = reachable(b)
    quiet = images[tuple([0] * n)]
    gens = solutions.quiet(b)
    assert solutions.orders(b) == tuple(o for _, o in gens)
    assert group(gens, k, n) == {x for x in itertools.product(range(k), repeat=n)
                                 if solutions.apply(b, [0] * n, list(x)) == [0] * n}
    assert all(solutions.apply(b, [0] * n, g) == [0] * n for g in solutions.invariants(b))
    for start in itertools.product(range(k), repeat=n):
        sol = check_answer(b, list(start), None)
        assert sol.quiet_count == quiet
        assert sol.solvable == (tuple((-v) % k for v in start) in images)


def reference(b: Shape, bvec: list[int]) -> solutions.Outcome:
    """The chase one equation at a time, bypassing the closed form."""
    reference_chase.plan.cache_clear()
    return reference_chase.solve_by_plan(b, bvec)


@pytest.mark.parametrize("rows, cols, k", [(5, 7, 6), (6, 6, 4), (7, 5, 2), (9, 4, 6), (5, 5, 3), (3, 7, 12), (3, 3, 4), (2, 3, 6), (3, 2, 6),
                                           (7, 7, 2), (3, 10, 9)])
def test_medium_boards_agree_with_the_chase(rows, cols, k):
    b = board(rows, cols, k)
    n = b.cells
    rng = random.Random(rows * 100 + cols * 10 + k)
    plan = reference_chase.plan(b)
    ref_gens = [(plan.chase([0] * n, g), o) for g, o in zip(plan.kernel.gens, plan.kernel.orders)]
    gens = solutions.quiet(b)
    assert sorted(o for _, o in gens) == sorted(plan.kernel.orders)
    assert tuple(o for _, o in gens) == tuple(plan.kernel.orders)  # same order as the Smith form lists them
    if len(group(gens, k, n)) <= 5000:
        assert group(gens, k, n) == group(ref_gens, k, n)
    seen = set()
    for _ in range(12):
        start = [rng.randrange(k) for _ in range(n)]
        target = [rng.randrange(k) for _ in range(n)] if rng.random() < 0.3 else None
        if rng.random() < 0.5:  # a reachable start: the lights of random presses
            target = None
            start = [(-v) % k for v in solutions.apply(b, [0] * n, [rng.randrange(k) for _ in range(n)])]
        sol = check_answer(b, start, target)
        t = target or [0] * n
        ref = reference(b, [(t[i] - start[i]) % k for i in range(n)])
        assert sol.solvable == ref.solvable
        assert sol.orders == ref.orders
        seen.add(sol.solvable)
    assert True in seen


def test_large_boards_in_line_sums():
    rng = np.random.default_rng(5)
    b = board(300, 200, 6)
    presses = rng.integers(0, 6, size=(300, 200))
    start = (-rowcol_closed_form.lights(b, presses)) % 6
    sol = solutions.solve(b, start.reshape(-1).tolist())
    x = np.array(sol.presses).reshape(300, 200)
    assert sol.solvable and np.array_equal((rowcol_closed_form.lights(b, x) + start) % 6, np.zeros((300, 200)))
    odd = board(4, 301, 6)  # cols - 1 = 0 and rows - 1 = 3 mod 6: many free line differences
    assert solutions.orders(odd).count(2) >= 2 and solutions.orders(odd).count(3) >= 299
    lit = np.zeros((4, 301), dtype=np.int64)
    lit[0, 0] = 1
    sol = solutions.solve(odd, lit.reshape(-1).tolist())
    assert not sol.solvable
    w = np.array(sol.witness).reshape(4, 301)
    assert not rowcol_closed_form.lights(odd, w).any()  # A is symmetric: w A = 0
    assert int((w * lit).sum()) % 6


def test_bad_vectors_are_refused_in_the_usual_words():
    b = board(20, 20, 3)
    with pytest.raises(Exception, match=r"0\.\.2"):
        solutions.solve(b, [3] * b.cells)
    with pytest.raises(Exception, match="400 values"):
        solutions.solve(b, [0] * 399)
    assert rowcol_closed_form.applies(b)
