"""Strategies: which cell to click next, given the record so far and what it tells.

A strategy is a small object with ``name`` and ``next_click(record, knowledge) -> int | None``;
None means "stop probing" (the board is known, or the strategy has nothing more to offer, or,
for `manual`, "ask the player"). The names users type live in countlo.play.strategies.registry.
"""

from __future__ import annotations

from typing import Protocol

from countlo.board import Shape
from countlo.countboard import CountBoard
from countlo.hidden.record import Record
from countlo.play.knowledge import Knowledge
from countlo.play.strategies.routine import routine


class Strategy(Protocol):
    """Chooses the next click: a cell index, or None to stop probing (or, if `asks`, to ask)."""

    name: str

    def next_click(self, record: Record, knowledge: Knowledge) -> int | None: ...


class Base:
    """Shared stopping rule: every strategy stops the moment the board is known."""

    name = "base"
    asks = False  # True: None means "the player chooses", not "nothing left to try"

    def __init__(self, shape: CountBoard):
        self.shape = shape

    def next_click(self, record: Record, knowledge: Knowledge) -> int | None:
        if record.count == self.shape.goal_count or knowledge.possible <= 1:
            return None
        return self.choose(record, knowledge)

    def choose(self, record: Record, knowledge: Knowledge) -> int | None:
        raise NotImplementedError


def _seen(record: Record) -> set[int]:
    return {s.cell for s in record.steps}


class Restore(Base):
    """Click a cell, read, click it back (2 per cell in reading order): reads A b over the integers."""

    name = "restore"

    def choose(self, record: Record, knowledge: Knowledge) -> int | None:
        if record.steps:
            last = record.steps[-1].cell
            if sum(s.cell == last for s in record.steps) == 1:
                return last  # click it back
        seen = _seen(record)
        return next((k for k in range(self.shape.cells) if k not in seen), None)


class Sequential(Base):
    """Every cell once in reading order (the documented z3 method)."""

    name = "sequential"

    def choose(self, record: Record, knowledge: Knowledge) -> int | None:
        seen = _seen(record)
        return next((k for k in range(self.shape.cells) if k not in seen), None)


class Fixed(Base):
    """A fixed routine of clicks that determines every board (countlo.play.strategies.routine), in its order."""

    name = "fixed"

    def __init__(self, shape: Shape):  # grids only (registry.GRID_ONLY)
        super().__init__(shape)
        self.routine = routine(shape)

    def choose(self, record: Record, knowledge: Knowledge) -> int | None:
        seen = _seen(record)
        return next((k for k in self.routine.cells if k not in seen), None)


class Greedy(Base):
    """Maximise P(press needed) + weight * entropy of the next count (docs/MATH.md §15 baseline).

    Clicks likely to be part of the final press set cost nothing extra, and a count with high
    entropy halves the possible boards fastest.
    """

    name = "greedy"
    weight = 0.5

    def choose(self, record: Record, knowledge: Knowledge) -> int | None:
        return best_informative(knowledge, self.weight)


class Manual(Base):
    """The player picks every probe: None means "ask"; finishing is still planned for them."""

    name = "manual"
    asks = True

    def choose(self, record: Record, knowledge: Knowledge) -> int | None:
        return None


def best_informative(knowledge: Knowledge, weight: float = 0.5) -> int | None:
    """The click maximising P(press needed) + weight * entropy; None if no click tells anything."""
    ent = knowledge.entropies
    if max(ent, default=0.0) <= 1e-12:
        return None
    press = knowledge.press_probabilities
    scores = [(press[k] + weight * ent[k], -k) for k in range(len(ent)) if ent[k] > 1e-12]
    return -max(scores)[1]


class EntropyOnly(Base):
    """The click whose count has the highest entropy under the exact posterior (lowest cell on
    ties): the information-only baseline the adaptive score is measured against."""

    name = "entropy"

    def choose(self, record: Record, knowledge: Knowledge) -> int | None:
        ent = knowledge.entropies
        best = max(ent)
        return ent.index(best) if best > 1e-12 else None
