"""The outlook of a game: cells settled in or out of the press set, and the clicks still to come,
checked against every consistent start listed by brute force (small boards) and against the
hidden board and posterior samples (6x6, where the parities settle cells long before the end)."""

from __future__ import annotations

import math
import random

import pytest
from brute import BrutePosterior

from countlo.board import Shape, press_masks
from countlo.hidden.record import Record
from countlo.play.guide import Guide
from countlo.play.knowledge import Knowledge, press_set
from countlo.play.oracle import SimulatedOracle
from countlo.play.outlook import WASTE_PER_BIT, outlook


def clearing_table(shape: Shape) -> dict[int, int]:
    """Lights -> the press set clearing them, by pressing every one of the 2^cells sets."""
    masks = press_masks(shape)
    out: dict[int, int] = {}
    for p in range(1 << shape.cells):
        lights = 0
        for k in range(shape.cells):
            if p >> k & 1:
                lights ^= masks[k]
        out.setdefault(lights, p)
    return out


def settled_by_brute(record: Record, table: dict[int, int]) -> tuple[set[int], set[int], float]:
    """(cells in X for every consistent start, cells in X for none, mean |X|) by enumeration."""
    shape, flips = record.shape, record.flips()
    presses = [table[b ^ flips] for b in BrutePosterior(record).starts]
    needed = {k for k in range(shape.cells) if all(x >> k & 1 for x in presses)}
    spared = {k for k in range(shape.cells) if not any(x >> k & 1 for x in presses)}
    return needed, spared, sum(x.bit_count() for x in presses) / len(presses)


@pytest.mark.parametrize("rows, cols, strategy", [(3, 4, "adaptive"), (3, 3, "greedy"), (2, 4, "sequential")])
def test_marks_are_the_cells_settled_over_every_consistent_start(rows, cols, strategy):
    shape = Shape(rows, cols)
    table = clearing_table(shape)
    assert len(table) == 1 << shape.cells  # invertible: one press set per pattern
    marked = 0
    for seed in range(6):
        game = SimulatedOracle(shape, seed)
        guide = Guide(shape, strategy)
        guide.start(game.start())
        while guide.advice().phase == "probe":
            found = guide.outlook()
            needed, spared, mean = settled_by_brute(guide.record, table)
            assert found is not None and not found.known
            assert found.needed == needed and found.spared == spared
            bits = math.log2(BrutePosterior(guide.record).count)
            assert found.to_go == pytest.approx(mean + 2 * WASTE_PER_BIT * bits)
            marked += len(needed) + len(spared)
            cell = guide.advice().cell
            guide.observe(cell, game.click(cell))
        found = guide.outlook()
        assert found is not None and found.known
        x = table[game.lights]
        assert found.to_go == x.bit_count() and found.needed == {k for k in range(shape.cells) if x >> k & 1}
    assert marked  # some cells were settled before the end


def test_a_6x6_support_pins_its_targets_whatever_the_board():
    shape = Shape(6, 6)
    group = [shape.parse_cell(c) for c in ["A1", "C1", "A3", "C3", "E3", "C5"]]
    masks = press_masks(shape)
    for seed in range(4):
        game = SimulatedOracle(shape, seed)
        guide = Guide(shape)
        guide.start(game.start())
        for cell in group:
            guide.observe(cell, game.click(cell))
        found = guide.outlook()
        assert found is not None and guide.knowledge().possible > 4096  # long before the end
        settled = found.needed | found.spared
        assert settled == {shape.parse_cell("E1"), shape.parse_cell("A5")}
        truth = press_set(shape, game.lights)
        lights = 0
        for k in range(shape.cells):  # the press set really clears the hidden lights
            if truth >> k & 1:
                lights ^= masks[k]
        assert lights == game.lights
        assert found.needed == {k for k in settled if truth >> k & 1}
        rng = random.Random(seed)
        post = Knowledge(guide.record).posterior
        for b in post.sample(60, rng):  # and agrees with every sampled consistent start
            x = press_set(shape, b ^ guide.record.flips())
            assert {k for k in settled if x >> k & 1} == found.needed
        assert 0 < found.to_go < 60


def test_singular_boards_get_an_estimate_but_no_marks():
    shape = Shape(4, 4)
    guide = Guide(shape)
    game = SimulatedOracle(shape, 1)
    guide.start(game.start())
    for _ in range(3):
        cell = guide.advice().cell
        guide.observe(cell, game.click(cell))
    found = outlook(guide.knowledge())
    assert not found.needed and not found.spared and found.to_go > 0
