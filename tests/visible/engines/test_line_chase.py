"""The row-at-a-time chase (countlo.visible.engines.line_chase) against brute force and against the chase one
equation at a time (countlo.visible.solutions), on every topology it takes and every rule."""

from __future__ import annotations

import itertools

import numpy as np
import oeis
import pytest
from brute import gf2_rank
from hypothesis import given, settings
from hypothesis import strategies as st
from oeis import a165738

from countlo.board import Shape
from countlo.rules import NAMED, ROWCOL, TOPOLOGIES, Rule, Rules
from countlo.visible import solutions
from countlo.visible.engines import choice, line_chase, reference_chase

FAST = ("plane", "cylinder", "torus", "moebius", "klein", "projective")
ACROSS = ("moebius", "klein")  # the chase runs along columns


def flip_symmetric(rule: Rule) -> Rule:
    """The rule with every offset's vertical mirror added (dr -> -dr): what the projective fold
    asks for (docs/MATH.md §18.6)."""
    offsets = set(rule.offsets)
    if {(-dr, dc) for dr, dc in offsets} == offsets:
        return rule
    return Rule("mask", tuple(sorted(offsets | {(-dr, dc) for dr, dc in offsets})))




def image_and_kernel(board: Shape) -> tuple[set[tuple[int, ...]], int]:
    """Every b = A x (brute force) and the number of quiet patterns."""
    n = board.cols * board.rows
    cols = solutions.columns(board)
    images: set[tuple[int, ...]] = set()
    quiet = 0
    for x in itertools.product((0, 1), repeat=n):
        v = [0] * n
        for j, t in enumerate(x):
            if t:
                for i, c in cols[j].items():
                    v[i] ^= c & 1
        images.add(tuple(v))
        quiet += not any(v)
    return images, quiet


def check(board: Shape, b: list[int], images: set[tuple[int, ...]] | None = None) -> None:
    """rowchase gives what general's own chase gives (and brute force, when `images` is given)."""
    assert line_chase.applies(board)
    n = board.cells
    ref = reference_chase.solve_by_plan(board, b)
    presses, witness, nullity = line_chase.solve(board, b)
    assert nullity == ref.nullity
    assert (presses is not None) == ref.solvable
    if images is not None:
        assert ref.solvable == (tuple(b) in images)
    cols = solutions.columns(board)
    if presses is not None:
        assert solutions.apply(board, [0] * n, presses) == b
    else:
        assert witness is not None
        assert all(sum(witness[i] * c for i, c in col.items()) % 2 == 0 for col in cols)
        assert sum(w * v for w, v in zip(witness, b)) % 2 == 1
    quiet = line_chase.quiet_list(board)
    assert len(quiet) == nullity and gf2_rank(quiet) == nullity
    assert all(solutions.apply(board, [0] * n, q) == [0] * n for q in quiet)
    assert n < choice.FAST_CELLS  # so solutions.quiet is general's own chase
    reference = [g for g, _ in solutions.quiet(board)]
    assert gf2_rank(quiet + reference) == nullity  # the same space


def rule_of(draw: st.DrawFn) -> Rule:
    if draw(st.booleans()):
        name = draw(st.sampled_from(sorted(NAMED)))
        return Rule(name, NAMED[name])
    offsets = draw(st.sets(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), min_size=1, max_size=7))
    return Rule("mask", tuple(sorted(offsets)))


