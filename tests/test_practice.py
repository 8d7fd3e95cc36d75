"""The practice game's core: clicks, undo, hints and the optimum, against brute force."""

from __future__ import annotations

import random

import pytest

from countlo.board import Shape
from countlo.classic.generate import Generator
from countlo.classic.practice import Practice, Unwinnable
from countlo.errors import BadCellError


def fewest_brute(shape: Shape, lights: int) -> int:
    best = shape.cells + 1
    for x in range(1 << shape.cells):
        if shape.press_all(lights, x) == 0:
            best = min(best, x.bit_count())
    return best


@pytest.mark.parametrize("size", ["3x3", "4x4", "2x5"])
def test_hints_win_in_the_fewest_clicks(size):
    shape = Shape.parse(size)
    gen = Generator(shape, random.Random(4))
    for _ in range(5):
        start = shape.from_rows(gen.uniform().lights)
        game = Practice(shape, start)
        assert game.optimum == fewest_brute(shape, start)
        while not game.won:
            game.click(game.hint())
        assert game.moves == game.optimum and game.hint() is None


def test_click_undo_and_to_go():
    shape = Shape(4, 4)
    start = shape.press_all(0, 0b1000_0100_0010_0001)  # the diagonal pressed
    game = Practice(shape, start)
    assert game.lights == start and game.to_go() == game.optimum <= 4
    game.click(shape.parse_cell("B3"))
    assert game.lights == shape.press(start, shape.parse_cell("B3")) and game.moves == 1
    assert game.to_go() == fewest_brute(shape, game.lights)
    assert game.undo() == shape.parse_cell("B3") and game.lights == start and game.moves == 0
    assert game.undo() is None
    with pytest.raises(BadCellError):
        game.click(16)


def test_an_unwinnable_start_is_refused():
    shape = Shape(5, 5)
    with pytest.raises(Unwinnable):
        Practice(shape, 1)  # A1 alone: 5x5 has quiet patterns and this start meets one oddly
