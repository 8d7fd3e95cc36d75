"""Fewest presses and the most clicks under other rules, against brute force on every start."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from countlo.board import Shape, bits
from countlo.graph import Graph
from countlo.rules import Rules
from countlo.visible import fewest, hardest, solutions
from countlo.visible.algebra import coset_radix, coset_walsh

PETERSEN = Graph(tuple(str(i) for i in range(10)),
                 ((0, 1), (1, 2), (2, 3), (3, 4), (0, 4), (0, 5), (1, 6), (2, 7), (3, 8), (4, 9),
                  (5, 7), (7, 9), (6, 9), (6, 8), (5, 8)), "sigma", 2)

BOARDS = [
    Shape(4, 4, Rules.make("torus", "ring")),  # nullity 8
    Shape(3, 4, Rules.make("torus", "star")),  # nullity 8
    Shape(3, 4, Rules.make("moebius", "ring")),  # nullity 6
    Shape(4, 3, Rules.make("klein", "plus")),
    Shape(4, 4, Rules.make("plane", "x")),
    PETERSEN,
    PETERSEN.with_rule("sigma+", 3),
    Shape(3, 3, Rules.make("torus", "star", 3)),  # 3^8 quiet patterns
    Shape(3, 3, Rules.make("torus", "knight", 3)),
    Shape(2, 3, Rules.make("moebius", "star", 4)),  # 4^5
    Shape(2, 4, Rules.make("plane", "knight", 4)),
    Shape(2, 3, Rules.make("plane", "star", 6)),  # Z2^3 x Z3^3
    Shape(2, 3, Rules.make("torus", "plus", 6)),
]


@cache
def least_by_start(board) -> dict[tuple[int, ...], tuple[int, tuple[int, ...]]]:
    """Every press vector once: for each start it clears (the lights it makes from dark, negated),
    the least press count and one press vector with it."""
    k, n = solutions.states(board), board.cells
    cols = solutions.columns(board)
    out: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}
    for x in itertools.product(range(k), repeat=n):
        v = [0] * n
        for j, times in enumerate(x):
            if times:
                for i, t in cols[j].items():
                    v[i] = (v[i] - t * times) % k
        key, w = tuple(v), sum(x)
        if key not in out or w < out[key][0]:
            out[key] = (w, x)
    return out


def some(best: dict, most: int = 400) -> list:
    """The solvable starts, every one up to `most` of them, else an even sample of `most`."""
    items = list(best.items())
    return items[:: max(1, len(items) // most)]


def name(board) -> str:
    return str(board) if isinstance(board, Graph) else f"{board} {board.rules.describe()}"


@pytest.mark.parametrize("board", BOARDS, ids=name)
def test_fewest_on_every_solvable_start_against_brute_force(board):
    best = least_by_start(board)
    k, n = solutions.states(board), board.cells
    for start, (w, _) in some(best):
        f = fewest.fewest(board, list(start))
        assert f is not None and f.exact and not f.stopped
        assert f.count == w == f.lower_bound
        assert solutions.apply(board, list(start), f.presses) == [0] * n
    # and one unsolvable start, when there is one
    for start in itertools.product(range(k), repeat=n):
        if start not in best:
            assert fewest.fewest(board, list(start)) is None
            break


@pytest.mark.parametrize("board", BOARDS[:3] + BOARDS[7:9], ids=name)
def test_fewest_to_a_target(board):
    best = least_by_start(board)
    k, n = solutions.states(board), board.cells
    target = [(j * 7 + 1) % k for j in range(n)]
    for start in list(best)[:: max(1, len(best) // 40)]:
        s = [(a + t) % k for a, t in zip(start, target)]  # target - s = -start: as clearing start
        f = fewest.fewest(board, s, target)
        assert f is not None and f.exact and f.count == best[start][0]
        assert solutions.apply(board, s, f.presses) == target


@pytest.mark.parametrize("board", BOARDS, ids=name)
def test_lower_bounds_never_exceed_the_minimum(board):
    """The bounds a stopped search reports, on every solvable start: the tilings' bound and
    (more states) the cell bound and a search stopped after its first step."""
    best = least_by_start(board)
    k, n = solutions.states(board), board.cells
    gens = solutions.quiet(board)
    for start, (w, _) in some(best, 200):
        x = solutions.solve(board, list(start)).presses
        assert x is not None
        assert fewest.count_bound(board, list(start), None) <= w
        if k == 2:
            basis = [bits(g) for g, _ in gens]
            for tiling in fewest.tilings(board, (2, 3), (3, 5)):
                masks = [bits([1 if j in set(c) else 0 for j in range(n)]) for c in tiling]
                assert coset_walsh.region_bound(bits(x), basis, n, masks) <= w
            continue
        assert coset_radix.cell_bound(x, gens, k) <= w
        for tiling in fewest.tilings(board, (1, 2, 3), (2, 4)):
            assert coset_radix.region_bound(x, gens, k, tiling) <= w
        z = coset_radix.lightest(x, gens, k, time_limit=0.0, lo_members=1,
                           regions=fewest.tilings(board, (2,), (4,)))
        assert z.lower_bound <= w <= z.weight
        assert solutions.apply(board, list(start), z.member) == [0] * n


@pytest.mark.parametrize("board", [BOARDS[7], BOARDS[8]], ids=name)
def test_a_stopped_search_says_so_and_is_exact_only_when_proven(board):
    best = least_by_start(board)
    gens = solutions.quiet(board)
    for start, (w, _) in best.items():
        x = solutions.solve(board, list(start)).presses
        z = coset_radix.lightest(x, gens, 3, time_limit=0.0, lo_members=1)
        assert z.stopped  # one generator's multiples per step: stopped after the first step
        assert z.lower_bound <= w <= z.weight
        assert z.exact == (z.weight == z.lower_bound)


def test_progress_reports_the_search():
    board = Shape(3, 3, Rules.make("torus", "star", 3))
    seen = []
    f = fewest.fewest(board, [1] * 9, progress=seen.append)
    assert f is not None and f.exact
    x = solutions.solve(board, [1] * 9).presses
    z = coset_radix.lightest(x, solutions.quiet(board), 3, lo_members=1, progress=seen.append, every=0.0)
    assert z.exact and z.weight == f.count
    assert seen and seen[-1].total == 3 ** 8 and all(s.best >= f.count for s in seen)


@pytest.mark.parametrize("board", BOARDS, ids=name)
def test_most_against_brute_force(board):
    best = least_by_start(board)
    worst = max(w for w, _ in best.values())
    h = hardest.hardest(board)
    assert h.exact and h.lower == h.upper == worst
    assert h.presses is not None and sum(h.presses) == worst
    # the start it names really needs that many
    start = [(-a) % solutions.states(board) for a in solutions.apply(board, [0] * board.cells,
                                                                  h.presses)]
    assert best[tuple(start)][0] == worst


def test_most_with_more_states_refuses_big_boards_in_one_line():
    from countlo.errors import BadSizeError

    with pytest.raises(BadSizeError, match="at most"):
        hardest.hardest(Shape(5, 5, Rules.make("plane", "plus", 3)))


def test_classic_counting_bound_never_exceeds_the_minimum_and_floors_a_stopped_run():
    from countlo.board import press_masks

    for rows, cols, stride in ((4, 4, 7), (3, 4, 1), (1, 6, 1), (2, 5, 1)):
        shape = Shape(rows, cols)
        masks = press_masks(shape)
        for presses in range(0, 1 << shape.cells, stride):
            board = 0
            for j in range(shape.cells):
                if presses >> j & 1:
                    board ^= masks[j]
            f = fewest.fewest(shape, board)
            assert f is not None and f.exact
            assert fewest.classic_bound(shape, board) <= f.count
    shape = Shape(39, 39)  # nullity 32: a 10 ms limit stops the search after one step
    f = fewest.fewest(shape, (1 << shape.cells) - 1, time_limit=0.01)
    assert f is not None and f.stopped and not f.exact
    assert -(-shape.cells // 5) <= f.lower_bound <= 561 <= f.count  # A075464(39) = 561


@pytest.mark.parametrize("board", [BOARDS[0], BOARDS[7], BOARDS[11]], ids=name)
def test_too_many_quiet_patterns_to_hold_gives_an_honest_upper_and_lower_bound(board,
                                                                                monkeypatch):
    monkeypatch.setattr(fewest, "HELD", 4)  # as if nullity x cells were too big for the search
    best = least_by_start(board)
    n = board.cells
    for start, (w, _) in some(best, 50):
        f = fewest.fewest(board, list(start), time_limit=0.5)
        assert f is not None and f.stopped
        assert f.lower_bound <= w <= f.count
        assert f.exact == (f.count == f.lower_bound)
        assert solutions.apply(board, list(start), f.presses) == [0] * n
