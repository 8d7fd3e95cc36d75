"""What the guide advises, as facts: one small type per situation, worded only by countlo.ui.wording.

Every variant answers `phase`, `cell` (the cell to click, or None), `expected` (the count that
click should show, or None), `possible` (counts the prompt accepts) and `plan` (the finishing
clicks left, each with its count), so a caller that needs only those never looks at the type.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from countlo.hidden.diagnose import Fix
from countlo.hidden.explain import Suspect
from countlo.hidden.record import Step
from countlo.play.finish import Plan
from countlo.play.sift import Telling


class Tally(str, Enum):
    """How well a number of boards is known: exactly, as an estimate (the frontier engine past
    about 2^100 boards: a lower bound within a relative 1e-9, docs/MATH.md §22), or only as a
    lower bound (an engine that stops counting, e.g. `linear`). Its value is the word for people."""

    EXACT = ""
    ABOUT = "about"
    AT_LEAST = "at least"


class Phase(str, Enum):
    START = "start"
    PROBE = "probe"
    FINISH = "finish"
    DONE = "done"
    STUCK = "stuck"




@dataclass(frozen=True)
class AwaitStart:
    """No count yet: the player types the starting count, 0..cells."""

    cells: int
    phase: ClassVar[Phase] = Phase.START
    cell: ClassVar[None] = None
    expected: ClassVar[None] = None
    plan: ClassVar[Plan] = ()

    @property
    def possible(self) -> tuple[int, ...]:
        return tuple(range(self.cells + 1))


@dataclass(frozen=True)
class Probe:
    """Click `cell` to learn about the board (None: the player chooses, for `manual`).

    `exhausted`: the strategy had nothing left to try, so this is the most informative click.
    """

    cell: int | None
    possible: tuple[int, ...]
    boards: int  # consistent starts before the click
    exhausted: bool = False
    tally: Tally = Tally.EXACT  # how well `boards` is known
    phase: ClassVar[Phase] = Phase.PROBE
    expected: ClassVar[None] = None
    plan: ClassVar[Plan] = ()


@dataclass(frozen=True)
class Finish:
    """The board is known (or, with `guessed` > 1, that many fit and no click tells them apart,
    so the plan clears one of them): click the plan's cells, each should show its count."""

    plan: Plan
    guessed: int = 0
    phase: ClassVar[Phase] = Phase.FINISH

    @property
    def cell(self) -> int:
        return self.plan[0][0]

    @property
    def expected(self) -> int:
        return self.plan[0][1]

    @property
    def possible(self) -> tuple[int, ...]:
        return (self.plan[0][1],)


@dataclass(frozen=True)
class Done:
    """All lights out after `clicks` clicks."""

    clicks: int
    phase: ClassVar[Phase] = Phase.DONE
    cell: ClassVar[None] = None
    expected: ClassVar[None] = None
    possible: ClassVar[tuple[int, ...]] = ()
    plan: ClassVar[Plan] = ()


@dataclass(frozen=True)
class _Stuck:
    phase: ClassVar[Phase] = Phase.STUCK
    cell: ClassVar[None] = None
    expected: ClassVar[None] = None
    possible: ClassVar[tuple[int, ...]] = ()
    plan: ClassVar[Plan] = ()
    unclearable: ClassVar[bool] = False


@dataclass(frozen=True)
class Contradiction(_Stuck):
    """The counts contradict each other; `fixes` are the single-count changes that explain it
    (none: no single typo does)."""

    fixes: tuple[Fix, ...] = ()


@dataclass(frozen=True)
class GaveUp(_Stuck):
    """The click bound was reached without clearing the board."""

    clicks: int = 0


@dataclass(frozen=True)
class Unclearable(_Stuck):
    """No press set clears the lights: they meet a quiet pattern in an odd number of cells.

    `boards`: starts still possible (1 once known); `guessed`: the board was a guess among that
    many; `witness`: a quiet pattern proving it for all of them (None when each needs another of
    the `quiet` independent patterns); `listed`: found by checking every possible start before
    the board was known (docs/MATH.md §5: clicks never change whether lights can be cleared).
    """

    boards: int = 1
    witness: int | None = None
    quiet: int = 0
    guessed: bool = False
    listed: bool = False
    unclearable: ClassVar[bool] = True


@dataclass(frozen=True)
class Doubt(_Stuck):
    """The count typed for step `step` (`count` after clicking `clicked`) does not fit the counts
    before it. It waits aside, out of the record, until the player says which mistake it was:
    `suspects` explain it, likeliest first (countlo.hidden.explain); none: no single mistake
    does. `forced`: the player insisted on the count, so it is not a suspect itself.
    `held`: every step waiting aside, the doubted one first and the clicks made since to tell
    the suspects apart after it (`step`, `clicked` and `count` are the last one's);
    `telling`: the click whose count tells the suspects apart best (countlo.play.sift)."""

    step: int = 0
    clicked: int = 0
    count: int = 0
    suspects: tuple[Suspect, ...] = ()
    forced: bool = False
    held: tuple[Step, ...] = ()
    telling: Telling | None = None

    @property
    def first(self) -> int:
        """The step of the count first doubted."""
        return self.step - len(self.held) + 1


Stuck = Contradiction | GaveUp | Unclearable | Doubt
Advice = AwaitStart | Probe | Finish | Done | Stuck


@dataclass(frozen=True)
class Learned:
    """What one observation taught: boards possible before and after it, the fix applied by
    itself when exactly one typo explained a contradiction (no longer done: a count that does
    not fit is a `Doubt`, asked about), and the stuck state otherwise."""

    step: int
    cell: int
    count: int
    possible_before: int
    possible_after: int
    fixes: tuple[Fix, ...] = ()
    stuck: Stuck | None = None
    tally_before: Tally = Tally.EXACT  # how well possible_before and possible_after are known
    tally_after: Tally = Tally.EXACT

    @property
    def applied(self) -> Fix | None:
        """The single fix the guide applied by itself, if any."""
        return self.fixes[0] if len(self.fixes) == 1 and self.stuck is None else None
