"""Two-state graphs through the greedy chase and the bit-packed Gauss-Jordan (countlo.visible.engines.graph_chase):
against brute force on every press vector of small graphs, against the chase one equation at a
time (countlo.visible.solutions's plan) on larger ones, the elimination against a plain one, and
the node limit through the CLI."""

from __future__ import annotations

import json
import random

import pytest
from brute import gf2_rank

from countlo.errors import BadSizeError
from countlo.graph import MAX_NODES, Graph
from countlo.visible import solutions
from countlo.visible.engines import choice, graph_chase, reference_chase
from countlo.visible.engines.engine import SOLVE


def random_graph(rng: random.Random, n: int, edges: int, rule: str) -> Graph:
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = rng.sample(pairs, min(edges, len(pairs)))
    return Graph(tuple(f"v{i}" for i in range(n)), tuple(sorted(chosen)), rule, 2)


def sparse_graph(rng: random.Random, n: int, degree: float, rule: str) -> Graph:
    edges: set[tuple[int, int]] = set()
    while len(edges) < int(n * degree / 2):
        i, j = rng.randrange(n), rng.randrange(n)
        if i != j:
            edges.add((min(i, j), max(i, j)))
    return Graph(tuple(f"v{i}" for i in range(n)), tuple(sorted(edges)), rule, 2)


def press(graph: Graph, x: list[int]) -> list[int]:
    """A x over GF(2), straight from the edges."""
    out = list(x) if graph.rule == "sigma+" else [0] * graph.cells
    for i, j in graph.edges:
        out[i] ^= x[j]
        out[j] ^= x[i]
    return out


def bits(v: list[int]) -> int:
    return sum(b << i for i, b in enumerate(v))


def span(vectors: list[int]) -> set[int]:
    out = {0}
    for v in vectors:
        out |= {u ^ v for u in out}
    return out




def brute(graph: Graph) -> tuple[set[int], set[int]]:
    """(image of A, kernel of A) as bitsets, every press vector listed."""
    n = graph.cells
    image, kernel = set(), set()
    for m in range(1 << n):
        b = bits(press(graph, [(m >> i) & 1 for i in range(n)]))
        image.add(b)
        if not b:
            kernel.add(m)
    return image, kernel


def check_answer(graph: Graph, start: list[int], target: list[int] | None) -> tuple[bool, int]:
    """Solve, and check every claim the answer makes; (solvable, nullity)."""
    x, w, d = graph_chase.solve_start(graph, start, target)
    b = [s ^ (target[i] if target else 0) for i, s in enumerate(start)]
    if x is not None:
        assert w is None and press(graph, x) == b
    else:
        assert w is not None
        assert not any(press(graph, w)), "the witness is not an invariant (w A = 0; A is symmetric)"
        assert sum(a & c for a, c in zip(w, b)) % 2 == 1, "the witness does not separate start and target"
    quiet = graph_chase.quiet_list(graph)
    assert len(quiet) == d
    for q in quiet:
        assert not any(press(graph, q))
    assert gf2_rank([bits(q) for q in quiet]) == d, "the quiet basis is not independent"
    return x is not None, d


