"""The exact posterior of a record, by the engine that suits its board, behind one protocol.

Every engine gives the same facts about the starts consistent with a record (each equally likely;
docs/MATH.md §9): how many there are, the one start when it is known, the chance each cell was lit
at the start and is lit now, for every cell the law of the count a click there would show, a
short list of the starts, and uniform samples.
"""

from __future__ import annotations

import random
from typing import Protocol

from countlo.board import Shape
from countlo.countboard import CountBoard
from countlo.hidden.posterior.frontier import FrontierPosterior
from countlo.hidden.posterior.split import SplitPosterior
from countlo.hidden.posterior.split import fits as split_fits
from countlo.hidden.posterior.window import WindowPosterior, check_window
from countlo.hidden.record import Record

FRONTIER_CELLS = 50  # from this many cells on, the frontier engine (measured: bench_posterior.py)


class Posterior(Protocol):
    """What every engine of the exact posterior gives (module docstring)."""

    record: Record
    count: int  # consistent starts (0: the record contradicts itself)
    board: int | None  # the start, when exactly one is consistent

    @property
    def nbytes(self) -> int:
        """Bytes of the tables kept (the guide bounds its cache by them)."""
        ...

    def start_marginals(self) -> list[float]: ...

    def light_marginals(self) -> list[float]: ...

    def count_distributions(self) -> list[dict[int, int]]: ...

    def count_distribution(self, cell: int) -> dict[int, int]: ...

    def boards(self, limit: int) -> list[int] | None: ...

    def sample(self, n: int, rng: random.Random) -> list[int]: ...


def posterior_of(record: Record, parent: Posterior | None = None) -> Posterior:
    """The exact posterior of `record` by the engine that suits its board: the window programme
    up to 7 x 7, the frontier programme on bigger boards; under other rules the split engine up
    to SPLIT_CELLS cells, whose memory is fixed by the board, then the window programme.

    `parent`, the posterior of record.undo() when the caller has it, lets the frontier programme
    redo only the part of its forward pass the last click changes (docs/MATH.md §29).

    A board that is not a grid (a press map, docs/MATH.md §30) never gets the frontier programme,
    which runs along rows: the split engine up to SPLIT_CELLS cells, else the window programme
    over the lights in their order."""
    shape = record.shape
    if isinstance(shape, Shape) and shape.cells >= FRONTIER_CELLS and shape.rules.classic:
        return FrontierPosterior(record, parent if isinstance(parent, FrontierPosterior) else None)
    if split_fits(record.shape):
        return SplitPosterior(record)
    return WindowPosterior(record)


def check_rules(shape: CountBoard) -> None:
    """Raise EngineLimitError when the exact posterior (`posterior_of`) cannot follow a game under
    these rules (never for the classic game, nor for boards the split engine takes). docs/MATH.md §18."""
    if shape.classic or split_fits(shape):  # small boards: the split engine, fixed memory
        return
    check_window(shape)
