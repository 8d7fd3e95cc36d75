"""The line chase over Z_k (countlo.visible.engines.line_chase_mod_k, docs/MATH.md §18.4) and the blocked elimination
behind it (countlo.visible.algebra.dense_lu): against brute force on every start of small boards, against the
chase one equation at a time on medium ones, against countlo.visible.algebra.smith on random matrices."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from brute import against_the_general_chase, agrees_with_the_smith_form, answer_is_right, reachable
from hypothesis import given, settings
from hypothesis import strategies as st

from countlo.board import Shape
from countlo.rules import NAMED, Rule, Rules
from countlo.visible import solutions
from countlo.visible.algebra import smith
from countlo.visible.engines import choice, line_chase_mod_k, reference_chase
from countlo.visible.engines.engine import SOLVE

FAST = ("plane", "cylinder", "torus", "moebius", "klein", "projective")  # projective: folded, docs/MATH.md §18.6


def images(board: Shape) -> tuple[set[tuple[int, ...]], int]:
    """Every b = A x (brute force) and the number of quiet patterns."""
    reach = reachable(board)
    return set(reach), reach[(0,) * board.cells]


def check_answer(board: Shape, start: list[int], solvable: bool | None = None) -> bool:
    return answer_is_right(line_chase_mod_k.solve_start, board, start, solvable)


def group(gens: list[tuple[list[int], int]], k: int, n: int) -> set[tuple[int, ...]]:
    out = {tuple([0] * n)}
    for g, o in gens:
        out = {tuple((a + c * t) % k for a, t in zip(x, g)) for x in out for c in range(o)}
    return out


SMALL = [(2, 3, 3), (3, 2, 3), (2, 2, 4), (2, 2, 6), (1, 4, 4)]


def taken(boards: list[Shape]) -> list[Shape]:
    """The boards this engine says it takes (the others are no test of it)."""
    return [b for b in boards if line_chase_mod_k.applies(b)]


SMALL_BOARDS = taken([Shape(rows, cols, Rules.make(topology, rule, k)) for rows, cols, k in SMALL
                      for topology in FAST for rule in ("plus", "x", "star", "knight")])
THREE_BY_THREE = taken([Shape(3, 3, Rules.make(topology, rule, 3)) for topology in FAST for rule in ("plus", "x")])


def test_the_engine_takes_enough_small_boards_to_test():
    assert len(SMALL_BOARDS) >= 20 and len(THREE_BY_THREE) >= 4


@pytest.mark.parametrize("board", SMALL_BOARDS, ids=str)
def test_every_start_against_brute_force(board):
    check_small(board, None)


@pytest.mark.parametrize("board", THREE_BY_THREE, ids=str)
def test_three_by_three_with_three_states_against_brute_force(board):
    check_small(board, 150)  # joined edges need 3 lines


def check_small(board: Shape, sample: int | None) -> None:
    """Every start (or `sample` random ones) against the brute-force image of A."""
    assert line_chase_mod_k.applies(board)
    k, n = board.rules.states, board.cells
    reach, quiet = images(board)
    gens = line_chase_mod_k.quiet(board)
    assert len(group(gens, k, n)) == quiet == np.prod(line_chase_mod_k.orders(board), dtype=int)
    assert all(solutions.apply(board, [0] * n, g) == [0] * n for g, _ in gens)
    starts = list(itertools.product(range(k), repeat=n))
    if sample is not None:
        starts = random.Random(n * k).sample(starts, sample)
    for start in starts:
        check_answer(board, list(start), tuple((-v) % k for v in start) in reach)


def test_the_answers_are_the_general_chase_on_medium_boards():
    rng = random.Random(7)
    seen = set()
    for topology in FAST:
        for rule in NAMED:
            for k in (3, 4, 6):
                rows, cols = rng.randint(5, 9), rng.randint(5, 9)
                board = Shape(rows, cols, Rules.make(topology, rule, k))
                if not line_chase_mod_k.applies(board):
                    continue
                reference_chase.plan.cache_clear()
                plan = reference_chase.plan(board)
                assert line_chase_mod_k.orders(board) == tuple(plan.kernel.orders)
                seen |= against_the_general_chase(line_chase_mod_k.solve_start, board, rng)
    assert seen == {True, False}


@st.composite
def masked(draw):
    offsets = draw(st.sets(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), min_size=1, max_size=6))
    topology = draw(st.sampled_from(FAST))
    if topology == "projective" and draw(st.booleans()):  # mostly mirror-symmetric, which the fold takes
        offsets |= {(-dr, dc) for dr, dc in offsets}
    k = draw(st.sampled_from([3, 4, 5, 6, 8, 9, 12, 255]))
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    return Shape(rows, cols, Rules(topology, Rule("mask", tuple(sorted(offsets))), k))


@settings(max_examples=60, deadline=None)
@given(masked(), st.randoms(use_true_random=False))
def test_drawn_rules_against_the_general_chase(board, rnd):
    if not line_chase_mod_k.applies(board):
        return
    k, n = board.rules.states, board.cells
    reference_chase.plan.cache_clear()
    assert line_chase_mod_k.orders(board) == tuple(reference_chase.plan(board).kernel.orders)
    gens = line_chase_mod_k.quiet(board)
    assert all(solutions.apply(board, [0] * n, g) == [0] * n for g, _ in gens)
    if np.prod([o for _, o in gens], dtype=float) <= 3000:
        ref = [(reference_chase.plan(board).chase([0] * n, g), o)
               for g, o in zip(reference_chase.plan(board).kernel.gens, reference_chase.plan(board).kernel.orders)]
        assert group(gens, k, n) == group(ref, k, n)
    for _ in range(3):
        start = [rnd.randrange(k) for _ in range(n)]
        ref = reference_chase.solve_by_plan(board, [(-v) % k for v in start])
        check_answer(board, start, ref.solvable)


def test_general_hands_big_grids_with_more_states_to_the_line_chase():
    board = Shape(24, 30, Rules.make("torus", "x", 4))
    assert line_chase_mod_k.applies(board) and choice.chosen(board, SOLVE) == "line_chase_mod_k"
    rng = np.random.default_rng(3)
    presses = rng.integers(0, 4, board.cells).tolist()
    start = [(-v) % 4 for v in solutions.apply(board, [0] * board.cells, presses)]
    sol = solutions.solve(board, start)
    assert sol.solvable and solutions.apply(board, start, sol.presses) == [0] * board.cells
    assert sol.orders == line_chase_mod_k.orders(board)
    assert all(solutions.apply(board, [0] * board.cells, w) == [0] * board.cells  # x is its own transpose
               for w in solutions.invariants(board))
    assert line_chase_mod_k.applies(Shape(24, 30, Rules.make("projective", "plus", 3)))  # folded into rings
    # the fold asks for the vertical mirror of every offset
    assert not line_chase_mod_k.applies(Shape(24, 30, Rules("projective", Rule("mask", ((0, 0), (1, 0))), 3)))
    assert not line_chase_mod_k.applies(Shape(24, 30, Rules.make("plane", "plus", 2)))


@pytest.mark.parametrize("k", [3, 6])
def test_a_chase_without_free_variables(k):
    """A board whose chase leaves no free variable (hypothesis found the tiled add failing on its
    empty arrays): every start against the general chase."""
    board = Shape(1, 1, Rules("cylinder", Rule("mask", ((-1, 0), (0, 0))), k))
    assert line_chase_mod_k.applies(board) and line_chase_mod_k.zlayout(board).nfree == 0
    assert line_chase_mod_k.orders(board) == tuple(reference_chase.plan(board).kernel.orders)
    for v in range(k):
        check_answer(board, [v], reference_chase.solve_by_plan(board, [(-v) % k]).solvable)


@pytest.mark.parametrize("k", [2, 3, 4, 6, 8, 9, 12, 5, 255])
def test_blocked_elimination_matches_the_smith_form(k):
    rng = np.random.default_rng(k)
    for m, n in [(3, 3), (5, 4), (4, 6), (140, 140), (150, 131), (90, 200)]:
        for trial in range(3):
            r = int(rng.integers(1, min(m, n) + 1))
            a = rng.integers(0, k, (m, r)) @ rng.integers(0, k, (r, n)) % k
            if trial == 2:  # columns that are not units anywhere
                a[:, ::7] = a[:, ::7] * (k // smith.factor(k)[0][0]) % k
            agrees_with_the_smith_form(a, k, rng)


@pytest.mark.parametrize("topology, rows, cols", [("plane", 21, 21), ("cylinder", 20, 21), ("klein", 20, 24)])
def test_invariants_of_a_lopsided_rule_come_from_the_transposed_game(topology, rows, cols):
    board = Shape(rows, cols, Rules(topology, Rule("mask", ((-1, 0), (0, 0), (0, 2), (1, -1))), 3))
    assert choice.chosen(board, SOLVE) == "line_chase_mod_k"
    n = board.cells
    cols = solutions.columns(board)
    inv = solutions.invariants(board)
    assert inv and all(sum(w[i] * c for i, c in col.items()) % 3 == 0 for w in inv for col in cols)
    reference_chase.transposed_plan.cache_clear()
    assert len(inv) == len(reference_chase.transposed_plan(board).kernel.orders)  # the same group, Z_3^n
    rng = random.Random(1)
    for _ in range(4):
        start = [rng.randrange(3) for _ in range(n)]
        ref = reference_chase.solve_by_plan(board, [(-v) % 3 for v in start])
        check_answer(board, start, ref.solvable)


@pytest.mark.parametrize("k", [3, 4, 6, 9, 255])
def test_blocked_elimination_across_several_blocks(k):
    """400 columns: a recursion five levels deep over leaves of 16, columns with no unit all along
    (caught up with the later pivots), float32 entries reduced before they pass 2^24 (k = 255)."""
    rng = np.random.default_rng(100 + k)
    m, n, r = 420, 400, 330
    a = rng.integers(0, k, (m, r)) @ rng.integers(0, k, (r, n)) % k
    p = smith.factor(k)[0][0]
    a[:, 5::61] = a[:, 5::61] * (k // p) % k  # columns with no unit, in every block
    agrees_with_the_smith_form(a, k, rng)


def keeps_colours(board: Shape) -> bool:
    """Every click changes only cells of its own checkerboard colour (from the rule itself)."""
    cols = board.cols
    return all((i // cols + i % cols - j // cols - j % cols) % 2 == 0
               for j in range(board.cells) for i in board.hits(j))


NAMED_RULE = {name: Rule.named(name) for name in ("x", "plus")}
EVEN_MASK = Rule("mask", ((-2, 0), (-1, 1), (0, 0), (1, 1)))  # dr + dc even, not symmetric


JOINED = ("plane", "cylinder", "torus", "moebius", "klein")  # the folded projective plane never splits


@pytest.mark.parametrize("topology", JOINED)
def test_the_colour_split_is_taken_exactly_when_clicks_keep_their_colour(topology):
    seen = set()
    for rows, cols in itertools.product(range(3, 9), repeat=2):
        for rule in (NAMED_RULE["x"], EVEN_MASK, NAMED_RULE["plus"]):
            board = Shape(rows, cols, Rules(topology, rule, 3))
            if not line_chase_mod_k.applies(board):
                continue
            for transposed in (False, True):
                split = line_chase_mod_k.colours(line_chase_mod_k.zlayout(board, transposed)) is not None
                assert split == keeps_colours(board), (rows, cols, rule.name, transposed)
                seen.add(split)
    assert seen == {True, False}



@pytest.mark.parametrize("topology, rows, cols, k", [
    ("plane", 3, 3, 4), ("plane", 2, 4, 6), ("cylinder", 2, 4, 3), ("cylinder", 1, 4, 4), ("cylinder", 3, 4, 3),
    ("moebius", 2, 3, 3), ("moebius", 2, 5, 3), ("klein", 4, 3, 3)])
def test_the_colour_split_against_brute_force(topology, rows, cols, k):
    board = Shape(rows, cols, Rules(topology, NAMED_RULE["x"], k))
    assert line_chase_mod_k.applies(board) and line_chase_mod_k.colours(line_chase_mod_k.zlayout(board)) is not None
    check_small(board, 300 if k ** board.cells > 300 else None)


@pytest.mark.parametrize("topology", JOINED)
@pytest.mark.parametrize("k", [3, 4, 6, 9])
def test_the_colour_split_against_the_general_chase(topology, k):
    """Odd and even sides, x and a lopsided even mask: the split's answers are the general chase's."""
    rng = random.Random(k)
    split = 0
    for rows, cols in [(7, 8), (8, 8), (9, 7), (10, 9), (8, 11)]:
        for rule in (NAMED_RULE["x"], EVEN_MASK):
            board = Shape(rows, cols, Rules(topology, rule, k))
            if not line_chase_mod_k.applies(board):
                continue
            split += line_chase_mod_k.colours(line_chase_mod_k.zlayout(board)) is not None
            reference_chase.plan.cache_clear()
            assert line_chase_mod_k.orders(board) == tuple(reference_chase.plan(board).kernel.orders)
            gens = line_chase_mod_k.quiet(board)
            assert all(solutions.apply(board, [0] * board.cells, g) == [0] * board.cells for g, _ in gens)
            for t in range(4):
                start = [rng.randrange(k) for _ in range(board.cells)]
                if t % 2:  # reachable: the lights of random presses
                    x = [rng.randrange(k) for _ in range(board.cells)]
                    start = [(-v) % k for v in solutions.apply(board, [0] * board.cells, x)]
                ref = reference_chase.solve_by_plan(board, [(-v) % k for v in start])
                check_answer(board, start, ref.solvable)
    assert split


@pytest.mark.parametrize("topology", FAST)
def test_lights_a_rectangle_at_a_time_is_the_rule(topology):
    """line_chase_mod_k.lights (the check on every solution) against the rule's own clicks, also where an
    offset wraps round a small board more than once."""
    rng = np.random.default_rng(2)
    rules = [NAMED_RULE["x"], EVEN_MASK, Rule("mask", ((-2, 1), (0, 0), (1, -2), (2, 2), (-7, 7)))]
    for rows, cols in itertools.product((1, 2, 3, 4, 5, 8), repeat=2):
        for rule in rules + [Rule.named(name) for name in ("plus", "star", "ring", "knight")]:
            board = Shape(rows, cols, Rules(topology, rule, 7))
            if topology == "projective" and not line_chase_mod_k.applies(board):
                continue
            x = rng.integers(0, 7, (rows, cols))
            ref = solutions.apply(board, [0] * board.cells, x.reshape(-1).tolist())
            assert line_chase_mod_k.lights(board, x).reshape(-1).tolist() == ref


@pytest.mark.parametrize("keep_bytes, block", [(line_chase_mod_k.KEEP_BYTES, line_chase_mod_k.WITNESS_BLOCK), (0, 64), (1 << 26, 1), (0, 1)])
@pytest.mark.parametrize("rule, topology, k, rows, cols", [
    ("x", "torus", 4, 10, 10), ("x", "plane", 9, 12, 13), ("x", "torus", 4, 12, 9), ("star", "cylinder", 6, 10, 12),
    ("plus", "klein", 3, 10, 12), ("knight", "plane", 3, 10, 12)])
def test_a_cold_solve_chases_the_residual_with_the_plan(rule, topology, k, rows, cols, keep_bytes, block,
                                                        monkeypatch):
    """From a cold cache the residual rides along the symbolic chase as one more column, and the
    witness is kept from its dot-product chase (or chased again when the patterns are too big),
    a block of generators at a time (one at a time: the first blocks may not separate)."""
    monkeypatch.setattr(line_chase_mod_k, "KEEP_BYTES", keep_bytes)
    monkeypatch.setattr(line_chase_mod_k, "WITNESS_BLOCK", block)
    board = Shape(rows, cols, Rules.make(topology, rule, k))
    assert line_chase_mod_k.applies(board) and line_chase_mod_k.orders(board)  # some starts are unsolvable
    rng = random.Random(k)
    seen = set()
    for t in range(6):
        start = [rng.randrange(k) for _ in range(board.cells)]
        if t % 2:
            x = [rng.randrange(k) for _ in range(board.cells)]
            start = [(-v) % k for v in solutions.apply(board, [0] * board.cells, x)]
        line_chase_mod_k.plan.cache_clear()
        ref = reference_chase.solve_by_plan(board, [(-v) % k for v in start])
        seen.add(check_answer(board, start, ref.solvable))
        line_chase_mod_k.plan.cache_clear()
        line_chase_mod_k.solve_start(board, start)
        assert check_answer(board, start, ref.solvable) == ref.solvable  # the same with the plan ready
    assert seen == {True, False}


@pytest.mark.parametrize("rows, cols, rule, k", [(8, 8, "x", 3), (10, 9, "star", 4), (8, 11, "x", 4), (3, 3, "star", 3)])
def test_the_cylinder_chased_along_its_columns(rows, cols, rule, k):
    """The turned cylinder (the chase wraps round, the places do not) where it leaves fewer free
    variables: the same answers as the general chase (brute force on 3 x 3)."""
    board = Shape(rows, cols, Rules.make("cylinder", rule, k))
    assert line_chase_mod_k.applies(board) and line_chase_mod_k.zlayout(board).lay.across and line_chase_mod_k.zlayout(board, True).lay.across
    if board.cells <= 9:
        check_small(board, None)
        return
    reference_chase.plan.cache_clear()
    assert line_chase_mod_k.orders(board) == tuple(reference_chase.plan(board).kernel.orders)
    agrees_with_general_on_starts(board, k, random.Random(rows * cols))


def agrees_with_general_on_starts(board: Shape, k: int, rng: random.Random) -> None:
    """Four starts, two of them solvable by construction: the line chase's answer checked, and
    its verdict against the general chase's."""
    for t in range(4):
        start = [rng.randrange(k) for _ in range(board.cells)]
        if t % 2:
            x = [rng.randrange(k) for _ in range(board.cells)]
            start = [(-v) % k for v in solutions.apply(board, [0] * board.cells, x)]
        check_answer(board, start, reference_chase.solve_by_plan(board, [(-v) % k for v in start]).solvable)


