"""Rebuilding the hidden start from a record, with any of three engines that must agree.

`linear` (countlo.hidden.linear) eliminates the integer equations exactly and searches the free cells;
`z3` (countlo.hidden.smt) hands the same equations to an SMT solver; `exact` (countlo.hidden.posterior.window) counts
consistent starts row by row. The shared result types live in countlo.hidden.result; z3 itself loads only when the `z3`
engine runs.
"""

from __future__ import annotations

from countlo.hidden import linear, smt
from countlo.hidden.record import Record, first_prefix
from countlo.hidden.result import Engine, Reconstruction, Status, engine_of, from_count


def reconstruct(record: Record, engine: Engine | str = Engine.EXACT, limit: int | None = None) -> Reconstruction:
    """Status, start and number of consistent starts of `record` by the chosen engine.

    `limit` caps how many starts `linear` and `z3` count before answering "at least" (their
    defaults: countlo.hidden.linear.LIMIT and 2); `exact` always counts exactly.
    """
    engine = engine_of(engine)
    if limit is not None and limit < 2:
        raise ValueError(f"limit must be at least 2 to tell determined from ambiguous, not {limit}")
    if engine is Engine.LINEAR:
        return linear.reconstruct(record, limit or linear.LIMIT)
    if engine is Engine.Z3:
        return smt.reconstruct(record, limit or smt.LIMIT)
    # numpy loads with the exact engine only, so the record/result vocabulary stays cheap to import.
    from countlo.hidden.posterior.choice import posterior_of  # noqa: PLC0415

    p = posterior_of(record)
    return from_count(p.count, p.board, exact=getattr(p, "count_exact", True))


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

    steps = len(record.steps)
    if status(steps) is Status.AMBIGUOUS:
        return None
    n = first_prefix(steps, lambda k: status(k) is not Status.AMBIGUOUS)
    return n if status(n) is Status.DETERMINED else None