@pytest.mark.parametrize("rule", ["sigma", "sigma+"])
def test_small_graphs_against_brute_force(rule):
    rng = random.Random(7 if rule == "sigma" else 8)
    for trial in range(120):
        n = rng.randint(1, 10)
        graph = random_graph(rng, n, rng.randint(0, n * (n - 1) // 2), rule)
        image, kernel = brute(graph)
        for _ in range(3):
            start = [rng.randint(0, 1) for _ in range(n)]
            target = [rng.randint(0, 1) for _ in range(n)] if trial % 2 else None
            solvable, d = check_answer(graph, start, target)
            b = bits(start) ^ (bits(target) if target else 0)
            assert solvable == (b in image), (graph, start, target)
            assert 1 << d == len(kernel)
        assert span([bits(q) for q in graph_chase.quiet_list(graph)]) == kernel


def test_special_graphs():
    def graph(n: int, edges: list[tuple[int, int]], rule: str) -> Graph:
        return Graph(tuple(f"n{i}" for i in range(n)), tuple(edges), rule, 2)

    # isolated nodes under sigma: nothing changes them (a free press, an unreachable light)
    g = graph(5, [(0, 1)], "sigma")
    assert check_answer(g, [1, 1, 0, 0, 0], None) == (True, 3)
    assert check_answer(g, [0, 0, 1, 0, 0], None) == (False, 3)
    # a star under sigma: the leaves are all alike, nullity = leaves - 1
    star = graph(8, [(0, i) for i in range(1, 8)], "sigma")
    assert check_answer(star, [1] * 8, None)[1] == 6
    # two components, a path of 4 and a cycle of 6 (a cycle under sigma+ is singular iff 3 divides
    # its length: 1 1 0 1 1 0 is quiet, and so are its shifts)
    two = graph(10, [(0, 1), (1, 2), (2, 3), (4, 5), (5, 6), (6, 7), (7, 8), (8, 9), (4, 9)], "sigma+")
    image, kernel = brute(two)
    assert len(kernel) == 4
    for m in range(1 << 10):
        start = [(m >> i) & 1 for i in range(10)]
        assert check_answer(two, start, None) == (m in image, 2)
    # one node
    assert check_answer(graph(1, [], "sigma+"), [1], None) == (True, 0)
    assert check_answer(graph(1, [], "sigma"), [1], None) == (False, 1)


@pytest.mark.parametrize("rule", ["sigma", "sigma+"])
def test_larger_graphs_against_the_chase_one_equation_at_a_time(rule):
    rng = random.Random(11 if rule == "sigma" else 12)
    for n, degree in [(60, 2.0), (150, 3.0), (250, 4.0), (300, 6.0), (400, 1.5)]:
        graph = sparse_graph(rng, n, degree, rule)
        ref = reference_chase.plan(graph)
        for t in range(4):
            start = [rng.randint(0, 1) for _ in range(n)]
            if t % 2:  # a start known to be solvable: the lights of random presses
                start = press(graph, start)
            want = reference_chase.solve_by_plan(graph, start)
            assert want.solvable or t % 2 == 0
            solvable, d = check_answer(graph, start, None)
            assert solvable == want.solvable and d == want.nullity == len(ref.kernel.orders)


def test_general_dispatches_big_two_state_graphs():
    rng = random.Random(3)
    graph = sparse_graph(rng, 500, 4.0, "sigma+")
    assert choice.chosen(graph, SOLVE) == "graph_chase"
    assert choice.chosen(graph.with_rule("sigma+", 3), SOLVE) != "graph_chase"
    start = [rng.randint(0, 1) for _ in range(500)]
    out = solutions.solve(graph, start)
    assert out.nullity == len(solutions.quiet(graph)) == len(solutions.orders(graph))
    if out.solvable:
        assert out.presses is not None and solutions.apply(graph, start, out.presses) == [0] * 500
    else:
        assert out.witness is not None and not any(solutions.apply(graph, [0] * 500, out.witness))
    for w in solutions.invariants(graph):
        assert not any(press(graph, w))
    with pytest.raises(BadSizeError, match="the start must hold 500 values"):
        solutions.solve(graph, [2] * 500)


def test_the_node_limit_is_one_line_exit_2(run_cli, tmp_path):
    g = tmp_path / "big.txt"
    g.write_text("\n".join(f"n{i}" for i in range(MAX_NODES + 1)) + "\n")
    res = run_cli(["solve", "--graph", str(g), "--all-on"])
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == [
        f"countlo solve: graphs are limited to {MAX_NODES} nodes; this one has {MAX_NODES + 1}"]
    assert res.stdout == ""


def test_a_10000_node_grid_graph_end_to_end(run_cli, tmp_path):
    side = 100
    lines = []
    for r in range(side):
        for c in range(side):
            if c + 1 < side:
                lines.append(f"r{r}c{c} r{r}c{c + 1}")
            if r + 1 < side:
                lines.append(f"r{r}c{c} r{r + 1}c{c}")
    g = tmp_path / "grid.txt"
    g.write_text("\n".join(lines) + "\n")
    res = run_cli(["solve", "--graph", str(g), "--all-on", "--json"])
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    names = [f"r{r}c{c}" for r in range(side) for c in range(side)]
    x = [0] * len(names)
    where = {name: i for i, name in enumerate(names)}
    for (name,) in out["presses"]:  # two states: [node], no times
        x[where[name]] = 1
    edges = tuple(sorted((min(where[a], where[b]), max(where[a], where[b]))
                         for a, b in (line.split() for line in lines)))
    graph = Graph(tuple(names), edges, "sigma+", 2)
    from countlo.board import Shape
    from countlo.visible.engines import polynomial_chase

    assert out["solvable"] and press(graph, x) == [1] * len(names)
    assert out["nullity"] == polynomial_chase.nullity(Shape(side, side))  # the grid graph is the classic game


@pytest.mark.parametrize("k", [3, 4, 6])
def test_big_graphs_with_k_states_chase_in_greedy_order(k):
    """Graphs of BITMATRIX_NODES nodes or more take the greedy order under any k (every coefficient
    is 1, a unit): the same quiet group as the chase in reading order, and answers that check."""
    rng = random.Random(k)
    for rule, n, degree in (("sigma", reference_chase.BITMATRIX_NODES + 50, 3.0), ("sigma+", 600, 4.0)):
        graph = sparse_graph(rng, n, degree, rule).with_rule(rule, k)
        greedy, reading = reference_chase.plan(graph), reference_chase.make_plan(reference_chase.rows(graph), k)
        assert sorted(greedy.kernel.orders) == sorted(reading.kernel.orders)
        assert len(greedy.free) < len(reading.free)
        if len(greedy.free) >= reference_chase.DENSE_FREE:  # the constraints went to zklu
            assert isinstance(greedy.system, reference_chase.Dense)
        for t in range(4):
            presses = [rng.randrange(k) for _ in range(n)]
            start = solutions.apply(graph, [0] * n, presses) if t % 2 else presses
            out = solutions.solve(graph, start)
            if out.solvable:
                assert out.presses is not None and solutions.apply(graph, start, out.presses) == [0] * n
            else:
                w = out.witness
                assert t % 2 == 0 and w is not None
                assert not any(solutions.apply(graph, [0] * n, w))  # w A = 0: A is symmetric
                assert sum(a * b for a, b in zip(w, start)) % k


def low_rank_rows(rng: random.Random, m: int, f: int, rank: int) -> list[int]:
    """m random rows over f columns spanning a space of dimension at most `rank`."""
    basis = [rng.getrandbits(f) for _ in range(rank)]
    out = []
    for _ in range(m):
        acc = 0
        for v in basis:
            if rng.random() < 0.5:
                acc ^= v
        out.append(acc)
    return out


def dot(a: int, b: int) -> int:
    return (a & b).bit_count() & 1


@pytest.mark.parametrize("f", [1, 7, 63, 64, 65, 127, 128, 129, 200, 300])
def test_reduced_against_plain_elimination(f):
    """The bit-packed elimination of C y = r (graph_chase.Reduced): solvable iff r is in C's column
    space (ranks by brute.gf2_rank on Python ints), y solves it, and the kernel is a basis of C's
    kernel, with few (one vector at a time) and many (rowchase's tables) kernel vectors."""
    rng = random.Random(f)
    for rank in sorted({0, 1, f // 2, max(0, f - graph_chase.FEW), max(0, f - graph_chase.FEW - 1), f - 1, f}):
        rows = low_rank_rows(rng, f, f, rank) if rank < f else [rng.getrandbits(f) | (1 << i) for i in range(f)]
        # columns of C are the free variables: C y has bit i = row i . y
        for t in range(3):
            r = [rng.randint(0, 1) for _ in range(f)]
            if t == 1:  # a right-hand side known to be in the image
                y0 = rng.getrandbits(f)
                r = [dot(row, y0) for row in rows]
            red = graph_chase.Reduced(graph_chase.pack(rows, f), r, f)
            rank_c = gf2_rank(list(rows))
            rank_aug = gf2_rank([row | (bit << f) for row, bit in zip(rows, r)])
            assert red.rank == rank_c and red.nullity == f - rank_c
            assert red.solvable() == (rank_aug == rank_c)
            if t == 1:
                assert red.solvable()
            if red.solvable():
                y = red.solution_bits()
                assert [dot(row, y) for row in rows] == r
                assert red.solution() == [(y >> i) & 1 for i in range(f)]
            vecs = red.kernel_vectors()
            assert len(vecs) == f - rank_c
            assert all(not any(dot(row, v) for row in rows) for v in vecs)
            assert gf2_rank(list(vecs)) == len(vecs)
            per_var, d = red.kernel()
            assert d == len(vecs)
            assert all(per_var[i] == sum(((v >> i) & 1) << j for j, v in enumerate(vecs)) for i in range(f))


@pytest.mark.parametrize("rule", ["sigma", "sigma+"])
def test_random_graphs_of_many_sizes_and_densities(rule):
    """Random graphs from sparse to dense (free variables across several 64-bit words): presses
    that reach the target, witnesses that are invariants separating start and target, and the
    nullity against the rank of A by plain elimination."""
    rng = random.Random(21 if rule == "sigma" else 22)
    for n, degree in [(200, 1.0), (201, 8.0), (255, 20.0), (256, 40.0), (300, 3.0), (320, 12.0), (450, 60.0),
                      (513, 6.0)]:
        graph = sparse_graph(rng, n, degree, rule)
        rows = [bits(press(graph, [int(i == j) for i in range(n)])) for j in range(n)]
        nullity = n - gf2_rank(rows)
        for t in range(4):
            start = [rng.randint(0, 1) for _ in range(n)]
            if t % 2:
                start = press(graph, start)
            solvable, d = check_answer(graph, start, None)
            assert d == nullity
            assert solvable or t % 2 == 0


def test_a_plan_serves_other_lights_than_its_own():
    """The plan chases its first lights along with the forms; later lights on the same graph are
    chased on their own and must be answered as well (solvable and unsolvable ones)."""
    rng = random.Random(5)
    core = sparse_graph(rng, 396, 10.0, "sigma")  # and 4 isolated nodes: a lit one is unreachable
    graph = Graph(tuple(f"v{i}" for i in range(400)), core.edges, "sigma", 2)
    graph_chase.plan.cache_clear()
    seen = set()
    for t in range(8):
        start = [rng.randint(0, 1) for _ in range(400)]
        if t % 2:
            start = press(graph, start)
        solvable, _d = check_answer(graph, start, None)
        seen.add(solvable)
        solvable2, _d = check_answer(graph, start, None)  # the same lights again: the kept reduction
        assert solvable2 == solvable
    assert seen == {True, False}
    assert len(graph_chase.plan.kept) == 1


def test_lights_with_isolated_nodes():
    """A x from the neighbourhoods when some nodes have none (sigma), first, in the middle and last."""
    g = Graph(tuple(f"n{i}" for i in range(6)), ((1, 2), (2, 4)), "sigma", 2)
    p = graph_chase.Plan(g)
    for m in range(1 << 6):
        x = [(m >> i) & 1 for i in range(6)]
        assert p.lights(x) == press(g, x)
    empty = Graph(("a", "b"), (), "sigma", 2)
    assert graph_chase.Plan(empty).lights([1, 1]) == [0, 0]


def test_unsolvable_with_one_quiet_pattern():
    """With nullity 1 the witness is the one quiet pattern (no search over the lit nodes): it must
    still separate. A small case, and 301-node graphs with one isolated node under sigma (A is
    then symmetric with a zero diagonal, of even rank, so the nullity is odd: often 1)."""
    two = Graph(("a", "b"), ((0, 1),), "sigma+", 2)
    assert check_answer(two, [1, 0], None) == (False, 1)
    rng = random.Random(9)
    found = 0
    for _ in range(12):
        core = sparse_graph(rng, 300, 20.0, "sigma")
        graph = Graph(tuple(f"v{i}" for i in range(301)), core.edges, "sigma", 2)  # v300 is isolated
        start = press(graph, [rng.randint(0, 1) for _ in range(301)])
        start[300] = 1  # no press reaches it
        solvable, d = check_answer(graph, start, None)
        assert not solvable
        found += d == 1
    assert found


def homogeneous_chase(p: graph_chase.Plan, n: int) -> tuple[list[int], list[int]]:
    """The chase with b = 0 along the plan's steps, one equation at a time on Python ints: each
    press's form in the free variables (bit i: free variable i) and each constraint's row."""
    forms = [0] * n
    for i, v in enumerate(p.free):
        forms[v] = 1 << i
    want = []
    for e, piv in p.steps:
        acc = 0
        for v in p.nbhd[e]:
            acc ^= forms[v]
        if piv >= 0:
            forms[piv] = acc
        else:
            want.append(acc)
    return forms, want


@pytest.mark.parametrize("rule", ["sigma", "sigma+"])
def test_constraint_matrix_against_the_plain_homogeneous_chase(rule):
    """C as the plan builds it (pivot sums on Python ints, free presses scattered with numpy)
    against the homogeneous chase with every press's form summed over its whole equation."""
    rng = random.Random(31 if rule == "sigma" else 32)
    for n, degree in [(200, 2.0), (300, 9.0), (257, 30.0)]:
        core = sparse_graph(rng, n - 2, degree, rule)
        graph = Graph(tuple(f"v{i}" for i in range(n)), core.edges, rule, 2)  # two isolated nodes
        p = graph_chase.Plan(graph)
        forms, want = homogeneous_chase(p, n)
        assert p.c.shape[0] == len(want) == p.f
        assert [int.from_bytes(row.tobytes(), "little") for row in p.c] == want
        assert [f >> 1 for f in p.forms] == forms


@pytest.mark.parametrize("rule", ["sigma", "sigma+"])
@pytest.mark.parametrize("dense", [False, True])
def test_both_chases_on_dense_graphs(rule, dense, monkeypatch):
    """The greedy order and forms on numpy arrays (dense graphs) and on lists, each forced on the
    same graphs: dense random graphs of many sizes (free variables around the 64-bit word
    boundaries), some with isolated nodes; presses that reach the target, witnesses that are
    invariants separating start and target, the nullity against plain elimination of A, and C
    against the homogeneous chase summed over whole equations."""
    monkeypatch.setattr(graph_chase, "DENSE", 0 if dense else 10**9)
    rng = random.Random(41 if rule == "sigma" else 42)
    for n, degree, isolated in [(200, 40.0, 0), (230, 90.0, 3), (260, 60.0, 0), (300, 150.0, 1), (333, 45.0, 0),
                                (400, 120.0, 2), (520, 70.0, 0)]:
        core = sparse_graph(rng, n - isolated, degree, rule)
        graph = Graph(tuple(f"v{i}" for i in range(n)), core.edges, rule, 2)
        graph_chase.plan.cache_clear()
        p = graph_chase.Plan(graph)
        assert len(p.steps) == n and sorted(e for e, _ in p.steps) == list(range(n))
        pivots = [v for _, v in p.steps if v >= 0]
        assert len(set(pivots) | set(p.free)) == n == len(pivots) + p.f
        _forms, want = homogeneous_chase(p, n)
        assert [int.from_bytes(row.tobytes(), "little") for row in p.c] == want
        columns = [(1 << j) if rule == "sigma+" else 0 for j in range(n)]  # column j of A: the lights press j reaches
        for i, j in graph.edges:
            columns[i] |= 1 << j
            columns[j] |= 1 << i
        nullity = n - gf2_rank(columns)
        seen = set()
        for t in range(4):
            start = [rng.randint(0, 1) for _ in range(n)]
            if t % 2:
                start = press(graph, start)
            if isolated and t == 2:
                start[n - 1] = 1  # no press reaches it under sigma; under sigma+ only its own
            solvable, d = check_answer(graph, start, None)
            assert d == nullity
            assert solvable or t % 2 == 0
            seen.add(solvable)
        assert True in seen
        if isolated and rule == "sigma":
            assert False in seen  # an unsolvable start: its witness was checked
