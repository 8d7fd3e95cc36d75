"""A graph's and a press map's English words (their repr and their pictures' titles)."""

from __future__ import annotations

from countlo.graph import Graph
from countlo.pressmap import PressMap


def test_one_of_a_thing_is_singular():
    one = Graph(("a",), ())
    assert str(one) == "graph of 1 node"
    assert one.describe() == "graph of 1 node and 0 edges, sigma+"
    two = Graph(("a", "b"), ((0, 1),), "sigma", 3, arcs=())
    assert two.describe() == "graph of 2 nodes and 1 edge, sigma, 3 states"
    arc = Graph(("a", "b", "c"), ((0, 1),), arcs=((1, 2),))
    assert arc.describe() == "graph of 3 nodes and 1 edge and 1 arc, sigma+"
    assert str(PressMap(("x",), ("b",), (((0, 1),),))) == "press map of 1 button and 1 light"
    assert str(PressMap(("x", "y"), ("b", "c"), (((0, 1),), ((1, 1),)))) == "press map of 2 buttons and 2 lights"
