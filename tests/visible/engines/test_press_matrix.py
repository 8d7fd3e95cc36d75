"""Press maps (A lights x buttons, not square) on both engines that take them: the reference chase
and the whole-matrix elimination; checked against every press vector on small maps and against
an independent Gauss-Jordan written here on random rectangular systems (docs/MATH.md §27)."""

from __future__ import annotations

import itertools
import random

import pytest
from brute import gf2_rank

from countlo.graph import Graph
from countlo.pressmap import PressMap
from countlo.visible import solutions
from countlo.visible.engines import press_matrix, reference_chase
from countlo.visible.engines.choice import chosen
from countlo.visible.fewest import fewest
from countlo.visible.hardest import hardest

ENGINES = [reference_chase.ENGINE, press_matrix.ENGINE]


def random_map(rng: random.Random, lights: int, buttons: int, k: int, density: float = 0.5) -> PressMap:
    changes = tuple(tuple((i, rng.randrange(1, k)) for i in range(lights) if rng.random() < density)
                    for _ in range(buttons))
    return PressMap(tuple(f"L{i}" for i in range(lights)), tuple(f"b{j}" for j in range(buttons)), changes, k)


def lights_of(m: PressMap, x: list[int]) -> list[int]:
    """A x, from the map's own changes (not through any engine)."""
    out = [0] * m.cells
    for j, col in enumerate(m.changes):
        for i, t in col:
            out[i] = (out[i] + t * x[j]) % m.states
    return out


def check_answer(m: PressMap, out, b: list[int]) -> None:
    """Presses that reach b, or a proof: w A = 0 and w.b != 0 (mod k)."""
    k = m.states
    if out.presses is not None:
        assert len(out.presses) == m.presses
        assert lights_of(m, out.presses) == [v % k for v in b]
        return
    w = out.witness
    assert len(w) == m.cells
    assert all(sum(w[i] * t for i, t in col) % k == 0 for col in m.changes)
    assert sum(a * c for a, c in zip(w, b)) % k


