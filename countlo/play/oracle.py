"""Oracles: the hidden game a companion talks to. It shows the starting count, then the count
after each click, nothing else.

`SimulatedOracle` hides a seeded random board; `ScriptedOracle` replays an exact script for
tests and fails loudly on any deviation. countlo.play.program adds a game program over a pipe.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from countlo.board import press_masks
from countlo.countboard import CountBoard
from countlo.errors import BadCellError
from countlo.i18n import _


class Oracle(Protocol):
    """A hidden CountLightsOut board: the starting count, then the count after each click."""

    shape: CountBoard

    def start(self) -> int: ...

    def click(self, cell: int) -> int: ...


def random_board(shape: CountBoard, rng: random.Random, density: float = 0.5) -> int:
    """A board with each light on independently with probability `density`."""
    board = 0
    for k in range(shape.cells):
        if rng.random() < density:
            board |= 1 << k
    return board


class SimulatedOracle:
    """A seeded random hidden board; `.board` reveals the start, `.lights` the lights now."""

    def __init__(self, shape: CountBoard, seed: int = 0, density: float = 0.5, board: int | None = None):
        if not 0.0 <= density <= 1.0:
            raise ValueError(f"density must be 0..1, not {density}")
        self.shape = shape
        self.seed = seed
        self.board = random_board(shape, random.Random(seed), density) if board is None else board
        self.lights = self.board
        self.clicks = 0

    def start(self) -> int:
        """The starting lit count."""
        return self.board.bit_count()

    def click(self, cell: int) -> int:
        """Toggle N(cell) and return the lit count."""
        if not 0 <= cell < self.shape.cells:
            raise BadCellError(_("cell number {n} is off the {shape} board").format(n=cell + 1, shape=self.shape))
        self.lights ^= press_masks(self.shape)[cell]
        self.clicks += 1
        return self.lights.bit_count()


class ScriptMismatch(AssertionError):
    """A ScriptedOracle was clicked off-script (a test failure, never a user error)."""


class ScriptedOracle:
    """Plays back `script` [(cell, count), ...]: expects exactly those clicks, in order."""

    def __init__(self, shape: CountBoard, start: int, script: Sequence[tuple[int, int]]):
        self.shape = shape
        self._start = start
        self.script = list(script)
        self.position = 0
        self.started = False

    def start(self) -> int:
        if self.started:
            raise ScriptMismatch("start() called twice")
        self.started = True
        return self._start

    def click(self, cell: int) -> int:
        if not self.started:
            raise ScriptMismatch(f"clicked {self.shape.name(cell)} before start()")
        if self.position >= len(self.script):
            raise ScriptMismatch(
                f"clicked {self.shape.name(cell)} after the script's {len(self.script)} clicks ended"
            )
        want, count = self.script[self.position]
        if cell != want:
            raise ScriptMismatch(
                f"click {self.position + 1}: expected {self.shape.name(want)}, "
                f"got {self.shape.name(cell)}"
            )
        self.position += 1
        return count

    @property
    def finished(self) -> bool:
        """True once every scripted click has been made."""
        return self.position == len(self.script)
