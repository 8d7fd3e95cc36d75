"""Solutions grouped under the symmetries fixing the start: orbits checked by Burnside's lemma."""

from __future__ import annotations

import random

import pytest

from countlo.board import Shape, Symmetry, bits
from countlo.errors import BadSizeError
from countlo.visible import classes as grouping
from countlo.visible.bitsets import all_solutions
from countlo.visible.engines.polynomial_chase import nullity


def fixing(shape: Shape, board: int) -> list[Symmetry]:
    return [s for s in shape.symmetries() if s.apply(board) == board]


def classes(shape: Shape, board: int, limit: int = grouping.MAX_SOLUTIONS) -> list[tuple[int, int]]:
    """The classic classes as (bitset representative, size)."""
    found = grouping.classes(shape, board, limit=limit)
    assert set(found.symmetries) <= {s.name for s in fixing(shape, board)}
    return [(bits(rep), size) for rep, size in found.classes]


def symmetric_start(shape: Shape, rng: random.Random) -> int:
    """The union of a random board's images under every symmetry: fixed by all of them."""
    b = rng.getrandbits(shape.cells)
    out = 0
    for s in shape.symmetries():
        out |= s.apply(b)
    return out


def check(shape: Shape, board: int) -> None:
    sols = set(all_solutions(shape, board))
    group = fixing(shape, board)
    assert all(g.apply(board) == board for g in group)
    assert group[0].name == "identity"
    got = classes(shape, board)
    assert sum(size for _, size in got) == len(sols)
    orbits = []
    for rep, size in got:
        orbit = {g.apply(rep) for g in group}
        assert len(orbit) == size and rep in orbit
        assert orbit <= sols  # members of a class are solutions and map to each other
        orbits.append(orbit)
    assert set().union(*orbits) == sols if orbits else not sols
    # Burnside: number of orbits = average number of solutions fixed by a group element
    fixed = sum(sum(1 for x in sols if g.apply(x) == x) for g in group)
    assert fixed % len(group) == 0 and fixed // len(group) == len(got)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 9, 11, 14, 16])
def test_all_on_square_uses_all_eight_symmetries(n):
    shape = Shape(n, n)
    assert len(fixing(shape, shape.full)) == 8
    check(shape, shape.full)


def test_known_small_class_counts():
    assert classes(Shape(4, 4), Shape(4, 4).full)[0][0].bit_count() == 4
    assert len(classes(Shape(6, 6), Shape(6, 6).full)) == 1  # one solution, one class of size 1
    assert sorted(s for _, s in classes(Shape(5, 5), Shape(5, 5).full)) == [4]


def test_random_symmetric_starts():
    rng = random.Random(3)
    for shape in [Shape(4, 4), Shape(5, 5), Shape(9, 9), Shape(4, 9), Shape(5, 11), Shape(2, 3),
                  Shape(7, 7), Shape(11, 11), Shape(3, 5)]:
        for _ in range(4):
            check(shape, symmetric_start(shape, rng))


def test_asymmetric_start_uses_the_subgroup_fixing_it():
    shape = Shape(4, 4)
    board = 0b1  # one corner: fixed by the identity and the transpose only
    names = [g.name for g in fixing(shape, board)]
    assert names == ["identity", "transpose"]
    rng = random.Random(8)
    for _ in range(20):
        b = rng.getrandbits(16)
        check(shape, b)
    lone = next(b for b in range(1, 1 << 16) if len(fixing(shape, b)) == 1 and b % 3 == 0
                and list(all_solutions(shape, b)))
    assert all(size == 1 for _, size in classes(shape, lone))


def test_unsolvable_start_has_no_classes():
    assert classes(Shape(4, 4), 1 << 5 | 1 << 6 | 1 << 9 | 1 << 10 | 1) == []


def test_too_many_solutions_is_refused():
    shape = Shape(19, 19)
    assert nullity(shape) == 16
    with pytest.raises(BadSizeError, match="2\\^16 solutions"):
        classes(shape, shape.full, limit=1000)


def test_huge_boards_are_refused():
    shape = Shape(300, 300)
    with pytest.raises(BadSizeError, match="at most 65536 cells"):
        classes(shape, shape.full)