@pytest.mark.parametrize("k", [2, 3, 4, 6])
@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (4, 4), (2, 6), (6, 2)])
def test_small_maps_against_every_press_vector(k, shape):
    lights, buttons = shape
    rng = random.Random(k * 100 + lights * 10 + buttons)
    for _trial in range(3 if k < 4 else 2):
        m = random_map(rng, lights, buttons, k)
        least: dict[tuple[int, ...], int] = {}  # every reachable start (as A x) and its fewest presses
        for x in itertools.product(range(k), repeat=buttons):
            key = tuple(lights_of(m, list(x)))
            least[key] = min(least.get(key, 10 ** 9), sum(x))
        quiet = sum(1 for x in itertools.product(range(k), repeat=buttons) if not any(lights_of(m, list(x))))
        for engine in ENGINES:
            assert len(engine.quiet(m, None)) == len(engine.orders(m))
            for q, o in engine.quiet(m, None):
                assert not any(lights_of(m, q)) and o > 1
            prod = 1
            for o in engine.orders(m):
                prod *= o
            assert prod == quiet
            for w in engine.invariants(m):
                assert all(sum(w[i] * t for i, t in col) % k == 0 for col in m.changes)
        for s in itertools.islice(itertools.product(range(k), repeat=lights), 0, None, max(1, k ** lights // 40)):
            start = list(s)
            reach = tuple((-v) % k for v in start)
            for engine in ENGINES:
                out = engine.solve_start(m, start, None)
                assert out.solvable == (reach in least)
                check_answer(m, out, list(reach))
            f = fewest(m, start)
            assert (f is None) == (reach not in least)
            if f is not None:
                assert f.count == least[reach] and f.exact
                assert lights_of(m, f.presses) == list(reach)


@pytest.mark.parametrize("k", [2, 3])
def test_most_presses_against_every_press_vector(k):
    rng = random.Random(7 + k)
    for shape in ((3, 5), (5, 3)):
        m = random_map(rng, *shape, k)
        least: dict[tuple[int, ...], int] = {}
        for x in itertools.product(range(k), repeat=m.presses):
            key = tuple(lights_of(m, list(x)))
            least[key] = min(least.get(key, 10 ** 9), sum(x))
        h = hardest(m)
        assert h.exact and h.lower == max(least.values())


def gauss_rank(rows: list[list[int]], p: int) -> int:
    """Rank over the field Z_p by plain Gauss-Jordan on lists (independent of countlo's algebra)."""
    a = [[v % p for v in r] for r in rows]
    rank = 0
    cols = len(a[0]) if a else 0
    for c in range(cols):
        pivot = next((r for r in range(rank, len(a)) if a[r][c]), None)
        if pivot is None:
            continue
        a[rank], a[pivot] = a[pivot], a[rank]
        inv = pow(a[rank][c], -1, p)
        a[rank] = [v * inv % p for v in a[rank]]
        for r in range(len(a)):
            if r != rank and a[r][c]:
                f = a[r][c]
                a[r] = [(u - f * v) % p for u, v in zip(a[r], a[rank])]
        rank += 1
    return rank


def matrix(m: PressMap) -> list[list[int]]:
    """A as lists, lights x buttons."""
    a = [[0] * m.presses for _ in range(m.cells)]
    for j, col in enumerate(m.changes):
        for i, t in col:
            a[i][j] = t
    return a


@pytest.mark.parametrize("k", [2, 3, 6])
@pytest.mark.parametrize("shape", [(40, 70), (70, 40), (120, 380), (380, 120)])
def test_random_rectangular_systems_against_gauss_jordan(k, shape):
    """Solvable iff rank A = rank [A | b] over each prime of k; the quiet group has
    prod_p p^(buttons - rank_p A) members; solutions and proofs checked as they stand."""
    lights, buttons = shape
    rng = random.Random(k * 1000 + lights)
    m = random_map(rng, lights, buttons, k, density=0.08)
    a = matrix(m)
    primes = [p for p in (2, 3) if k % p == 0]
    ranks = {p: gauss_rank(a, p) for p in primes}
    quiet = 1
    for p in primes:
        quiet *= p ** (buttons - ranks[p])
    if k == 2:
        assert ranks[2] == gf2_rank([[v & 1 for v in row] for row in a])  # the suite's own GF(2) reference agrees
    for engine in ENGINES:
        prod = 1
        for o in engine.orders(m):
            prod *= o
        assert prod == quiet
    for trial in range(4):
        if trial % 2:  # a start that some presses clear
            x = [rng.randrange(k) for _ in range(buttons)]
            start = [(-v) % k for v in lights_of(m, x)]
        else:
            start = [rng.randrange(k) for _ in range(lights)]
        b = [(-v) % k for v in start]
        solvable = all(gauss_rank([row + [v] for row, v in zip(a, b)], p) == ranks[p] for p in primes)
        for engine in ENGINES:
            out = engine.solve_start(m, start, None)
            assert out.solvable == solvable
            check_answer(m, out, b)


def test_k4_random_rectangular_systems_prove_what_they_answer():
    """Z_4 is no field: the answers are checked as they stand (presses reach b, or a left-kernel
    proof), and the two engines agree on solvability and the quiet group."""
    rng = random.Random(4)
    for lights, buttons in ((60, 90), (90, 60)):
        m = random_map(rng, lights, buttons, 4, density=0.06)
        assert sorted(reference_chase.ENGINE.orders(m)) == sorted(press_matrix.ENGINE.orders(m))
        for _ in range(4):
            start = [rng.randrange(4) for _ in range(lights)]
            b = [(-v) % 4 for v in start]
            outs = [e.solve_start(m, start, None) for e in ENGINES]
            assert outs[0].solvable == outs[1].solvable
            for out in outs:
                check_answer(m, out, b)


def test_the_choice_sends_big_press_maps_and_directed_graphs_to_the_matrix():
    rng = random.Random(1)
    assert chosen(random_map(rng, 5, 7, 2), "solve") == "reference_chase"
    assert chosen(random_map(rng, 150, 300, 3, 0.01), "solve") == "press_matrix"
    directed = Graph(tuple(str(i) for i in range(250)), (), "sigma+", 2, tuple((i, i + 1) for i in range(249)))
    assert chosen(directed, "quiet") == "press_matrix"
    # a path of arcs under sigma+: A is unit upper triangular, so every start is solvable, uniquely
    out = solutions.solve(directed, [1] * 250)
    assert out.solvable and out.quiet_count == 1
    assert solutions.apply(directed, [1] * 250, out.presses) == [0] * 250


def test_a_directed_graph_is_not_its_undirected_graph():
    """a -> b under sigma: pressing a lights b, nothing lights a, so a lit a is unsolvable and the
    proof weighs a alone."""
    g = Graph(("a", "b"), (), "sigma", 2, ((0, 1),))
    out = solutions.solve(g, [1, 0])
    assert not out.solvable and out.witness == [1, 0]
    assert solutions.solve(g, [0, 1]).presses == [1, 0]