@pytest.mark.parametrize("sequential, cumsum", [(1, 0), (0, 0), (0, 1 << 20)])
@pytest.mark.parametrize("topology, rule, k", [("plane", "star", 3), ("cylinder", "x", 6), ("torus", "knight", 4),
                                               ("klein", "ring", 9), ("moebius", "x", 5)])
def test_running_sums_one_step_at_a_time_or_by_doubling(topology, rule, k, sequential, cumsum, monkeypatch):
    """Every way of the recurrence's running sums (wide symbolic chases go one step at a time,
    narrow chases take one cumulative sum)."""
    monkeypatch.setattr(line_chase_mod_k, "SEQUENTIAL", sequential)
    monkeypatch.setattr(line_chase_mod_k, "CUMSUM_WIDTH", cumsum)
    board = Shape(11, 13, Rules.make(topology, rule, k))
    assert line_chase_mod_k.applies(board) and line_chase_mod_k.zlayout(board).e
    line_chase_mod_k.plan.cache_clear()
    reference_chase.plan.cache_clear()
    assert line_chase_mod_k.orders(board) == tuple(reference_chase.plan(board).kernel.orders)
    agrees_with_general_on_starts(board, k, random.Random(k))
    line_chase_mod_k.plan.cache_clear()


def test_the_free_variable_limit_holds_the_dense_matrix_within_its_memory(monkeypatch):
    """max_free(z) is the most free variables whose dense constraint matrix (dense_bytes(z) an
    entry at the peak: the larger of the chase's 5 + its lines' allowance, 2 bit-sliced and else
    2 + 2 x its dtype's bytes, and the elimination's 4 a prime power besides 2, 1 for a factor 2
    exactly once, 4 of scratch) fits in DENSE_MEMORY (1 GiB); MAX_FREE is the bit-sliced k = 3's;
    knight with 3 states on the 1000 x 1000 torus, Klein bottle and projective plane is under it,
    and a board past the limit goes to the chase one equation at a time, with the same answers."""
    assert line_chase_mod_k.DENSE_MEMORY == 1 << 30
    for k in (3, 4, 5, 6, 7, 9, 12, 30, 105, 148, 210, 255):
        z = line_chase_mod_k.zlayout(Shape(1000, 1000, Rules.make("torus", "knight", k)))
        primes = [p for p in range(2, k + 1) if k % p == 0 and all(p % d for d in range(2, p))]
        floats = sum(1 for p in primes if p > 2 or k % 4 == 0)  # every prime power but a lone 2
        ar = line_chase_mod_k.arith(z, z.nfree + 1)
        lines = 2 if k in (3, 6) else 2 + 2 * np.dtype(ar.dtype).itemsize
        expected = max(5 + lines, 4 * floats + (k % 4 == 2) + 4)
        assert line_chase_mod_k.dense_bytes(z) == expected, k
        top = line_chase_mod_k.max_free(z)
        assert top ** 2 * expected <= line_chase_mod_k.DENSE_MEMORY < (top + 1) ** 2 * expected
    assert line_chase_mod_k.MAX_FREE == 11_585
    for topology in ("torus", "klein", "projective"):
        big = Shape(1000, 1000, Rules.make(topology, "knight", 3))
        for t in (False, True):
            assert line_chase_mod_k.dense_bytes(line_chase_mod_k.zlayout(big, t)) == 8
            assert line_chase_mod_k.max_free(line_chase_mod_k.zlayout(big, t)) == line_chase_mod_k.MAX_FREE
        assert line_chase_mod_k.zlayout(big).nfree <= line_chase_mod_k.MAX_FREE
        assert line_chase_mod_k.applies(big)
    board = Shape(20, 20, Rules.make("torus", "knight", 3))
    assert line_chase_mod_k.applies(board)
    need = max(line_chase_mod_k.zlayout(board, t).nfree ** 2 * line_chase_mod_k.dense_bytes(line_chase_mod_k.zlayout(board, t))
               for t in (False, True))
    monkeypatch.setattr(line_chase_mod_k, "DENSE_MEMORY", need - 1)
    assert not line_chase_mod_k.applies(board)
    assert choice.chosen(board, SOLVE) != "line_chase_mod_k"
    rng = random.Random(5)
    start = [rng.randrange(3) for _ in range(board.cells)]
    sol = solutions.solve(board, start)
    monkeypatch.setattr(line_chase_mod_k, "DENSE_MEMORY", need)
    assert line_chase_mod_k.applies(board)
    check_answer(board, start, sol.solvable)
