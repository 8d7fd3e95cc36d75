"""Rebuilding the hidden start from a record, with any of three engines that must agree.

`linear` (countlo.hidden.linear) eliminates the integer equations exactly and searches the free cells;
`z3` (countlo.hidden.smt) hands the same equations to an SMT solver; `exact` (countlo.hidden.posterior) counts
consistent starts row by row. Engines load lazily, so choosing one never imports another.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from countlo.errors import CountloError
from countlo.hidden.record import Record


class Engine(str, Enum):
    """The reconstruction engines, by the names users type."""

    LINEAR = "linear"
    Z3 = "z3"
    EXACT = "exact"


class Status(str, Enum):
    """What a record leaves of the hidden start: one board, several, or none."""

    DETERMINED = "determined"
    AMBIGUOUS = "ambiguous"
    CONTRADICTORY = "contradictory"


class UnknownEngineError(CountloError, ValueError):
    """An engine name that is not one of the engines."""


@dataclass(frozen=True)
class Reconstruction:
    """What a record says about the hidden start.

    `possible` is the number of consistent starts, exact if `possible_exact`, else a lower bound;
    `board` is the start when it is determined, else None.
    """

    status: Status
    board: int | None
    possible: int
    possible_exact: bool


def from_count(possible: int, first: int | None, exact: bool) -> Reconstruction:
    """The reconstruction of a record with `possible` consistent starts, `first` one of them."""
    if possible == 0:
        return Reconstruction(Status.CONTRADICTORY, None, 0, exact)
    if possible == 1 and exact:
        return Reconstruction(Status.DETERMINED, first, 1, True)
    return Reconstruction(Status.AMBIGUOUS, None, possible, exact)


def engine_of(engine: Engine | str) -> Engine:
    """The Engine named `engine` (an Engine or its name); UnknownEngineError lists the names."""
    try:
        return Engine(engine.strip().lower() if isinstance(engine, str) else engine)
    except ValueError:
        names = ", ".join(e.value for e in Engine)
        raise UnknownEngineError(f"unknown engine {str(engine)!r}: choose one of {names}") from None


def reconstruct(record: Record, engine: Engine | str = Engine.EXACT, limit: int | None = None) -> Reconstruction:
    """Status, start and number of consistent starts of `record` by the chosen engine.

    `limit` caps how many starts `linear` and `z3` count before answering "at least" (their
    defaults: countlo.hidden.linear.LIMIT and 2); `exact` always counts exactly.
    """
    engine = engine_of(engine)
    if limit is not None and limit < 2:
        raise ValueError(f"limit must be at least 2 to tell determined from ambiguous, not {limit}")
    if engine is Engine.LINEAR:
        from countlo.hidden import linear

        return linear.reconstruct(record, limit or linear.LIMIT)
    if engine is Engine.Z3:
        from countlo.hidden import smt

        return smt.reconstruct(record, limit or smt.LIMIT)
    from countlo.hidden.posterior import Posterior

    p = Posterior(record)
    return from_count(p.count, p.board, exact=True)


def determined_after(record: Record, engine: Engine | str = Engine.EXACT) -> int | None:
    """Fewest steps k whose prefix leaves exactly one start (0: the starting count alone), or None.

    The consistent starts of a prefix only shrink as steps are added (docs/MATH.md §13), so
    "at most one start left" holds from some prefix on: binary search finds it, and the start
    is determined there unless that prefix is already contradictory (then no prefix determines
    it). A record that a later count contradicts still reports the prefix that first pinned a
    start.
    """
    engine = engine_of(engine)

    def status(n: int) -> Status:
        return reconstruct(record.prefix(n), engine, limit=2).status

    lo, hi = 0, len(record.steps)
    if status(hi) is Status.AMBIGUOUS:
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if status(mid) is Status.AMBIGUOUS:
            lo = mid + 1
        else:
            hi = mid
    return lo if status(lo) is Status.DETERMINED else None