@st.composite
def small_boards(draw: st.DrawFn) -> Shape:
    """Boards rowchase takes, small enough to list every press vector (at most 12 cells)."""
    topology = draw(st.sampled_from(FAST))
    rule = rule_of(draw)
    drs = [dr for dr, _ in rule.offsets]
    dcs = [dc for _, dc in rule.offsets]
    if topology in ACROSS and not min(dcs) <= 0 <= max(dcs):
        rule = Rule("mask", tuple(sorted({*rule.offsets, (0, 0)})))
        drs, dcs = [*drs, 0], [*dcs, 0]
    if topology == "projective":
        rule = flip_symmetric(rule)
        drs = [dr for dr, _ in rule.offsets]
    # longer across a join than the rule's span and reach (line_chase.applies)
    low_c = max(max(dcs) - min(dcs), *map(abs, dcs)) + 1 if topology != "plane" else 1
    low_r = max(max(drs) - min(drs), *map(abs, drs)) + 1 if topology in ("torus", "klein") else 1
    if topology == "projective":  # the fold: a ring of 2C places, reach at most R // 2
        low_c, low_r = (low_c + 1) // 2, 2 * max(drs)
    rows = draw(st.integers(max(low_r, 1), max(low_r, 4)))
    cols = draw(st.integers(low_c, max(low_c, 12 // rows)))
    return Shape(rows, cols, Rules(topology, rule, 2))


@settings(max_examples=150, deadline=None)
@given(small_boards(), st.data())
def test_small_boards_against_brute_force_and_general(board, data):
    if board.cells > 12:
        return
    images, quiet = image_and_kernel(board)
    b = data.draw(st.lists(st.integers(0, 1), min_size=board.cells, max_size=board.cells))
    check(board, b, images)
    assert 2 ** line_chase.plan(board).nullity == quiet
    # an unsolvable right-hand side whenever there is one: the witness must prove it
    unsolvable = next((v for v in itertools.product((0, 1), repeat=board.cells) if v not in images), None)
    if unsolvable is not None:
        check(board, list(unsolvable), images)


@st.composite
def middle_boards(draw: st.DrawFn) -> tuple[Shape, list[int]]:
    topology = draw(st.sampled_from(FAST))
    rule = rule_of(draw)
    rows = draw(st.integers(5, 16))
    cols = draw(st.integers(5, 16))
    board = Shape(rows, cols, Rules(topology, rule, 2))
    b = draw(st.lists(st.integers(0, 1), min_size=board.cells, max_size=board.cells))
    return board, b


@settings(max_examples=80, deadline=None)
@given(middle_boards())
def test_middle_boards_against_general(case):
    board, b = case
    if line_chase.applies(board):
        check(board, b)
    elif board.rules.topology == "projective":  # the fold asks for the vertical mirror
        assert flip_symmetric(board.rules.rule) != board.rules.rule
        check_general(board, b)
        board = Shape(board.rows, board.cols, Rules("projective", flip_symmetric(board.rules.rule), 2))
        check(board, b)
    else:  # a twisted join with every offset on one side of it
        dcs = [dc for _, dc in board.rules.rule.offsets]
        assert board.rules.topology in ACROSS and not min(dcs) <= 0 <= max(dcs)


def check_general(board: Shape, b: list[int]) -> None:
    """solutions.solve on a board rowchase leaves to the chase one equation at a time: still right."""
    sol = solutions.solve(board, b)
    if sol.solvable:
        assert solutions.apply(board, [0] * board.cells, sol.presses) == [(-v) % 2 for v in b]
    else:
        assert sum(w * v for w, v in zip(sol.witness, b)) % 2 == 1


@pytest.mark.parametrize("topology", FAST)
@pytest.mark.parametrize("rule", sorted(NAMED))
def test_named_rules_on_a_lit_board_and_on_a_quiet_start(topology, rule):
    """Unsolvable starts and nonzero nullity on purpose: the all-lit board and a lit quiet
    pattern of the transposed game (its own invariant) on boards of known kernel."""
    for n in (6, 9, 10, 12):
        board = Shape(n, n, Rules.make(topology, rule))
        check(board, [1] * board.cells)
        inv = line_chase.invariant_list(board)
        if inv:
            check(board, inv[0])


def test_torus_nullity_matches_oeis_a165738():
    table = a165738()
    got = [line_chase.plan(Shape(n, n, Rules.make("torus"))).nullity for n in range(3, 31)]
    assert got == [table[n] for n in range(3, 31)]


def test_plane_nullity_matches_oeis_a159257():
    table = oeis.table("A159257_nullity_nxn_n1-1000.txt")
    for n in [*range(1, 60), 98, 127, 299]:
        assert line_chase.plan(Shape(n, n, Rules.make("plane", Rule("copy", NAMED["plus"])))).nullity == table[n]


def test_when_it_applies():
    yes = [Shape(40, 40, Rules.make(t, r)) for t in FAST for r in NAMED]
    assert set(FAST) == set(TOPOLOGIES)
    assert all(line_chase.applies(b) for b in yes)
    # the projective fold: rings of 2C places, reach at most R // 2 (knight: 2), symmetric under dr -> -dr
    yes = [Shape(4, 3, Rules.make("projective", "knight")), Shape(5, 2, Rules.make("projective", "plus")),
           Shape(2, 2, Rules.make("projective", "star")), Shape(1, 3, Rules("projective", Rule("mask", ((0, 1),)), 2)),
           Shape(7, 9, Rules("projective", Rule("mask", ((-1, 2), (0, 0), (1, 2))), 2))]
    assert all(line_chase.applies(b) for b in yes)
    no = [Shape(3, 9, Rules.make("projective", "knight")), Shape(1, 9, Rules.make("projective", "plus")),
          Shape(9, 2, Rules.make("projective", "knight")), Shape(9, 1, Rules.make("projective", "plus")),
          Shape(9, 9, Rules("projective", Rule("mask", ((0, 0), (1, 0))), 2)),
          Shape(9, 9, Rules("projective", Rule("mask", ((-1, 1), (0, 0), (1, -1))), 2))]
    # twisted joins: the chase runs along columns, and must have a pivot column ahead and behind
    no += [Shape(40, 40, Rules("moebius", Rule("mask", ((0, 1), (1, 1))), 2)),
           Shape(40, 2, Rules.make("moebius", "star")), Shape(2, 40, Rules.make("klein", "star"))]
    no += [Shape(40, 40, Rules.make("plane", ROWCOL)), Shape(40, 40, Rules.make("torus", "plus", 3)),
           Shape(2, 40, Rules.make("torus", "plus")), Shape(40, 2, Rules.make("cylinder", "star"))]
    # an offset reaching past a narrow join would wrap round more than once (found by hypothesis)
    no += [Shape(1, 1, Rules("cylinder", Rule("mask", ((0, 2),)), 2)),
           Shape(3, 2, Rules("torus", Rule("mask", ((0, 0), (3, 0))), 2)),
           Shape(2, 2, Rules("moebius", Rule("mask", ((0, -2), (0, 0), (1, 0))), 2))]
    assert not any(line_chase.applies(b) for b in no)
    # duplicate offsets count twice: not a plain sum of shifts
    assert not line_chase.applies(Shape(9, 9, Rules("plane", Rule("mask", ((0, 0), (0, 0), (1, 0))), 2)))


@pytest.mark.parametrize("board", [Shape(1, 1, Rules("cylinder", Rule("mask", ((0, 2),)), 2)),
                                   Shape(2, 3, Rules("cylinder", Rule("mask", ((0, 0), (0, 4))), 2)),
                                   Shape(3, 2, Rules("torus", Rule("mask", ((0, 0), (3, 1))), 2))], ids=str)
def test_offsets_that_wrap_round_a_narrow_join_twice_are_solved_right(board):
    images, _ = image_and_kernel(board)
    for b in itertools.product((0, 1), repeat=board.cells):
        out = solutions.solve(board, list(b))
        assert out.solvable == (b in images)
        if out.presses is not None:
            assert solutions.apply(board, [0] * board.cells, out.presses) == list(b)


@pytest.mark.parametrize("topology", TOPOLOGIES)
def test_general_dispatches_big_boards_and_agrees(topology):
    rng = np.random.default_rng(7)
    board = Shape(33, 34, Rules.make(topology, "star"))
    assert board.cells >= choice.FAST_CELLS
    start = rng.integers(0, 2, board.cells).tolist()
    sol = solutions.solve(board, start)
    ref = reference_chase.solve_by_plan(board, [(-v) % 2 for v in start])
    assert (sol.solvable, sol.nullity) == (ref.solvable, ref.nullity)
    if sol.solvable:
        assert solutions.apply(board, start, sol.presses) == [0] * board.cells
    else:
        assert sum(w * v for w, v in zip(sol.witness, start)) % 2 == 1
    assert len(solutions.orders(board)) == ref.nullity == len(solutions.quiet(board))
    for q, order in solutions.quiet(board):
        assert order == 2 and solutions.apply(board, [0] * board.cells, q) == [0] * board.cells
    for w in solutions.invariants(board):
        assert all(sum(w[i] * c for i, c in col.items()) % 2 == 0 for col in solutions.columns(board))


def test_big_boards_refuse_bad_vectors_in_generals_words():
    from countlo.errors import BadSizeError

    board = Shape(30, 30, Rules.make("klein", "x"))
    with pytest.raises(BadSizeError, match=r"the start must hold 900 values 0\.\.1"):
        solutions.solve(board, [0] * 899)
    with pytest.raises(BadSizeError, match=r"the target must hold 900 values 0\.\.1"):
        solutions.solve(board, [0] * 900, [2] * 900)
    for bad in ([-1] * 900, [256] * 900, [0.5] * 900, [1.0] * 900, ["1"] * 900, [0] * 899 + [None]):
        with pytest.raises(BadSizeError, match=r"the start must hold 900 values 0\.\.1"):
            line_chase.solve_start(board, bad)
    lit = line_chase.solve_start(board, [True] * 900)
    assert lit == line_chase.solve_start(board, np.ones(900, dtype=np.int64)) == line_chase.solve_start(board, (1,) * 900)
    sol = solutions.solve(board, [1] * 900, [1] * 900)
    assert sol.solvable and not any(sol.presses)


def test_more_than_64_quiet_patterns_and_invariants():
    """33 x 33 torus star: 128 quiet patterns, so two blocks of 64 and a witness past the first."""
    board = Shape(33, 33, Rules.make("torus", "star"))
    n = board.cells
    quiet = solutions.quiet(board)
    assert len(quiet) == solutions.orders(board).__len__() == 128
    vectors = [q for q, _ in quiet]
    assert gf2_rank(vectors) == 128
    assert all(solutions.apply(board, [0] * n, q) == [0] * n for q in vectors)
    assert len(line_chase.quiet_list(board, 70)) == 70
    # a target that every invariant of the first word passes and a later one refuses: the witness
    # must come from past the first 64 (cells combined by elimination on their signatures)
    inv = line_chase.invariant_list(board)
    assert len(inv) == 128
    sig = [sum(inv[i][c] << i for i in range(128)) for c in range(n)]
    basis: dict[int, tuple[int, int]] = {}  # lowest-word pivot -> (signature, cells)
    target_cells = None
    for c in range(n):
        v, cells = sig[c], 1 << c
        while v & ((1 << 64) - 1):
            low = (v & -v).bit_length() - 1
            if low not in basis:
                basis[low] = (v, cells)
                break
            v, cells = v ^ basis[low][0], cells ^ basis[low][1]
        else:
            if v:
                target_cells = cells
                break
    assert target_cells is not None
    target = [(target_cells >> c) & 1 for c in range(n)]
    sol = solutions.solve(board, [0] * n, target)
    assert not sol.solvable
    assert sum(a * b for a, b in zip(sol.witness, target)) % 2 == 1
    assert all(sum(sol.witness[i] * c for i, c in col.items()) % 2 == 0 for col in solutions.columns(board))


# drawn masks with the vertical mirror but not their own negation (-D != D): the transposed game,
# which gives the witness, is then another game, read across the top with its place offsets kept
MIRRORED = {"tilted": ((-1, 1), (0, 0), (1, 1)), "wide": ((-1, -2), (0, 1), (1, -2))}


@pytest.mark.parametrize("rule", [*sorted(NAMED), *sorted(MIRRORED)])
def test_projective_fold_against_brute_force_on_every_small_shape(rule):
    """Every R x C projective board of at most 12 cells that the fold takes (odd and even sides,
    non-square), on starts brute force can and cannot reach: solvable exactly when brute force
    reaches it, with the right nullity, presses that solve and witnesses that prove (docs/MATH.md
    §18.6)."""
    rng = np.random.default_rng(11)
    shapes = [(r, c) for r in range(1, 13) for c in range(1, 13) if r * c <= 12]
    drawn = Rule("mask", MIRRORED[rule]) if rule in MIRRORED else Rule(rule, NAMED[rule])
    taken = [Shape(r, c, Rules("projective", drawn, 2)) for r, c in shapes]
    taken = [b for b in taken if line_chase.applies(b)]
    # knight needs R >= 4 and C >= 3 here: its odd sides are in the next test
    assert {b.rows % 2 for b in taken} == ({0} if rule == "knight" else {0, 1})
    assert any(b.rows != b.cols for b in taken)
    for board in taken:
        images, quiet = image_and_kernel(board)
        assert 2 ** line_chase.plan(board).nullity == quiet
        unreached = [v for v in itertools.product((0, 1), repeat=board.cells) if v not in images]
        starts = [*images, *unreached]
        for i in {0, len(images), *rng.integers(0, len(starts), 6).tolist()} - {len(starts)}:
            check(board, list(starts[i]), images)


@pytest.mark.parametrize("rule", sorted(NAMED))
@pytest.mark.parametrize(("rows", "cols"), [(6, 9), (9, 6), (7, 7), (10, 10), (11, 4), (4, 13)])
def test_projective_named_rules_against_general(rule, rows, cols):
    """Bigger projective boards, odd and even sides: the fold against general's own chase, on the
    all-lit start, random starts and a lit invariant (unsolvable on purpose when there is one)."""
    board = Shape(rows, cols, Rules.make("projective", rule))
    if not line_chase.applies(board):
        assert rule == "knight" and min(rows, cols) < 5
        return
    rng = np.random.default_rng(rows * 100 + cols)
    check(board, [1] * board.cells)
    for _ in range(3):
        check(board, rng.integers(0, 2, board.cells).tolist())
    inv = line_chase.invariant_list(board)
    assert len(inv) == line_chase.plan(board).nullity
    for w in inv:
        assert all(sum(w[i] * c for i, c in col.items()) % 2 == 0 for col in solutions.columns(board))
    if inv:
        check(board, inv[0])


def test_projective_lights_follow_rules_place():
    """line_chase.lights on the projective plane (the check solve makes on its answer) against
    solutions.apply, corners and crossings included, for every named rule and a drawn one."""
    rng = np.random.default_rng(3)
    for rule in [*(Rule(n, NAMED[n]) for n in sorted(NAMED)), Rule("mask", ((-3, 2), (0, 0), (2, -4)))]:
        for rows, cols in ((5, 8), (8, 5), (7, 7)):
            board = Shape(rows, cols, Rules("projective", rule, 2))
            presses = rng.integers(0, 2, (rows, cols)).astype(np.uint8)
            got = line_chase.lights(board, presses).reshape(-1).tolist()
            assert got == solutions.apply(board, [0] * board.cells, presses.reshape(-1).tolist())
