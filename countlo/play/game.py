"""Whole games: a guide and an oracle, click by click, until the lights are out or it stops."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from enum import Enum
from typing import Callable

from countlo.errors import BadCountError, OracleError
from countlo.play.guide import Guide, Phase
from countlo.hidden.record import Record
from countlo.play.oracle import Oracle
from countlo.tokens import shown


class Outcome(str, Enum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"  # the start provably cannot be cleared (quiet-pattern witness)
    CONTRADICTION = "contradiction"  # the game showed a count no board explains
    GAVE_UP = "gave up"  # the click bound was reached
    ORACLE_ERROR = "oracle error"  # the game program died, hung or printed garbage


@dataclass(frozen=True)
class GameResult:
    outcome: Outcome
    reason: str
    probes: int
    clicks: int
    decision_times: tuple[float, ...]  # seconds per decision: observe + advice
    record: Record | None
    corrections: tuple = ()

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

    def result(outcome: Outcome, reason: str, last: tuple[int, int] | None = None) -> GameResult:
        r = guide.record
        if last is not None and r is not None:
            try:
                r = r.then(*last)
            except BadCountError:
                pass
        return GameResult(outcome, reason, guide.probes, len(r.steps) if r else 0, tuple(times), r,
                          guide.corrections)

    def contradiction(reason: str, last: tuple[int, int]) -> GameResult:
        """A contradiction, unless the oracle printed more lines than it was asked for."""
        extra = getattr(oracle, "extra_line", None)
        line = extra() if extra is not None else None
        if line is not None:
            return result(Outcome.ORACLE_ERROR, f"after clicking {oracle.shape.name(last[0])} the "
                          f"program printed an extra line {shown(line)} (one count per click is "
                          "expected; the counts it printed fit no board)", last)
        return result(Outcome.CONTRADICTION, reason, last)

    try:
        first = oracle.start()
        t = time.perf_counter()
        try:
            guide.start(first)
        except BadCountError as e:
            return result(Outcome.CONTRADICTION, f"the game's starting count is impossible: {e}")
        advice = guide.advice()
        times.append(time.perf_counter() - t)
        while True:
            if advice.phase == Phase.DONE:
                return result(Outcome.SOLVED, advice.message)
            if advice.phase == Phase.STUCK:
                if advice.unclearable:
                    return result(Outcome.UNSOLVABLE, advice.message)
                if guide.record is not None and len(guide.record.steps) >= guide.max_clicks:
                    return result(Outcome.GAVE_UP, advice.message)
                return result(Outcome.CONTRADICTION, advice.message)
            cell = advice.cell if advice.cell is not None else pick(guide)
            count = oracle.click(cell)
            name = oracle.shape.name(cell)
            if advice.phase == Phase.FINISH and count != advice.expected:
                return contradiction(f"after clicking {name} the game showed {count}, but the "
                                     f"counts before it predict {advice.expected}", (cell, count))
            t = time.perf_counter()
            try:
                guide.observe(cell, count)
            except BadCountError as e:
                return contradiction(f"the game contradicts itself: {e}", (cell, count))
            advice = guide.advice()
            times.append(time.perf_counter() - t)
    except OracleError as e:
        return result(Outcome.ORACLE_ERROR, str(e))


@dataclass(frozen=True)
class Summary:
    """Totals over many games; probes and clicks are over the solved games only."""

    games: int
    solved: int
    unsolvable: int
    failed: int
    probes_mean: float | None
    probes_median: float | None
    probes_max: int | None
    clicks_mean: float | None
    clicks_median: float | None
    clicks_max: int | None
    decision_ms_mean: float | None
    decision_ms_median: float | None
    decision_ms_max: float | None


def summarize(results: list[GameResult]) -> Summary:
    """Means, medians and maxima of probes, total clicks and decision times."""
    from statistics import mean, median

    won = [r for r in results if r.solved]
    probes = [r.probes for r in won]
    clicks = [r.clicks for r in won]
    ms = [t * 1000 for r in results for t in r.decision_times]

    def stats(xs):
        return (mean(xs), median(xs), max(xs)) if xs else (None, None, None)

    return Summary(
        len(results), len(won), sum(r.outcome == Outcome.UNSOLVABLE for r in results),
        sum(not r.correct for r in results), *stats(probes), *stats(clicks), *stats(ms),
    )
