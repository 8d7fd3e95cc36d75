"""Brute-force references for small boards (every start listed): posterior, solver, diagnose;
the Smith-form check of the dense eliminations over Z_k; and the check of a grid solver's answer.

Used by the tests to cross-check the engines, the guide and the strategies on small boards.
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict

import numpy as np

from countlo.board import Shape, press_masks
from countlo.errors import CountloError
from countlo.hidden.record import Record, Step, record_of
from countlo.visible import solutions
from countlo.visible.algebra import dense_lu, smith
from countlo.visible.engines import reference_chase


def gf2_rank(rows: list[int] | list[list[int]]) -> int:
    """Rank over GF(2) of rows given as int bitsets or as 0/1 lists (bit j = entry j): a plain
    elimination on Python ints, the reference the bit-packed eliminations are checked against."""
    basis: dict[int, int] = {}
    for row in rows:
        v = row if isinstance(row, int) else int("".join(map(str, reversed(row))) or "0", 2)
        while v:
            top = v.bit_length() - 1
            if top not in basis:
                basis[top] = v
                break
            v ^= basis[top]
    return len(basis)


def answer_is_right(solve_start, board: Shape, start: list[int], solvable: bool | None = None) -> bool:
    """A Z_k grid solver's answer for this start (solve_start -> presses, witness, orders) is right:
    presses that clear it, or a witness w with w A = 0 and w.b != 0 (b = -start); and it agrees with
    `solvable` when given. Returns whether it was solvable."""
    k, n = board.rules.states, board.cells
    presses, witness, _orders = solve_start(board, start)
    if solvable is not None:
        assert (presses is not None) == solvable
    if presses is not None:
        assert solutions.apply(board, start, presses) == [0] * n
        return True
    assert witness is not None
    assert all(sum(witness[i] * c for i, c in col.items()) % k == 0 for col in solutions.columns(board))
    assert sum(w * v for w, v in zip(witness, start)) % k
    return False


def against_the_general_chase(solve_start, board: Shape, rng: random.Random, starts: int = 3) -> set[bool]:
    """`starts` random starts, the second reachable (the lights of random presses), each answered
    by the solver and checked against the chase one equation at a time; the solvabilities seen."""
    k, n = board.rules.states, board.cells
    seen = set()
    for t in range(starts):
        start = [rng.randrange(k) for _ in range(n)]
        if t == 1:
            x = [rng.randrange(k) for _ in range(n)]
            start = [(-v) % k for v in solutions.apply(board, [0] * n, x)]
        ref = reference_chase.solve_by_plan(board, [(-v) % k for v in start])
        seen.add(answer_is_right(solve_start, board, start, ref.solvable))
    return seen


def reachable(board: Shape) -> dict[tuple[int, ...], int]:
    """Every b = A x over Z_k (a board under any rules, every press vector listed) with how many
    press vectors reach it; the count of the zero vector is the number of quiet patterns."""
    k, n = board.rules.states, board.cells
    cols = solutions.columns(board)
    out: dict[tuple[int, ...], int] = {}
    for x in itertools.product(range(k), repeat=n):
        v = [0] * n
        for j, times in enumerate(x):
            if times:
                for i, t in cols[j].items():
                    v[i] = (v[i] + t * times) % k
        out[tuple(v)] = out.get(tuple(v), 0) + 1
    return out


def by_counts(shape: Shape, clicks: list[int]) -> dict[tuple[int, ...], set[int]]:
    """Every start grouped by the counts it shows: brute force over all 2^cells starts."""
    groups: dict[tuple[int, ...], set[int]] = defaultdict(set)
    for b in range(1 << shape.cells):
        groups[tuple(record_of(shape, b, clicks).counts)].add(b)
    return groups


def random_records(shape: Shape, n: int, seed: int, most_clicks: int):
    """n records of random starts and up to `most_clicks` random clicks (seeded)."""
    rng = random.Random(seed)
    for _ in range(n):
        b = rng.getrandbits(shape.cells)
        clicks = [rng.randrange(shape.cells) for _ in range(rng.randint(0, most_clicks))]
        yield record_of(shape, b, clicks)


class BrutePosterior:
    """Every start consistent with the record, listed."""

    def __init__(self, record: Record):
        self.record = record
        self.shape = record.shape
        self.starts = [b for b in range(1 << self.shape.cells) if record.consistent(b)]
        self.count = len(self.starts)
        self.board = self.starts[0] if self.count == 1 else None

    def light_marginals(self) -> list[float]:
        f = self.record.flips()
        n = max(1, self.count)
        return [sum((b ^ f) >> k & 1 for b in self.starts) / n for k in range(self.shape.cells)]

    def count_distribution(self, cell: int) -> dict[int, int]:
        f = self.record.flips() ^ press_masks(self.shape)[cell]
        out: dict[int, int] = {}
        for b in self.starts:
            c = (b ^ f).bit_count()
            out[c] = out.get(c, 0) + 1
        return out

    def count_distributions(self) -> list[dict[int, int]]:
        return [self.count_distribution(k) for k in range(self.shape.cells)]

    def boards(self, limit: int) -> list[int] | None:
        return list(self.starts) if self.count <= limit else None

    def sample(self, n: int, rng: random.Random) -> list[int]:
        return [rng.choice(self.starts) for _ in range(n)] if self.starts else []


def brute_press_sets(shape: Shape, lights: int) -> list[int]:
    """Every press set (bitset) that clears `lights`."""
    masks = press_masks(shape)
    out = []
    for p in range(1 << shape.cells):
        b = lights
        for k in range(shape.cells):
            if p >> k & 1:
                b ^= masks[k]
        if b == 0:
            out.append(p)
    return out


def brute_fewest(shape: Shape, lights: int) -> int | None:
    """A fewest-click press set clearing `lights`, None if none."""
    sets = brute_press_sets(shape, lights)
    return min(sets, key=lambda p: (p.bit_count(), p)) if sets else None


def brute_diagnose(record: Record) -> list[tuple[int, int, int]]:
    """Every (step, written, suggested) single-count change that makes the record consistent."""
    out = []
    counts = record.counts
    for i, written in enumerate(counts):
        for c in range(record.shape.cells + 1):
            if c == written:
                continue
            steps = list(record.steps)
            try:
                if i == 0:
                    r = Record(record.shape, c, tuple(steps))
                else:
                    steps[i - 1] = Step(steps[i - 1].cell, c)
                    r = Record(record.shape, record.start, tuple(steps))
            except CountloError:
                continue
            if any(r.consistent(b) for b in range(1 << record.shape.cells)):
                out.append((i, written, c))
    return out


def agrees_with_the_smith_form(a: np.ndarray, k: int, rng: np.random.Generator) -> None:
    """The same kernel orders as zk's Smith form, generators that A sends to 0 (their orders: the
    order times the generator is 0, a smaller divisor is not), and on solvable and random
    right-hand sides the same verdict and a true solution."""
    m, n = a.shape
    ref = smith.factorize(a.tolist(), n, k)
    sys = dense_lu.System(a, k)
    assert sys.orders == ref.orders
    assert sys.gens.shape == (n, len(ref.orders))
    assert not (a @ sys.gens % k).any()
    for j, o in enumerate(sys.orders):
        assert not (sys.gens[:, j] * o % k).any()
        assert all((sys.gens[:, j] * (o // p) % k).any() for p, _e in smith.factor(o))
    for t in range(4):
        b = a @ rng.integers(0, k, n) % k if t % 2 else rng.integers(0, k, m)
        y = sys.solve(b)
        assert (y is None) == (ref.solve(b.tolist()) is None)
        if y is not None:
            assert not ((a @ y - b) % k).any()
