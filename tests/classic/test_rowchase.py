"""The row-at-a-time chase (countlo.classic.rowchase) against brute force and against the chase one
equation at a time (countlo.classic.general), on every topology it takes and every rule."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from brute import gf2_rank
from hypothesis import given, settings
from hypothesis import strategies as st
from oeis import a165738

from countlo.board import Shape
from countlo.classic import general, rowchase
from countlo.rules import NAMED, ROWCOL, TOPOLOGIES, Rule, Rules

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
    cols = general.columns(board)
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
    assert rowchase.applies(board)
    n = board.cells
    ref = general._solve_by_plan(board, b)
    presses, witness, nullity = rowchase.solve(board, b)
    assert nullity == ref.nullity
    assert (presses is not None) == ref.solvable
    if images is not None:
        assert ref.solvable == (tuple(b) in images)
    cols = general.columns(board)
    if presses is not None:
        assert general.apply(board, [0] * n, presses) == b
    else:
        assert witness is not None
        assert all(sum(witness[i] * c for i, c in col.items()) % 2 == 0 for col in cols)
        assert sum(w * v for w, v in zip(witness, b)) % 2 == 1
    quiet = rowchase.quiet_list(board)
    assert len(quiet) == nullity and gf2_rank(quiet) == nullity
    assert all(general.apply(board, [0] * n, q) == [0] * n for q in quiet)
    assert n < general.ROWCHASE_CELLS  # so general.quiet is general's own chase
    reference = [g for g, _ in general.quiet(board)]
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
    # longer across a join than the rule's span and reach (rowchase.applies)
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
    assert 2 ** rowchase.plan(board).nullity == quiet
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
    if rowchase.applies(board):
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
    """general.solve on a board rowchase leaves to the chase one equation at a time: still right."""
    sol = general.solve(board, b)
    if sol.solvable:
        assert general.apply(board, [0] * board.cells, sol.presses) == [(-v) % 2 for v in b]
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
        inv = rowchase.invariant_list(board)
        if inv:
            check(board, inv[0])


def test_torus_nullity_matches_oeis_a165738():
    table = a165738()
    got = [rowchase.plan(Shape(n, n, Rules.make("torus"))).nullity for n in range(3, 31)]
    assert got == [table[n] for n in range(3, 31)]


def test_plane_nullity_matches_oeis_a159257():
    path = Path(__file__).resolve().parent.parent / "data" / "A159257_nullity_nxn_n1-1000.txt"
    table = {}
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit():
            table[int(parts[0])] = int(parts[1])
    for n in [*range(1, 60), 98, 127, 299]:
        assert rowchase.plan(Shape(n, n, Rules.make("plane", Rule("copy", NAMED["plus"])))).nullity == table[n]


def test_when_it_applies():
    yes = [Shape(40, 40, Rules.make(t, r)) for t in FAST for r in NAMED]
    assert set(FAST) == set(TOPOLOGIES)
    assert all(rowchase.applies(b) for b in yes)
    # the projective fold: rings of 2C places, reach at most R // 2 (knight: 2), symmetric under dr -> -dr
    yes = [Shape(4, 3, Rules.make("projective", "knight")), Shape(5, 2, Rules.make("projective", "plus")),
           Shape(2, 2, Rules.make("projective", "star")), Shape(1, 3, Rules("projective", Rule("mask", ((0, 1),)), 2)),
           Shape(7, 9, Rules("projective", Rule("mask", ((-1, 2), (0, 0), (1, 2))), 2))]
    assert all(rowchase.applies(b) for b in yes)
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
    assert not any(rowchase.applies(b) for b in no)
    # duplicate offsets count twice: not a plain sum of shifts
    assert not rowchase.applies(Shape(9, 9, Rules("plane", Rule("mask", ((0, 0), (0, 0), (1, 0))), 2)))


@pytest.mark.parametrize("board", [Shape(1, 1, Rules("cylinder", Rule("mask", ((0, 2),)), 2)),
                                   Shape(2, 3, Rules("cylinder", Rule("mask", ((0, 0), (0, 4))), 2)),
                                   Shape(3, 2, Rules("torus", Rule("mask", ((0, 0), (3, 1))), 2))], ids=str)
def test_offsets_that_wrap_round_a_narrow_join_twice_are_solved_right(board):
    images, _ = image_and_kernel(board)
    for b in itertools.product((0, 1), repeat=board.cells):
        out = general.solve(board, list(b))
        assert out.solvable == (b in images)
        if out.presses is not None:
            assert general.apply(board, [0] * board.cells, out.presses) == list(b)


@pytest.mark.parametrize("topology", TOPOLOGIES)
def test_general_dispatches_big_boards_and_agrees(topology):
    rng = np.random.default_rng(7)
    board = Shape(33, 34, Rules.make(topology, "star"))
    assert board.cells >= general.ROWCHASE_CELLS
    start = rng.integers(0, 2, board.cells).tolist()
    sol = general.solve(board, start)
    ref = general._solve_by_plan(board, [(-v) % 2 for v in start])
    assert (sol.solvable, sol.nullity) == (ref.solvable, ref.nullity)
    if sol.solvable:
        assert general.apply(board, start, sol.presses) == [0] * board.cells
    else:
        assert sum(w * v for w, v in zip(sol.witness, start)) % 2 == 1
    assert len(general.orders(board)) == ref.nullity == len(general.quiet(board))
    for q, order in general.quiet(board):
        assert order == 2 and general.apply(board, [0] * board.cells, q) == [0] * board.cells
    for w in general.invariants(board):
        assert all(sum(w[i] * c for i, c in col.items()) % 2 == 0 for col in general.columns(board))


def test_big_boards_refuse_bad_vectors_in_generals_words():
    from countlo.errors import BadSizeError

    board = Shape(30, 30, Rules.make("klein", "x"))
    with pytest.raises(BadSizeError, match=r"the start must hold 900 values 0\.\.1"):
        general.solve(board, [0] * 899)
    with pytest.raises(BadSizeError, match=r"the target must hold 900 values 0\.\.1"):
        general.solve(board, [0] * 900, [2] * 900)
    for bad in ([-1] * 900, [256] * 900, [0.5] * 900, [1.0] * 900, ["1"] * 900, [0] * 899 + [None]):
        with pytest.raises(BadSizeError, match=r"the start must hold 900 values 0\.\.1"):
            rowchase.solve_start(board, bad)
    lit = rowchase.solve_start(board, [True] * 900)
    assert lit == rowchase.solve_start(board, np.ones(900, dtype=np.int64)) == rowchase.solve_start(board, (1,) * 900)
    sol = general.solve(board, [1] * 900, [1] * 900)
    assert sol.solvable and not any(sol.presses)


def test_more_than_64_quiet_patterns_and_invariants():
    """33 x 33 torus star: 128 quiet patterns, so two blocks of 64 and a witness past the first."""
    board = Shape(33, 33, Rules.make("torus", "star"))
    n = board.cells
    quiet = general.quiet(board)
    assert len(quiet) == general.orders(board).__len__() == 128
    vectors = [q for q, _ in quiet]
    assert gf2_rank(vectors) == 128
    assert all(general.apply(board, [0] * n, q) == [0] * n for q in vectors)
    assert len(rowchase.quiet_list(board, 70)) == 70
    # a target that every invariant of the first word passes and a later one refuses: the witness
    # must come from past the first 64 (cells combined by elimination on their signatures)
    inv = rowchase.invariant_list(board)
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
    sol = general.solve(board, [0] * n, target)
    assert not sol.solvable
    assert sum(a * b for a, b in zip(sol.witness, target)) % 2 == 1
    assert all(sum(sol.witness[i] * c for i, c in col.items()) % 2 == 0 for col in general.columns(board))


def test_echelon_on_random_matrices_dense_sparse_and_dependent():
    """Leading one at each pivot column, nothing before it, zero rows past the rank, the same row
    space (the carried word included) and the rank of a plain elimination on Python ints."""
    rng = np.random.default_rng(5)


    for trial in range(60):
        m, width = int(rng.integers(1, 300)), int(rng.integers(1, 400))
        dense = rng.random((m, width)) < (0.5, 0.1, 0.02, 0.002)[trial % 4]  # the last: words left sparse
        if trial % 4 == 0 and trial % 8:
            dense[:, :64] = rng.random((m, min(64, width))) < 0.002  # a sparse word, then dense ones
        if trial % 5 == 0:
            dense[m // 2:] = dense[:m - m // 2]  # dependent rows
        words = (width + 63) // 64
        c = np.zeros((m, words + 1), dtype=np.uint64)
        for i, j in zip(*np.nonzero(dense)):
            c[i, j >> 6] |= np.uint64(1) << np.uint64(j & 63)
        c[:, words] = rng.integers(0, 2 ** 63, m).astype(np.uint64)  # carried along, never a pivot
        rank, pivcols, a = rowchase.echelon(c, width)
        as_ints = [int.from_bytes(row.tobytes(), "little") for row in a]
        low = (1 << width) - 1
        assert rank == gf2_rank([v & low for v in [int.from_bytes(r.tobytes(), "little") for r in c]])
        assert list(pivcols) == sorted(set(pivcols.tolist())) and len(pivcols) == rank
        for i, col in enumerate(pivcols.tolist()):
            assert as_ints[i] >> col & 1 and not as_ints[i] & ((1 << col) - 1)
            # reduced within the word: 0 at the word's other pivots (back_substitute relies on it)
            assert all(not as_ints[i] >> c & 1 for c in pivcols.tolist() if c != col and c >> 6 == col >> 6)
        assert not any(v & low for v in as_ints[rank:])
        original = [int.from_bytes(r.tobytes(), "little") for r in c]
        assert gf2_rank(as_ints) == gf2_rank(original) == gf2_rank(as_ints + original)


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
    taken = [b for b in taken if rowchase.applies(b)]
    # knight needs R >= 4 and C >= 3 here: its odd sides are in the next test
    assert {b.rows % 2 for b in taken} == ({0} if rule == "knight" else {0, 1})
    assert any(b.rows != b.cols for b in taken)
    for board in taken:
        images, quiet = image_and_kernel(board)
        assert 2 ** rowchase.plan(board).nullity == quiet
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
    if not rowchase.applies(board):
        assert rule == "knight" and min(rows, cols) < 5
        return
    rng = np.random.default_rng(rows * 100 + cols)
    check(board, [1] * board.cells)
    for _ in range(3):
        check(board, rng.integers(0, 2, board.cells).tolist())
    inv = rowchase.invariant_list(board)
    assert len(inv) == rowchase.plan(board).nullity
    for w in inv:
        assert all(sum(w[i] * c for i, c in col.items()) % 2 == 0 for col in general.columns(board))
    if inv:
        check(board, inv[0])


def test_projective_lights_follow_rules_place():
    """rowchase.lights on the projective plane (the check solve makes on its answer) against
    general.apply, corners and crossings included, for every named rule and a drawn one."""
    rng = np.random.default_rng(3)
    for rule in [*(Rule(n, NAMED[n]) for n in sorted(NAMED)), Rule("mask", ((-3, 2), (0, 0), (2, -4)))]:
        for rows, cols in ((5, 8), (8, 5), (7, 7)):
            board = Shape(rows, cols, Rules("projective", rule, 2))
            presses = rng.integers(0, 2, (rows, cols)).astype(np.uint8)
            got = rowchase.lights(board, presses).reshape(-1).tolist()
            assert got == general.apply(board, [0] * board.cells, presses.reshape(-1).tolist())


def test_add_sums_against_row_by_row_xor():
    """Every row gets the XOR of the table rows its chosen bits select; other bits are ignored."""
    rng = np.random.default_rng(11)
    for trial in range(60):
        width = int(rng.integers(1, 6))
        n = int(rng.integers(0, 3000)) if trial % 5 == 0 else int(rng.integers(0, 40))
        k = int(rng.integers(0, 65))
        bits = sorted(rng.choice(64, size=k, replace=False).tolist()) if trial % 2 else rng.permutation(64)[:k].tolist()
        pmat = rng.integers(0, 2 ** 63, size=(k, width)).astype(np.uint64) * np.uint64(2) + np.uint64(trial & 1)
        words = rng.integers(0, 2 ** 63, size=n).astype(np.uint64) * np.uint64(2) + np.uint64(1)
        target = rng.integers(0, 2 ** 63, size=(n, width)).astype(np.uint64)
        want = target.copy()
        for i in range(n):
            for j, b in enumerate(bits):
                if int(words[i]) >> b & 1:
                    want[i] ^= pmat[j]
        rowchase.add_sums(target, pmat, words, bits)
        assert np.array_equal(target, want)


class _Free:
    def __init__(self, nfree: int) -> None:
        self.nfree = nfree


def _pack(dense: np.ndarray) -> np.ndarray:
    m, n = dense.shape
    bits = np.zeros((m, max(1, (n + 63) // 64) * 64), dtype=np.uint8)
    bits[:, :n] = dense
    return np.packbits(bits, axis=1, bitorder="little").view(np.uint64).reshape(m, -1)


@pytest.mark.parametrize("m,n,density", [(1, 1, 0.5), (5, 1, 0.5), (3, 7, 0.0), (64, 64, 0.5), (70, 63, 0.5),
                                         (65, 65, 0.5), (200, 130, 0.5), (130, 200, 0.5), (300, 257, 0.02),
                                         (300, 300, 0.003), (150, 190, 0.9), (400, 400, 0.5)])
def test_kernel_and_particular_against_plain_elimination(m, n, density):
    """Plan.kernel: C K = 0 and exactly n - rank(C) independent vectors; Plan.particular: a y with
    C y = r whenever r is in C's image (r = C y0), None exactly when rank [C | r] > rank C."""
    rng = np.random.default_rng(m * 1000 + n)
    dense = (rng.random((m, n)) < density).astype(np.uint8)
    if m > 10:
        dense[::5] = dense[1::5][:len(dense[::5])] ^ dense[2::5][:len(dense[::5])]  # rank-deficient
    rows = [int("".join(map(str, reversed(r.tolist()))) or "0", 2) for r in dense]
    rank = gf2_rank(rows)
    plan = rowchase.Plan(_Free(n), _pack(dense), {}, {})  # type: ignore[arg-type]
    assert plan.nullity == n - rank
    kernel = plan.kernel()
    vecs = np.unpackbits(kernel.view(np.uint8), axis=1, bitorder="little")[:, :n - rank].T
    assert not (dense.astype(np.int64) @ vecs.T.astype(np.int64) % 2).any()
    assert gf2_rank([v.tolist() for v in vecs]) == n - rank
    for trial in range(4):
        y0 = rng.integers(0, 2, n).astype(np.int64)
        r = (dense.astype(np.int64) @ y0 % 2).astype(np.uint8) if trial % 2 == 0 else rng.integers(0, 2, m).astype(
            np.uint8)
        y = plan.particular(r)
        solvable = gf2_rank([row | int(bit) << n for row, bit in zip(rows, r.tolist())]) == rank
        assert (y is not None) == solvable
        if y is not None:
            assert np.array_equal(dense.astype(np.int64) @ y.astype(np.int64) % 2, r)
