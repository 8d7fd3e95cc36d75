"""The adaptive strategy's press algebra (countlo.visible.batch) on press matrices that are not
symmetric (Merlin's square, a directed graph; docs/MATH.md §30), checked against every board."""

from __future__ import annotations

import numpy as np
import pytest

from countlo.board import Shape, iter_bits, press_masks
from countlo.countboard import count_board
from countlo.formats.states import parse_graph
from countlo.play.pins import pins
from countlo.pressmap import holed, merlin
from countlo.visible.batch import algebra, bit_rows, fewest_press_sets, solvable

BOARDS = {
    "merlin": lambda: count_board(merlin()),
    "directed": lambda: count_board(parse_graph("a -> b\nb -> c\nc -> a\na d\n", "d")),
    "holes": lambda: count_board(holed(Shape(4, 4), [0, 10])),  # singular: some starts cannot be cleared
    "grid": lambda: Shape(3, 3),
}


def clears(masks: tuple[int, ...], presses: int, lights: int) -> bool:
    for j in iter_bits(presses):
        lights ^= masks[j]
    return lights == 0


@pytest.mark.parametrize("kind", sorted(BOARDS))
def test_solvable_and_the_fewest_press_sets_match_every_board(kind):
    board = BOARDS[kind]()
    n, masks = board.cells, press_masks(board)
    reachable: dict[int, int] = {}  # lights -> the fewest presses clearing them
    for x in range(1 << n):
        lights = 0
        for j in iter_bits(x):
            lights ^= masks[j]
        if lights not in reachable or x.bit_count() < reachable[lights].bit_count():
            reachable[lights] = x
    alg = algebra(board)
    every = bit_rows(list(range(1 << n)), n)
    ok = solvable(alg, every)
    assert [bool(v) for v in ok] == [s in reachable for s in range(1 << n)]
    chosen = fewest_press_sets(alg, every[ok])
    for s, row in zip([s for s in range(1 << n) if s in reachable], chosen):
        x = sum(1 << j for j, v in enumerate(row) if v)
        assert clears(masks, x, s) and x.bit_count() == reachable[s].bit_count()


@pytest.mark.parametrize("kind", ["merlin", "directed", "grid"])
def test_the_pins_read_the_press_set_from_the_count_parities(kind):
    """X_t = sum_j (M M^T)_tj (A^T s)_j: the parities of the clicks in t's support settle it."""
    board = BOARDS[kind]()
    found = pins(board)
    assert found is not None
    n, masks = board.cells, press_masks(board)
    alg = algebra(board)
    for s in range(1 << n):
        x = (bit_rows([s], n).astype(np.int64) @ alg.M.T.astype(np.int64)) & 1
        parity = [(masks[j] & s).bit_count() & 1 for j in range(n)]
        for t, support in enumerate(found.supports):
            assert x[0, t] == sum(parity[j] for j in support) % 2
