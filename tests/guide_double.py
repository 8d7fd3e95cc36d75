"""A brute-force stand-in for countlo.guide.Guide on tiny boards, following its pinned API.

Used only until the real Guide lands, so the session front end can be built and tested.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from countlo.board import Shape, popcount, press_masks
from countlo.errors import BadCountError
from countlo.observe import Record, Step, possible_after


class Phase(str, Enum):
    START = "start"
    PROBE = "probe"
    FINISH = "finish"
    DONE = "done"
    STUCK = "stuck"


@dataclass(frozen=True)
class Advice:
    phase: Phase
    cell: int | None
    expected: int | None
    possible: tuple[int, ...]
    plan: tuple[tuple[int, int], ...]
    message: str


@dataclass(frozen=True)
class Progress:
    clicks: int
    probes: int
    possible: int
    bits_known: float
    strategy: str
    phase: Phase


@dataclass(frozen=True)
class Learned:
    step: int
    cell: int
    count: int
    possible_before: int
    possible_after: int
    message: str
    fixes: tuple = ()


class Guide:
    def __init__(self, shape, strategy="adaptive", engine="exact", seed=0):
        self.shape, self.strategy, self.engine = shape, strategy, engine
        self.record: Record | None = None
        self.probes = 0
        self.corrections = ()

    @classmethod
    def from_record(cls, record, strategy="adaptive", engine="exact"):
        g = cls(record.shape, strategy, engine)
        g.record = record
        return g

    def _boards(self) -> list[int]:
        return [b for b in range(1 << self.shape.cells) if self.record.consistent(b)]

    @property
    def done(self) -> bool:
        return self.record is not None and self.record.count == 0

    def start(self, count: int) -> None:
        self.record = Record(self.shape, count)

    def known(self):
        bs = self._boards()
        return bs[0] if len(bs) == 1 else None

    def plan(self):
        b = self.known()
        if b is None:
            return []
        now = self.record.lights(b)
        masks = press_masks(self.shape)
        for presses in range(1 << self.shape.cells):
            x = now
            for k in range(self.shape.cells):
                if presses >> k & 1:
                    x ^= masks[k]
            if x == 0:
                out, x = [], now
                for k in range(self.shape.cells):
                    if presses >> k & 1:
                        x ^= masks[k]
                        out.append((k, popcount(x)))
                return out
        return []

    def phase(self) -> Phase:
        if self.record is None:
            return Phase.START
        if self.record.count == 0:
            return Phase.DONE
        n = len(self._boards())
        if n == 0:
            return Phase.STUCK
        return Phase.FINISH if n == 1 else Phase.PROBE

    def possible_counts(self, cell):
        if self.record is None:
            return tuple(range(self.shape.cells + 1))
        m = press_masks(self.shape)[cell]
        f = self.record.flips()
        return tuple(sorted({popcount(b ^ f ^ m) for b in self._boards()}))

    def advice(self) -> Advice:
        ph = self.phase()
        if ph is Phase.START:
            return Advice(ph, None, None, tuple(range(self.shape.cells + 1)), (), "Type the starting count")
        if ph in (Phase.DONE, Phase.STUCK):
            return Advice(ph, None, None, (), (), "Solved" if ph is Phase.DONE else "Stuck")
        if ph is Phase.FINISH:
            plan = tuple(self.plan())
            cell, exp = plan[0]
            return Advice(ph, cell, exp, (exp,), plan, f"Click {self.shape.name(cell)}: expect {exp}")
        if self.strategy == "manual":
            return Advice(ph, None, None, (), (), "Click any cell and say which")
        best = max(range(self.shape.cells), key=lambda k: (len(self.possible_counts(k)), -k))
        return Advice(ph, best, None, self.possible_counts(best), (), f"Click {self.shape.name(best)}")

    def observe(self, cell, count, force=False) -> Learned:
        before = len(self._boards())
        if self.phase() is Phase.PROBE and not force and count not in self.possible_counts(cell):
            raise BadCountError(f"count {count} after {self.shape.name(cell)} is impossible",
                                self.possible_counts(cell))
        if self.phase() is Phase.PROBE:
            self.probes += 1
        self.record = self.record.then(cell, count)
        after = len(self._boards())
        return Learned(len(self.record.steps), cell, count, before, after,
                       f"{self.shape.name(cell)} showed {count}: {after} boards possible")

    def correct(self, step, count):
        steps = list(self.record.steps)
        if step == 0:
            self.record = Record(self.shape, count, tuple(steps))
        else:
            steps[step - 1] = Step(steps[step - 1].cell, count)
            self.record = Record(self.shape, self.record.start, tuple(steps))

    def undo(self):
        if self.record is None or not self.record.steps:
            return None
        last = self.record.steps[-1]
        self.record = self.record.undo()
        return last

    def progress(self) -> Progress:
        n = len(self._boards()) if self.record else 1 << self.shape.cells
        clicks = len(self.record.steps) if self.record else 0
        return Progress(clicks, self.probes, n, self.shape.cells - math.log2(max(n, 1)),
                        self.strategy, self.phase())

    def marginals(self):
        if self.record is None:
            return [0.5] * self.shape.cells
        bs = self._boards()
        f = self.record.flips()
        if not bs:
            return [0.5] * self.shape.cells
        return [sum((b ^ f) >> k & 1 for b in bs) / len(bs) for k in range(self.shape.cells)]
