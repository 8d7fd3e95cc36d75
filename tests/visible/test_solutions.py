"""Other rules: topologies, click rules, k states and graphs against brute force and known tables."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oeis import a165738

from countlo.board import Shape, press_masks
from countlo.errors import BadRuleError
from countlo.graph import Graph
from countlo.rules import NAMED, ROWCOL, TOPOLOGIES, Rule, Rules, place
from countlo.visible import solutions
from countlo.visible.algebra import smith

FAMILIES = [*NAMED, ROWCOL]


def press_images(board) -> dict[tuple[int, ...], list[tuple[int, ...]]]:
    """Every press vector grouped by the lights it produces from all dark (brute force)."""
    k, n = solutions.states(board), board.cells
    out: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for x in itertools.product(range(k), repeat=n):
        v = [0] * n
        for j, times in enumerate(x):
            if times:
                for i, t in board.hits(j).items():
                    v[i] = (v[i] + t * times) % k
        out.setdefault(tuple(v), []).append(x)
    return out


def check_every_start(board, targets=(None,)) -> None:
    """Every start of the board: solvable exactly when brute force says so, presses that work,
    a witness that proves it otherwise, the right number of quiet patterns."""
    k, n = solutions.states(board), board.cells
    images = press_images(board)
    quiet = len(images[tuple([0] * n)])
    cols = solutions.columns(board)
    for target in targets:
        for start in itertools.product(range(k), repeat=n):
            sol = solutions.solve(board, list(start), target)
            t = target or [0] * n
            b = tuple((t[i] - start[i]) % k for i in range(n))
            assert sol.quiet_count == quiet
            if b in images:
                assert sol.solvable and solutions.apply(board, start, sol.presses) == list(t)
            else:
                assert not sol.solvable
                w = sol.witness
                assert all(sum(w[i] * c for i, c in col.items()) % k == 0 for col in cols)
                assert sum(a * c for a, c in zip(w, b)) % k


@pytest.mark.parametrize(("rule", "topology"), [(r, t) for r in FAMILIES for t in TOPOLOGIES
                                                 if r != ROWCOL or t == "plane"])  # rowcol: the plane only
def test_two_states_every_start_of_3x3_and_2x4(rule, topology):
    for rows, cols in ((3, 3), (2, 4)):
        check_every_start(Shape(rows, cols, Rules.make(topology, rule)))


@pytest.mark.parametrize("k, size", [(3, (2, 3)), (4, (2, 2)), (6, (2, 2)), (3, (3, 2))])
@pytest.mark.parametrize("topology", ["plane", "torus", "moebius", "projective"])
@pytest.mark.parametrize("rule", ["plus", "x", "knight", "ring"])
def test_k_states_every_start(k, size, topology, rule):
    check_every_start(Shape(*size, Rules.make(topology, rule, k)))


def test_four_by_four_two_states_with_a_lit_target():
    board = Shape(4, 4, Rules.make("torus", "x"))
    check_every_start(board, targets=([1] * 16,))


@st.composite
def boards(draw):
    k = draw(st.sampled_from([2, 2, 3, 4, 5, 6]))
    limit = {2: 10, 3: 6, 4: 5, 5: 4, 6: 4}[k]
    if draw(st.booleans()):
        n = draw(st.integers(1, min(5, limit)))
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        edges = tuple(sorted(draw(st.sets(st.sampled_from(pairs), max_size=len(pairs)))
                             if pairs else set()))
        return Graph(tuple(f"n{i}" for i in range(n)), edges,
                     draw(st.sampled_from(["sigma", "sigma+"])), k)
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, max(1, limit // rows)))
    topology = draw(st.sampled_from(TOPOLOGIES))
    offsets = draw(st.sets(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), min_size=1,
                           max_size=6))
    rule = Rule("mask", tuple(sorted(offsets)))
    return Shape(rows, cols, Rules(topology, rule, k))


@settings(max_examples=60, deadline=None)
@given(boards(), st.data())
def test_random_rules_and_graphs_against_brute_force(board, data):
    k, n = solutions.states(board), board.cells
    images = press_images(board)
    start = data.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    target = data.draw(st.none() | st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    t = target or [0] * n
    b = tuple((t[i] - start[i]) % k for i in range(n))
    sol = solutions.solve(board, start, target)
    assert sol.quiet_count == len(images[tuple([0] * n)])
    assert sol.solvable == (b in images)
    if sol.solvable:
        every = sorted(map(tuple, solutions.all_solutions(board, start, target)))
        assert every == sorted(images[b])
        best, exact = solutions.fewest(board, start, target)
        assert exact and sum(best) == min(map(sum, images[b]))
        assert solutions.apply(board, start, best) == list(t)


def test_quiet_generators_generate_exactly_the_quiet_patterns():
    board = Shape(2, 3, Rules.make("torus", "plus", 6))
    quiet = set(press_images(board)[tuple([0] * 6)])
    group = {tuple([0] * 6)}
    for g, o in solutions.quiet(board):
        group = {tuple((a + c * t) % 6 for a, t in zip(x, g)) for x in group for c in range(o)}
    assert group == quiet


# --- published tables and known games ------------------------------------------------------

# OEIS A159257: nullity of the classic n x n game, n = 1..24.
A159257 = [0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0, 0, 0, 14, 4]


def test_torus_nullity_matches_oeis_a165738():
    got = [solutions.solve(Shape(n, n, Rules.make("torus")), [0] * n * n).nullity
           for n in range(1, 31)]
    assert got == [a165738()[n] for n in range(1, 31)]


def test_plane_through_the_general_solver_matches_oeis_a159257():
    got = [solutions.solve(Shape(n, n, Rules(states=2, target="dark", topology="plane",
                                           rule=Rule("plus-copy", NAMED["plus"]))),
                         [0] * n * n).nullity for n in range(1, 25)]
    assert got == A159257


def dense_rank_mod_p(board, p: int) -> int:
    """Rank of the press matrix mod a prime by textbook elimination (independent of zk)."""
    n = board.cells
    m = [[board.hits(j).get(i, 0) % p for j in range(n)] for i in range(n)]
    rank = 0
    for c in range(n):
        piv = next((r for r in range(rank, n) if m[r][c]), None)
        if piv is None:
            continue
        m[rank], m[piv] = m[piv], m[rank]
        inv = pow(m[rank][c], -1, p)
        m[rank] = [v * inv % p for v in m[rank]]
        for r in range(n):
            if r != rank and m[r][c]:
                f = m[r][c]
                m[r] = [(a - f * b) % p for a, b in zip(m[r], m[rank])]
        rank += 1
    return rank


def test_xl25_knight_rule_5x5_has_a_unique_solution_for_every_start():
    board = Shape(5, 5, Rules.make("plane", "knight"))
    assert dense_rank_mod_p(board, 2) == 25
    assert solutions.solve(board, [1] * 25).nullity == 0


def test_lights_out_2000_three_states_5x5():
    board = Shape(5, 5, Rules.make("plane", "plus", 3))
    sol = solutions.solve(board, [1] * 25)
    assert sol.nullity == 25 - dense_rank_mod_p(board, 3) == 3
    assert sol.orders == (3, 3, 3)


@pytest.mark.parametrize("k", [4, 6, 255])
def test_composite_k_solves_exactly(k):
    board = Shape(4, 5, Rules.make("plane", "plus", k))
    made = [(7 * i + 3) % k for i in range(20)]
    start = [(-v) % k for v in solutions.apply(board, [0] * 20, made)]
    sol = solutions.solve(board, start)
    assert sol.solvable and solutions.apply(board, start, sol.presses) == [0] * 20
    lit = solutions.solve(board, [1] + [0] * 19)  # 4x5 has a quiet pattern of order 5
    assert sol.orders == (5,) if k == 255 else sol.orders == ()
    if not lit.solvable:
        w = lit.witness
        assert solutions.apply(board, [0] * 20, [0] * 20) == [0] * 20
        assert all(sum(w[i] * c for i, c in col.items()) % k == 0
                   for col in solutions.columns(board)) and w[0] % k


def test_zk_against_brute_force_on_small_matrices():
    import random

    rng = random.Random(3)
    for _ in range(400):
        k = rng.choice([2, 4, 6, 8, 9, 12])
        m, n = rng.randint(1, 3), rng.randint(1, 3)
        a = [[rng.randrange(k) for _ in range(n)] for _ in range(m)]
        b = [rng.randrange(k) for _ in range(m)]
        sols = [x for x in itertools.product(range(k), repeat=n)
                if all(sum(u * v for u, v in zip(r, x)) % k == c for r, c in zip(a, b))]
        res = smith.solve(a, b, n, k)
        assert (res.x is not None) == bool(sols)
        assert res.x is None or tuple(res.x) in sols
        kernel = [x for x in itertools.product(range(k), repeat=n)
                  if all(sum(u * v for u, v in zip(r, x)) % k == 0 for r in a)]
        assert res.size == len(kernel)


# --- the value objects -------------------------------------------------------------------------


def test_classic_rules_keep_the_classic_press_masks():
    assert Shape(4, 5) == Shape(4, 5, Rules())
    assert press_masks(Shape(4, 5, Rules.make("plane", "plus"))) == press_masks(Shape(4, 5))


def test_topologies_place_cells():
    assert place("plane", 3, 4, -1, 0) is None
    assert place("cylinder", 3, 4, 0, -1) == (0, 3) and place("cylinder", 3, 4, -1, 0) is None
    assert place("torus", 3, 4, -1, -1) == (2, 3)
    assert place("moebius", 3, 4, 0, 4) == (2, 0)
    assert place("klein", 3, 4, 3, 4) == (2, 0)
    assert place("projective", 3, 4, -1, 0) == (2, 3)


def test_rule_from_text():
    rule = Rule.from_text(";a cross\n.#.\n#O#\n.#.\n")
    assert rule.offsets == NAMED["plus"] and rule.name == "plus"
    assert Rule.from_text("#o#").offsets == ((0, -1), (0, 1))
    assert Rule.from_text(Rule.named("knight").drawn()) == Rule.named("knight")


@pytest.mark.parametrize("text, needle", [
    ("...\n.#.\n", "no centre marked"),
    ("O.\n.O\n", "rule:2: a second centre"),
    ("o..\n", "changes no cell"),
    ("#?O\n", "rule:1: unexpected '?'"),
    ("", "empty rule grid"),
])
def test_bad_rule_grids(text, needle):
    with pytest.raises(BadRuleError, match=needle):
        Rule.from_text(text)


def test_bad_rules():
    with pytest.raises(BadRuleError, match="unknown click rule 'hex'"):
        Rules.make(rule="hex")
    with pytest.raises(BadRuleError, match=r"2\.\.255, not 256"):
        Rules.make(states=256)
    with pytest.raises(BadRuleError, match="unknown topology 'sphere'"):
        Rules.make(topology="sphere")
    with pytest.raises(BadRuleError, match="rowcol"):
        Rules.make(topology="torus", rule="rowcol")


def test_symmetries_follow_the_rule():
    lopsided = Rule.from_text("O#\n")
    names = [s.name for s in Shape(3, 3, Rules("plane", lopsided)).symmetries()]
    assert names == ["identity", "mirror top-bottom"]
    assert len(Shape(3, 3, Rules.make("torus", "x")).symmetries()) == 8
