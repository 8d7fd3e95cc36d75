"""The chase a row at a time over the ring of circulant rows (countlo.visible.engines.ring_chase, docs/MATH.md
§18.9): the ring's pseudo-inverse and dimensions against direct computation, the answers against
brute force on every start of small boards and against the chase one equation at a time on medium
ones, drawn rules included."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from brute import against_the_general_chase, answer_is_right, reachable
from hypothesis import given, settings
from hypothesis import strategies as st

from countlo.board import Shape
from countlo.rules import NAMED, Rule, Rules
from countlo.visible import solutions
from countlo.visible.algebra import circulant_ring
from countlo.visible.engines import choice, reference_chase, ring_chase, twisted_covers
from countlo.visible.engines.engine import SOLVE

RINGS = [(p, n) for p in (3, 5, 7) for n in (1, 2, 4, 5, 7, 8, 10, 16) if n % p]


def rank_mod(rows: list[list[int]], p: int) -> int:
    """Rank over F_p by plain elimination."""
    m = [[int(v) for v in r] for r in rows]
    rank = 0
    for col in range(len(m[0]) if m else 0):
        pivot = next((i for i in range(rank, len(m)) if m[i][col] % p), None)
        if pivot is None:
            continue
        m[rank], m[pivot] = m[pivot], m[rank]
        inv = pow(int(m[rank][col]), -1, p)
        for i in range(len(m)):
            if i != rank and m[i][col] % p:
                f = m[i][col] * inv
                m[i] = [(a - f * b) % p for a, b in zip(m[i], m[rank])]
        rank += 1
    return rank


def elements(ring: circulant_ring.Ring, rng: np.random.Generator) -> list[np.ndarray]:
    """Zero, one, random elements and zero divisors (multiples of 1 - x, which vanishes at x = 1)."""
    out = [np.zeros(ring.n, dtype=np.int64), ring.one()]
    for _ in range(4):
        out.append(rng.integers(0, ring.p, ring.n))
    one_minus_x = ring.one().copy()
    if ring.n > 1:
        one_minus_x[1] = ring.p - 1
    out.append(ring.mul(one_minus_x, rng.integers(0, ring.p, ring.n)))
    return out


@pytest.mark.parametrize("p, n", RINGS)
def test_the_pseudo_inverse_and_its_idempotent(p, n):
    ring = circulant_ring.Ring(p, n)
    for a in elements(ring, np.random.default_rng(p * 100 + n)):
        b = ring.pinv(a)
        assert np.array_equal(ring.mul(ring.mul(a, b), a), a % p)
        assert np.array_equal(ring.mul(ring.mul(b, a), b), b)
        e = ring.idempotent(a)
        assert np.array_equal(ring.mul(e, e), e)
        shifts = [list(np.roll(a, s) % p) for s in range(n)]  # the circulant matrix of a
        assert ring.dimension(e) == rank_mod(shifts, p)
        assert np.array_equal(ring.frobenius(a), ring.power(a, p))


def check_answer(board: Shape, start: list[int], solvable: bool | None = None) -> bool:
    return answer_is_right(ring_chase.solve_start, board, start, solvable)


SMALL = [
    (4, 2, 3, "torus", "plus"), (5, 2, 3, "cylinder", "plus"), (4, 2, 3, "torus", "x"),
    (4, 2, 3, "cylinder", "star"), (5, 2, 3, "torus", "ring"), (4, 2, 3, "torus", "star"),
    (6, 1, 3, "torus", "knight"), (6, 1, 5, "cylinder", "knight"), (7, 1, 5, "torus", "knight"),
    (4, 1, 7, "cylinder", "x"), (6, 2, 3, "cylinder", "knight"),  # 3^12 images
    (4, 2, 3, "klein", "plus"), (5, 2, 3, "moebius", "x"), (4, 2, 3, "moebius", "star"),
    (6, 1, 5, "klein", "knight"), (5, 2, 3, "klein", "ring"),
    (4, 2, 3, "projective", "plus"), (4, 2, 3, "projective", "x"), (4, 2, 5, "projective", "star"),
    (6, 1, 5, "projective", "knight"), (4, 2, 3, "projective", "ring"),
]


@pytest.mark.parametrize("rows, cols, k, topology, rule", SMALL)
def test_every_start_against_brute_force(rows, cols, k, topology, rule):
    board = Shape(rows, cols, Rules.make(topology, rule, k))
    assert ring_chase.applies(board)
    n = board.cells
    reach = reachable(board)
    assert reach[(0,) * n] == k ** len(ring_chase.orders(board))
    starts = list(itertools.product(range(k), repeat=n))
    if len(starts) > 600:  # the image is still brute force; the starts checked against it, a sample
        starts = random.Random(n * k).sample(starts, 600)
    for start in starts:
        check_answer(board, list(start), tuple((-v) % k for v in start) in reach)


def test_the_answers_are_the_general_chase_on_medium_boards():
    rng = random.Random(11)
    seen = set()
    for topology in ring_chase.TOPOLOGIES:
        for rule in NAMED:
            for k in (3, 5, 7):
                rows, cols = rng.randint(6, 12), rng.choice([c for c in range(4, 12) if c % k])
                rows += rows % 2 if topology == "projective" else 0
                board = Shape(rows, cols, Rules.make(topology, rule, k))
                assert ring_chase.applies(board)
                reference_chase.plan.cache_clear()
                assert ring_chase.orders(board) == tuple(reference_chase.plan(board).kernel.orders)
                seen |= against_the_general_chase(ring_chase.solve_start, board, rng)
    assert seen == {True, False}


@st.composite
def masked(draw):
    """Any small drawn rule (one-sided ones too: the cylinder then chases upside down; on the
    twisted boards made its own upside-down mirror, and left to right too on the projective plane,
    which they need)."""
    offsets = draw(st.sets(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), min_size=1, max_size=6))
    k = draw(st.sampled_from([3, 5, 7, 11]))
    rows = draw(st.integers(6, 9))
    cols = draw(st.integers(1, 8).filter(lambda c: c % k))
    topology = draw(st.sampled_from(ring_chase.TOPOLOGIES))
    if topology in twisted_covers.TWISTED:
        offsets |= {(-dr, dc) for dr, dc in offsets}
    if topology == "projective":  # its own mirror both ways, on an even number of rows
        offsets |= {(dr, -dc) for dr, dc in offsets}
        rows += rows % 2
    return Shape(rows, cols, Rules(topology, Rule("mask", tuple(sorted(offsets))), k))


@settings(max_examples=60, deadline=None)
@given(masked(), st.randoms(use_true_random=False))
def test_drawn_rules_against_the_general_chase(board, rnd):
    assert ring_chase.applies(board)
    reference_chase.plan.cache_clear()
    assert ring_chase.orders(board) == tuple(reference_chase.plan(board).kernel.orders)
    against_the_general_chase(ring_chase.solve_start, board, rnd)


def test_tall_boards_leap_over_their_middle_rows():
    """From LEAP_FROM rows the symbolic chase takes powers of the companion matrix instead of steps."""
    rng = random.Random(13)
    for topology in ring_chase.TOPOLOGIES:
        for rule in NAMED:
            k = rng.choice([3, 5])
            board = Shape(2 * rng.randint(20, 30), rng.choice([c for c in range(2, 6) if c % k]),
                          Rules.make(topology, rule, k))
            assert board.rows - max(p.look for p in ring_chase.plan(board).pieces) > ring_chase.LEAP_FROM
            reference_chase.plan.cache_clear()
            assert ring_chase.orders(board) == tuple(reference_chase.plan(board).kernel.orders)
            against_the_general_chase(ring_chase.solve_start, board, rng, starts=2)


@pytest.mark.parametrize("rule", ["knight", Rule("mask", ((0, 0), (1, 2), (-1, 0)))])
def test_a_torus_whose_columns_k_divides_is_solved_turned(rule):
    board = Shape(10, 9, Rules("torus", Rule.named(rule) if isinstance(rule, str) else rule, 3))
    assert ring_chase.applies(board) and board.cols % 3 == 0
    reference_chase.plan.cache_clear()
    assert ring_chase.orders(board) == tuple(reference_chase.plan(board).kernel.orders)
    assert {True, False} <= set().union(*(against_the_general_chase(ring_chase.solve_start, board, random.Random(s))
                                          for s in range(6)))


@pytest.mark.parametrize("rows", [7, 50])  # 50: its symbolic chase leaps too, upside down
def test_one_sided_rules_on_the_cylinder_are_chased_upside_down(rows):
    board = Shape(rows, 5, Rules("cylinder", Rule("mask", ((1, -1), (1, 0), (2, 1))), 3))
    assert any(piece.flip for piece in ring_chase.plan(board).pieces)
    reference_chase.plan.cache_clear()
    assert ring_chase.orders(board) == tuple(reference_chase.plan(board).kernel.orders)
    for seed in range(4):
        assert against_the_general_chase(ring_chase.solve_start, board, random.Random(seed), starts=2)


def test_which_boards_it_takes():
    assert ring_chase.applies(Shape(20, 25, Rules.make("torus", "knight", 3)))
    assert ring_chase.applies(Shape(20, 25, Rules.make("cylinder", "x", 7)))
    assert not ring_chase.applies(Shape(21, 24, Rules.make("torus", "x", 3)))  # 3 divides both sides
    assert not ring_chase.applies(Shape(20, 24, Rules.make("cylinder", "x", 3)))  # 3 divides the columns
    assert ring_chase.applies(Shape(20, 24, Rules.make("torus", "x", 3)))  # turned: its 20 rows make the ring
    assert not ring_chase.applies(Shape(20, 25, Rules.make("torus", "x", 4)))  # not prime
    assert ring_chase.applies(Shape(20, 25, Rules.make("klein", "knight", 3)))
    assert ring_chase.applies(Shape(20, 25, Rules.make("moebius", "ring", 7)))
    assert not ring_chase.applies(Shape(20, 25, Rules("klein", Rule("mask", ((0, 0), (1, 0))), 3)))  # not its mirror
    assert ring_chase.applies(Shape(20, 25, Rules.make("projective", "x", 3)))
    assert not ring_chase.applies(Shape(21, 25, Rules.make("projective", "x", 3)))  # an odd number of rows
    assert not ring_chase.applies(Shape(20, 25, Rules("projective", Rule("mask", ((0, 0), (1, 0), (-1, 0), (0, 1))), 3)))
    assert not ring_chase.applies(Shape(20, 25, Rules.make("plane", "x", 3)))
    assert not ring_chase.applies(Shape(5, 25, Rules.make("torus", "knight", 3)))  # rows within the rule's span
    assert not ring_chase.applies(Shape(6, ring_chase.MAX_SIDE + 2, Rules.make("torus", "x", 3)))


def test_general_hands_big_cylinders_and_tori_with_prime_k_to_the_ring_chase():
    board = Shape(20, 25, Rules.make("torus", "knight", 3))
    assert choice.chosen(board, SOLVE) == "ring_chase"
    assert choice.chosen(Shape(20, 25, Rules.make("torus", "knight", 9)), SOLVE) != "ring_chase"
    rng = random.Random(5)
    x = [rng.randrange(3) for _ in range(board.cells)]
    target = solutions.apply(board, [0] * board.cells, x)
    out = solutions.solve(board, [0] * board.cells, target)
    assert out.solvable and out.presses is not None
    assert solutions.apply(board, [0] * board.cells, out.presses) == target
    assert out.orders == solutions.orders(board) == tuple(reference_chase.plan(board).kernel.orders)
