"""The vocabulary every reconstruction engine answers in: engine names, the status of a record,
and the `Reconstruction` result (one type shared by `linear`, `z3` and `exact`).
"""

from __future__ import annotations

from enum import Enum

from countlo.errors import CountloError
from countlo.value import Value


class Engine(str, Enum):
    """The reconstruction engines, by the names users type."""

    EXACT = "exact"
    LINEAR = "linear"
    Z3 = "z3"


class Status(str, Enum):
    """What a record leaves of the hidden start: one board, several, or none."""

    DETERMINED = "determined"
    AMBIGUOUS = "ambiguous"
    CONTRADICTORY = "contradictory"


class UnknownEngineError(CountloError, ValueError):
    """An engine name that is not one of the engines."""


class Reconstruction(Value):
    """What a record says about the hidden start.

    `possible` is the number of consistent starts, exact if `possible_exact`, else a lower bound;
    `board` is the start when it is determined, else None. A `Value` rather than a dataclass:
    `countlo play --help` and `simulate --help` load this module for the engine names, and
    dataclasses (with inspect) would cost them a third of an interpreter's start.
    """

    FIELDS = __slots__ = ("status", "board", "possible", "possible_exact")
    status: Status
    board: int | None
    possible: int
    possible_exact: bool

    def __init__(self, status: Status, board: int | None, possible: int, possible_exact: bool) -> None:
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "possible", possible)
        object.__setattr__(self, "possible_exact", possible_exact)


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


def engine_names() -> list[str]:
    """The engine names, the default (`exact`) first (argparse `choices` and help text)."""
    return [e.value for e in Engine]
