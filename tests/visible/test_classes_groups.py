"""Classes under other rules partition the solutions: checked on every board of a brute-forceable
size under every topology, rule, k and target (issue 31: on small joined boards, where a click
reaches a cell twice, the maps used were not closed under composition and the classes overlapped)."""

from __future__ import annotations

import itertools

import pytest

from countlo.board import Shape
from countlo.rules import NAMED, ROWCOL, TOPOLOGIES, Rule, Rules
from countlo.visible import solutions
from countlo.visible.classes import classes, generated, symmetries

RULES = [*NAMED, ROWCOL]


def moved(x: tuple[int, ...], p: tuple[int, ...]) -> tuple[int, ...]:
    y = [0] * len(x)
    for i, v in enumerate(x):
        y[p[i]] = v
    return tuple(y)


def boards():
    for topology, rule, k in itertools.product(TOPOLOGIES, RULES, (2, 3)):
        if rule == ROWCOL and topology != "plane":
            continue
        for rows, cols in itertools.product(range(1, 5), repeat=2):
            if rows * cols > (12 if k == 2 else 6):
                continue  # up to 2^12 or 3^6 solutions: every one is walked
            yield Shape(rows, cols, Rules(topology, Rule.named(rule), k))


@pytest.mark.parametrize("topology", TOPOLOGIES)
def test_classes_partition_the_solutions(topology):
    """Sizes add up to the solution count, and no two representatives share an orbit under the
    maps that fix start and target (orbits walked here by repeated application until closed)."""
    for shape in (b for b in boards() if b.rules.topology == topology):
        k = shape.rules.states
        for start, target in (([0] * shape.cells, None), ([1] * shape.cells, None),
                              ([i % k for i in range(shape.cells)], [1] * shape.cells)):
            sol = solutions.solve(shape, start, target)
            c = classes(shape, start, target)
            got, names, order = c.classes, c.symmetries, c.order
            if not sol.solvable:
                assert got == []
                continue
            assert sum(size for _rep, size in got) == sol.solutions, (shape, start)
            tgt = target or [0] * shape.cells
            gens = [p for _n, p in symmetries(shape)
                    if all(start[p[i]] == start[i] and tgt[p[i]] == tgt[i] for i in range(shape.cells))]
            reps = {tuple(rep) for rep, _size in got}
            assert len(reps) == len(got)
            for rep, size in got:
                orbit, work = {tuple(rep)}, [tuple(rep)]
                while work:
                    v = work.pop()
                    for p in gens:
                        w = moved(v, p)
                        if w not in orbit:
                            orbit.add(w)
                            work.append(w)
                assert len(orbit) == size and orbit & reps == {tuple(rep)}, (shape, start, rep)
                assert tuple(rep) == min(orbit)
            assert len(names) == len(set(gens)) and (order is None or order >= len(names))


def test_the_issue_boards():
    shape = Shape(3, 3, Rules.make("cylinder", "knight"))
    c = classes(shape, [0] * 9)
    got, order = c.classes, c.order
    assert sorted(size for _rep, size in got) == [1, 6, 9] and order == 72
    shape = Shape(3, 3, Rules.make("klein", "star"))
    c = classes(shape, [1] * 9)
    got, order = c.classes, c.order
    assert sum(size for _rep, size in got) == 256 and order is None  # every permutation of the 9 cells


def test_generated_is_the_closure():
    rotate = (1, 2, 3, 0)
    flip = (0, 3, 2, 1)
    group = generated([rotate, flip])
    assert group is not None and len(group) == len(set(group)) == 8
    assert all(tuple(map(g.__getitem__, h)) in group for g in group for h in group)
    assert generated([rotate, (1, 0, 2, 3)], limit=23) is None  # the symmetric group has 24
