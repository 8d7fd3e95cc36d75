"""Whole games: a guide and an oracle, click by click, until the lights are out or it stops."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from statistics import mean, median
from typing import Protocol

from countlo.errors import BadCountError, OracleError
from countlo.hidden.explain import Mistake
from countlo.hidden.record import Record
from countlo.i18n import _
from countlo.play.advice import Advice, Contradiction, Done, Finish, GaveUp, Unclearable
from countlo.play.guide import Guide
from countlo.play.oracle import Oracle
from countlo.tokens import shown


class Outcome(str, Enum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"  # the start provably cannot be cleared (quiet-pattern witness)
    CONTRADICTION = "contradiction"  # the game showed a count no board explains
    GAVE_UP = "gave up"  # the click bound was reached
    ORACLE_ERROR = "oracle error"  # the game program died, hung or printed garbage


@dataclass(frozen=True)
class Mismatch:
    """A finishing click showed `shown` where the counts before it predict `expected`."""

    cell: int
    shown: int
    expected: int


@dataclass(frozen=True)
class Refused:
    """The game showed a count no board allows: at the start (cell None) or after a click."""

    cell: int | None
    error: str


@dataclass(frozen=True)
class ProgramFailed:
    """The game program died, hung or printed garbage; `error` names the last exchange."""

    error: str


Ending = Advice | Mismatch | Refused | ProgramFailed


@dataclass(frozen=True)
class GameResult:
    outcome: Outcome
    ending: Ending
    probes: int
    clicks: int
    decision_times: tuple[float, ...]  # seconds per decision: observe + advice
    record: Record | None
    corrections: tuple[Mistake, ...] = ()
    refused: tuple[int, int] | None = None
    """The last click and the count it showed when no board allows that count (a contradiction's
    last observation): the record cannot hold it, but the click was sent and the count read."""

    @property
    def solved(self) -> bool:
        return self.outcome == Outcome.SOLVED

    @property
    def correct(self) -> bool:
        """True if the game ended as it should: cleared, or proved impossible to clear."""
        return self.outcome in (Outcome.SOLVED, Outcome.UNSOLVABLE)


def random_player(seed: int) -> Callable[[Guide], int]:
    """A player for `manual` games: cells never clicked, in a seeded random order, then any cell."""
    rng = random.Random(seed)

    def pick(guide: Guide) -> int:
        record = guide.record
        clicked = {s.cell for s in record.steps} if record else set()
        fresh = [k for k in range(guide.shape.cells) if k not in clicked]
        return rng.choice(fresh or list(range(guide.shape.cells)))

    return pick


def play_game(oracle: Oracle, strategy: str = "adaptive", engine: str = "exact", seed: int = 0,
              pick: Callable[[Guide], int] | None = None, max_clicks: int | None = None) -> GameResult:
    """Play one game: ask the guide, click, report the count, until done, stuck or contradicted.

    In FINISH every click's count is predicted; a different count from an oracle (which makes
    no typos) ends the game as a contradiction rather than being diagnosed as a typo.
    """
    guide = Guide(oracle.shape, strategy, engine, seed, max_clicks, counts=False)
    pick = pick or random_player(seed)
    times: list[float] = []

    def result(outcome: Outcome, ending: Ending, last: tuple[int, int] | None = None) -> GameResult:
        r = guide.record
        refused = None
        if last is not None and r is not None:
            try:
                r = r.then(*last)
            except BadCountError:  # kept beside the record: every observation is reported
                refused = last
        clicks = (len(r.steps) if r else 0) + (refused is not None)
        return GameResult(outcome, ending, guide.probes, clicks, tuple(times), r, guide.corrections, refused)

    def contradiction(ending: Ending, last: tuple[int, int]) -> GameResult:
        """A contradiction, unless the oracle printed more lines than it was asked for."""
        extra = getattr(oracle, "extra_line", None)
        line = extra() if extra is not None else None
        if line is not None:
            return result(Outcome.ORACLE_ERROR, ProgramFailed(
                f"after clicking {oracle.shape.name(last[0])} the program printed an extra line "
                f"{shown(line)} (one count per click is expected; the counts it printed fit no "
                "board)"), last)
        return result(Outcome.CONTRADICTION, ending, last)

    try:
        first = oracle.start()
        t = time.process_time()
        try:
            guide.start(first)
        except BadCountError as e:
            return result(Outcome.CONTRADICTION, Refused(None, str(e)))
        advice = guide.advice()
        times.append(time.process_time() - t)
        while True:
            if isinstance(advice, Done):
                return result(Outcome.SOLVED, advice)
            if isinstance(advice, Unclearable):
                return result(Outcome.UNSOLVABLE, advice)
            if isinstance(advice, GaveUp):
                return result(Outcome.GAVE_UP, advice)
            if isinstance(advice, Contradiction):
                return result(Outcome.CONTRADICTION, advice)
            cell = advice.cell if advice.cell is not None else pick(guide)
            count = oracle.click(cell)
            if isinstance(advice, Finish) and count != advice.expected:
                return contradiction(Mismatch(cell, count, advice.expected), (cell, count))
            t = time.process_time()
            try:
                guide.observe(cell, count)
            except BadCountError as e:
                return contradiction(Refused(cell, str(e)), (cell, count))
            if guide.doubt is not None:  # a repeated count that fits nothing: an oracle makes no typos
                return contradiction(Refused(cell, _("count {count} after clicking {cell} does not fit the "
                                                     "counts before it").format(
                    count=count, cell=oracle.shape.name(cell))), (cell, count))
            advice = guide.advice()
            times.append(time.process_time() - t)
    except OracleError as e:
        return result(Outcome.ORACLE_ERROR, ProgramFailed(str(e)))


@dataclass(frozen=True)
class Summary:
    """Totals over many games; probes and clicks are over the solved games only."""

    games: int
    solved: int
    unsolvable: int
    failed: int
    probes_mean: float | None
    probes_median: float | None
    probes_max: float | None
    clicks_mean: float | None
    clicks_median: float | None
    clicks_max: float | None
    decision_ms_mean: float | None
    decision_ms_median: float | None
    decision_ms_max: float | None


class Finished(Protocol):
    """What `summarize` reads of one game: a GameResult, or the countlo.cli.records.Played a
    game on a Dask cluster comes back as."""

    @property
    def outcome(self) -> Outcome: ...
    @property
    def probes(self) -> int: ...
    @property
    def clicks(self) -> int: ...
    @property
    def decision_times(self) -> tuple[float, ...]: ...
    @property
    def solved(self) -> bool: ...
    @property
    def correct(self) -> bool: ...


def summarize(results: Sequence[Finished]) -> Summary:
    """Means, medians and maxima of probes, total clicks and decision times."""
    won = [r for r in results if r.solved]
    probes = [r.probes for r in won]
    clicks = [r.clicks for r in won]
    ms = [t * 1000 for r in results for t in r.decision_times]

    def stats(xs: Sequence[float]) -> tuple[float | None, float | None, float | None]:
        return (mean(xs), median(xs), max(xs)) if xs else (None, None, None)

    return Summary(
        len(results), len(won), sum(r.outcome == Outcome.UNSOLVABLE for r in results),
        sum(not r.correct for r in results), *stats(probes), *stats(clicks), *stats(ms),
    )
