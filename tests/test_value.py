"""countlo.value.Value: what the records on the solve path keep from frozen, ordered dataclasses."""

from __future__ import annotations

import copy
import pickle

import pytest

from countlo.board import Shape
from countlo.value import Value
from countlo.visible.engines.polynomial_chase import Solution, solve


class Pair(Value):
    FIELDS = ("b", "a")  # declared order, not alphabetical, decides comparisons
    __slots__ = FIELDS
    b: int
    a: str

    def __init__(self, b: int, a: str) -> None:
        object.__setattr__(self, "b", b)
        object.__setattr__(self, "a", a)


class Other(Value):
    FIELDS = ("b", "a")
    __slots__ = FIELDS

    def __init__(self, b: int, a: str) -> None:
        object.__setattr__(self, "b", b)
        object.__setattr__(self, "a", a)


def test_equality_and_hash_follow_the_fields():
    assert Pair(1, "x") == Pair(1, "x") and hash(Pair(1, "x")) == hash(Pair(1, "x"))
    assert Pair(1, "x") != Pair(1, "y") and Pair(1, "x") != Pair(2, "x")
    assert Pair(1, "x") != Other(1, "x")  # another type is never equal, as with dataclasses
    assert Pair(1, "x") != (1, "x")
    assert len({Pair(1, "x"), Pair(1, "x"), Pair(2, "x")}) == 2


def test_order_is_by_fields_in_declared_order():
    assert Pair(1, "z") < Pair(2, "a") and Pair(2, "a") > Pair(1, "z")
    assert Pair(1, "a") <= Pair(1, "a") <= Pair(1, "b") and Pair(1, "b") >= Pair(1, "a")
    with pytest.raises(TypeError):
        _ = Pair(1, "x") < Other(1, "x")


def test_immutable():
    sol = Solution(False, None, 2, 7)
    with pytest.raises(AttributeError, match="immutable"):
        sol.nullity = 3  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable"):
        del sol.witness  # type: ignore[misc]
    with pytest.raises(AttributeError):
        sol.extra = 1  # type: ignore[attr-defined]
    assert sol == Solution(False, None, 2, 7)


def test_repr_pickle_and_copy():
    assert repr(Pair(1, "x")) == "Pair(b=1, a='x')"
    sol = solve(Shape(3, 3), 5)
    assert repr(sol).startswith("Solution(solvable=True, presses=")
    for v in (sol, Pair(1, "x")):
        assert pickle.loads(pickle.dumps(v)) == v
        assert copy.copy(v) == v and copy.deepcopy(v) == v
    assert Solution(False, None, 2, 7) == Solution(False, None, 2, 7)
